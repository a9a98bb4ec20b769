// Bookings SQL: bookings, a new booking with everything it brings, a booking's children, booking visibility. Handle and tenant id first.
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { isTransaction, type Queryable } from '../../../db/client.ts';
import { insertAll, rowsOf, type TableRows } from '../../../db/json-insert.ts';
import { firstRow, readTogether, rowFromJson, type JsonPart } from '../../../db/json-read.ts';
import { insertAllBatched } from '../../../db/write-batch.ts';
import { prepareSql, runPrepared } from '../../../db/prepared.ts';
import { placesRead } from '../../places/index.ts';
import { serviceAreaIdOfService, serviceRead } from '../../services/index.ts';
import { autoDispatchSettingRead } from '../../identity/index.ts';
import type { PackageHistoryRow, PackageRow } from '../packages/index.ts';
import type { StopRow } from '../stops/index.ts';
import { bookings, bookingTrackingLinks, bookingVisibility, packageHistory, packages, stops } from '../tables.ts';
import type { TrackingLinkRow } from './tracking-repository.ts';
import { jobs } from '../../../worker/tables.ts';
import type { JobRow } from '../../../worker/jobs.ts';

export type BookingRow = typeof bookings.$inferSelect;

// --- bookings

/** A new booking with everything it brings, written together. */
export interface NewBooking {
  booking: BookingRow;
  stops: StopRow[];
  packages: PackageRow[];
  history: PackageHistoryRow[];
  /** The organizations that see the booking (none stored yet). */
  visibleTo: string[];
  /** Jobs the booking calls for (its auto-dispatch decision, decision 1350), scheduled in the same statement. */
  jobs?: JobRow[];
  /** The booking's recipient tracking link when the create renders one (decisions 1100, 1453), in the same statement. */
  trackingLinks?: TrackingLinkRow[];
}

/**
 * One statement for the booking, its stops, packages, history, visibility, tracking link and `events` (the outbox's rows): atomic
 * on its own, so a create needs no transaction around it (one round trip instead of eight). Outside a transaction,
 * creates started at the same moment share the statement (db/write-batch.ts).
 */
export async function insertNewBooking(q: Queryable, created: NewBooking, events: TableRows): Promise<void> {
  const { tenantId, id: bookingId } = created.booking;
  const parts = [
    rowsOf(bookings, [created.booking]),
    rowsOf(stops, created.stops),
    rowsOf(packages, created.packages),
    rowsOf(packageHistory, created.history),
    rowsOf(bookingVisibility, created.visibleTo.map((organizationId) => ({ tenantId, organizationId, bookingId }))),
    events,
    rowsOf(jobs, created.jobs ?? []),
    rowsOf(bookingTrackingLinks, created.trackingLinks ?? []),
  ];
  // Through the database function insert_new_booking (migrations 0012, 0014), which takes the parts in this order.
  if (isTransaction(q)) await insertAll(q, 'insert_new_booking', parts, 'insert_new_booking');
  else await insertAllBatched(q, 'insert_new_booking', parts, 'insert_new_booking');
}

/** What a new booking refers to, read in one statement: its service, the places its stops are built from, its area's auto-dispatch. */
export async function findBookingReferences(q: Queryable, tenantId: string, serviceId: string, placeIds: string[]) {
  return readTogether(
    q,
    'find_booking_references',
    {
      service: serviceRead(sql.placeholder('tenantId'), sql.placeholder('serviceId')),
      places: placesRead(sql.placeholder('tenantId'), sql.placeholder('placeIds')),
      // Whether the booking's service area auto-dispatches it (decision 1350), in the same round trip.
      autoDispatch: autoDispatchSettingRead(sql.placeholder('tenantId'), serviceAreaIdOfService(sql.placeholder('tenantId'), sql.placeholder('serviceId'))),
    },
    { tenantId, serviceId, placeIds },
  );
}

/**
 * The open booking holding an external id for a tenant and customer (null: none), as the unique index
 * bookings_open_external_id_key counts them (migration 0018; an exempt older duplicate is not the holder).
 */
export async function findOpenBookingByExternalId(q: Queryable, tenantId: string, customerId: string | null, externalId: string): Promise<BookingRow | null> {
  const [row] = await q
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.tenantId, tenantId),
        eq(bookings.externalId, externalId),
        customerId ? eq(bookings.customerId, customerId) : isNull(bookings.customerId),
        ne(bookings.status, 'cancelled'),
        sql`${bookings.externalIdExempt} IS NOT TRUE`,
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function findBooking(q: Queryable, tenantId: string, id: string): Promise<BookingRow | null> {
  const [row] = await q.select().from(bookings).where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, id)));
  return row ?? null;
}

export async function findBookings(q: Queryable, tenantId: string, ids: string[]): Promise<BookingRow[]> {
  if (!ids.length) return [];
  return q.select().from(bookings).where(and(eq(bookings.tenantId, tenantId), inArray(bookings.id, ids)));
}

/** Locks in id order so that two writers touching the same bookings never deadlock. */
export async function findBookingsForUpdate(q: Queryable, tenantId: string, ids: string[]): Promise<BookingRow[]> {
  if (!ids.length) return [];
  return q
    .select()
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), inArray(bookings.id, ids)))
    .orderBy(asc(bookings.id))
    .for('update');
}

export async function updateBooking(q: Queryable, tenantId: string, id: string, patch: Partial<Omit<BookingRow, 'tenantId' | 'id'>>): Promise<void> {
  await q.update(bookings).set(patch).where(and(eq(bookings.tenantId, tenantId), eq(bookings.id, id)));
}

/**
 * What rendering a booking needs: its stops (by position), packages (by id) and their history (by id); its tracking
 * link row when the read brought it (null: none yet; absent: not read).
 */
export interface BookingChildren {
  stops: StopRow[];
  packages: PackageRow[];
  history: PackageHistoryRow[];
  trackingLink?: TrackingLinkRow | null;
}


// Rendering is bound by round trips, not by the database's work: a booking's children come as json_agg
// sub-selects of the statement that reads the booking (one statement per read). The outer columns are written
// qualified by hand: Drizzle leaves its own unqualified, and inside the sub-selects they would mean the inner table.
const childColumns = {
  stops: sql<Record<string, unknown>[]>`(SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM stops s
    WHERE s.tenant_id = "bookings"."tenant_id" AND s.booking_id = "bookings"."id")`,
  packages: sql<Record<string, unknown>[]>`(SELECT coalesce(json_agg(p ORDER BY p.id), '[]'::json) FROM packages p
    WHERE p.tenant_id = "bookings"."tenant_id" AND p.booking_id = "bookings"."id")`,
  history: sql<Record<string, unknown>[]>`(SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM package_history h
    WHERE h.tenant_id = "bookings"."tenant_id"
      AND h.package_id IN (SELECT p.id FROM packages p WHERE p.tenant_id = "bookings"."tenant_id" AND p.booking_id = "bookings"."id"))`,
  // The recipient's link row, so a render that shows it reads nothing more (decision 1453).
  trackingLink: sql<Record<string, unknown> | null>`(SELECT row_to_json(l) FROM booking_tracking_links l
    WHERE l.tenant_id = "bookings"."tenant_id" AND l.booking_id = "bookings"."id")`,
};

const toChildren = (row: {
  stops: Record<string, unknown>[];
  packages: Record<string, unknown>[];
  history: Record<string, unknown>[];
  trackingLink: Record<string, unknown> | null;
}): BookingChildren => ({
  stops: row.stops.map((s) => rowFromJson(stops, s)),
  packages: row.packages.map((p) => rowFromJson(packages, p)),
  history: row.history.map((h) => rowFromJson(packageHistory, h)),
  trackingLink: row.trackingLink ? rowFromJson(bookingTrackingLinks, row.trackingLink) : null,
});

/** Each part's SQL, built once: the statement is prepared once, and building the fragment cost every read ~10 µs. */
const builtParts = new WeakMap<object, JsonPart<unknown>>();
function partOf<T>(part: (tenantId: Placeholder, id: Placeholder) => JsonPart<T>): JsonPart<T> {
  let built = builtParts.get(part) as JsonPart<T> | undefined;
  if (!built) builtParts.set(part, (built = part(sql.placeholder('tenantId'), sql.placeholder('id'))));
  return built;
}

/**
 * The booking with its children, its tracking link row and, when another module adds one, its part (e.g.
 * compensation's tip outcome), in one statement. `part` must be the same for every call of a process: it is prepared
 * once. The read itself is the database function booking_with_children (migrations 0012, 0014): its plans are kept per
 * server connection, so the statement costs little to parse and plan even where every statement goes unnamed (through
 * a transaction pooler, decisions 1452, 1453).
 */
export async function findBookingWithChildren<T = never>(
  q: Queryable,
  tenantId: string,
  id: string,
  part?: ((tenantId: Placeholder, id: Placeholder) => JsonPart<T>) | null,
): Promise<{ booking: BookingRow; children: BookingChildren; part: T | undefined } | null> {
  const extra = part ? partOf(part) : undefined;
  const name = extra ? 'booking_with_children_and_part' : 'booking_with_children';
  const result = await runPrepared(
    q,
    name,
    (q) =>
      prepareSql(
        q,
        name,
        sql`SELECT f.booking_json AS booking, f.stops_json AS stops, f.packages_json AS packages, f.history_json AS history,
                   f.tracking_link_json AS tracking_link, ${extra ? extra.sql : sql`null`} AS part
              FROM booking_with_children(p_tenant_id => ${sql.placeholder('tenantId')}, p_id => ${sql.placeholder('id')}) f`,
      ),
    { tenantId, id },
  );
  const row = firstRow<{
    booking: Record<string, unknown>;
    stops: Record<string, unknown>[];
    packages: Record<string, unknown>[];
    history: Record<string, unknown>[];
    tracking_link: Record<string, unknown> | null;
    part: unknown;
  }>(result);
  if (!row) return null;
  return { booking: rowFromJson(bookings, row.booking), children: toChildren({ ...row, trackingLink: row.tracking_link }), part: extra?.decode(row.part) };
}

/** The children of several bookings, in one statement. */
export async function findChildrenOfBookings(q: Queryable, tenantId: string, ids: string[]): Promise<Map<string, BookingChildren>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: bookings.id, ...childColumns })
    .from(bookings)
    .where(and(eq(bookings.tenantId, tenantId), inArray(bookings.id, ids)));
  return new Map(rows.map((row) => [row.id, toChildren(row)]));
}

export interface BookingListQuery {
  /** Managers: only bookings one of these organizations sees (booking_visibility). */
  visibleToOrganizationIds?: string[];
  /** Drivers: only bookings with a stop on one of the driver's tours. */
  onToursOfDriver?: string;
  customerId?: string;
  statuses?: string[];
  externalId?: string;
  serviceAreaId?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  beforeId: string | null;
  limit: number;
}

/** Newest first on the UUIDv7 id (keyset); fetches limit + 1 rows. */
export async function listBookings(q: Queryable, tenantId: string, query: BookingListQuery): Promise<BookingRow[]> {
  const conditions: SQL[] = [eq(bookings.tenantId, tenantId)];
  if (query.visibleToOrganizationIds) {
    if (!query.visibleToOrganizationIds.length) return [];
    // Probed per booking on the visibility primary key while the bookings index is walked newest first, so the
    // first page costs the same at 10,000 and at 200,000 bookings.
    const orgs = sql.join(query.visibleToOrganizationIds.map((id) => sql`${id}::uuid`), sql`, `);
    conditions.push(sql`EXISTS (SELECT 1 FROM booking_visibility v WHERE v.tenant_id = ${bookings.tenantId}
                                   AND v.organization_id IN (${orgs}) AND v.booking_id = ${bookings.id})`);
  }
  if (query.onToursOfDriver) {
    conditions.push(sql`${bookings.id} IN (SELECT s.booking_id FROM stops s JOIN tours t ON t.tenant_id = s.tenant_id AND t.id = s.tour_id
                                            WHERE s.tenant_id = ${tenantId} AND t.driver_id = ${query.onToursOfDriver})`);
  }
  if (query.customerId) conditions.push(eq(bookings.customerId, query.customerId));
  if (query.statuses?.length) conditions.push(inArray(bookings.status, query.statuses as BookingRow['status'][]));
  if (query.externalId) conditions.push(eq(bookings.externalId, query.externalId));
  if (query.serviceAreaId) conditions.push(eq(bookings.serviceAreaId, query.serviceAreaId));
  if (query.createdAfter) conditions.push(gte(bookings.createdAt, query.createdAfter));
  if (query.createdBefore) conditions.push(lte(bookings.createdAt, query.createdBefore));
  if (query.beforeId) conditions.push(lt(bookings.id, query.beforeId));
  return q
    .select()
    .from(bookings)
    .where(and(...conditions))
    .orderBy(desc(bookings.id))
    .limit(query.limit + 1);
}

/** For a booking that has no visibility rows yet. */
export async function insertBookingVisibility(q: Queryable, tenantId: string, bookingId: string, organizationIds: string[]): Promise<void> {
  if (organizationIds.length) {
    await q.insert(bookingVisibility).values(organizationIds.map((organizationId) => ({ tenantId, organizationId, bookingId })));
  }
}
