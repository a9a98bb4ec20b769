// Creating a booking: the fast path. The write is one statement (repository insertNewBooking, decision 0304) — inside
// a transaction under a savepoint, so a shortcode collision can be drawn again — and the constraint names it answers
// are known here only; the rest of the module never sees savepoints, complete rows or constraint names.
import type { Deps } from '../../../deps.ts';
import { isTransaction, type Queryable, type Tx } from '../../../db/client.ts';
import { uniqueViolation } from '../../../db/errors.ts';
import { completeRow } from '../../../db/json-insert.ts';
import type { Actor } from '../../../http/actor.ts';
import { AppError, invalidFields, unknownReference } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { eventRows, type EventActor, type EventInput } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { jobRow } from '../../../worker/jobs.ts';
import { findUser } from '../../identity/index.ts';
import { getSchedulingConfig, type ServiceConfig } from '../../services/index.ts';
import { requireBooking } from '../access.ts';
import { defaultManagingOrganizationIds, dispatchPermissions, ownBookingsOnly } from '../permissions.ts';
import { externalLabelErrors, preparePackages } from '../packages/operations.ts';
import type { packagesRepository as packagesRepo } from '../packages/index.ts';
import { newShortcode } from '../packages/index.ts';
import { bookingEventData, settle } from '../settle.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { buildStops, checkBookingStopLimit, placeIdsOf } from '../stops/index.ts';
import { bookings as bookingsTable, packageHistory, packages as packagesTable, stops as stopsTable } from '../tables.ts';
import { createTour } from '../tours/merge-and-insert.ts';
import { getBooking } from './operations.ts';
import { settledBooking } from './booking-status.ts';
import { checkManagingOrganizations } from './references.ts';
import * as repo from './repository.ts';
import type { BookingCreateInput } from './schemas.ts';
import { renderBookings } from './render-bookings.ts';
import { newBookingLink } from './tracking-links.ts';
import { locateStops, withNewPlaces, type Geocode } from './locate-stops.ts';
import { geocodeAddress } from '../../region/index.ts';

/** Address-only stops after the tenant's places: the region's geocoder (its regions, then a configured provider). */
const regionGeocode: Geocode = (q, tenantId, address, scope) => geocodeAddress(q, tenantId, { parts: address }, scope);

export const messages: Messages = {
  'booking.external_id_exists': {
    en: 'A booking with the external id {external_id} exists already and is not cancelled.',
    de: 'Eine Buchung mit der externen ID {external_id} gibt es schon, und sie ist nicht storniert.',
  },
};

/**
 * 409 external_id_exists (contract §14, decision 1560): the id is held by an open booking of the same tenant and
 * customer. The problem names that booking only when the caller may see it (visibility.ts): otherwise it says no more
 * than that the id is taken, as any caller who sends it learns anyway.
 */
export async function externalIdExists(q: Queryable, actor: Actor | undefined, booking: Pick<repo.BookingRow, 'tenantId' | 'customerId' | 'externalId'>): Promise<AppError> {
  const externalId = booking.externalId ?? '';
  const holder = await repo.findOpenBookingByExternalId(q, booking.tenantId, booking.customerId, externalId);
  const visible = holder && actor ? await requireBooking(q, actor, { loaded: holder }).then(() => true, () => false) : false;
  return new AppError(
    409,
    'external_id_exists',
    { key: 'booking.external_id_exists', params: { external_id: externalId } },
    [{ pointer: '/booking/external_id', code: 'external_id_exists', detail: 'is the external id of another booking that is not cancelled' }],
    visible && holder ? { booking_id: holder.id } : {},
  );
}

/** Auto-dispatch services put a new booking's stops into a new tour, released as their scheduling config says. */
async function autoDispatch(tx: Tx, tenantId: string, actor: EventActor, at: Date, service: ServiceConfig, booking: repo.BookingRow): Promise<string> {
  const config = service.schedulingConfigId ? await getSchedulingConfig(tx, tenantId, service.schedulingConfigId) : null;
  const stops = await stopsRepo.findStopsOfBookings(tx, tenantId, [booking.id]);
  return createTour(tx, tenantId, actor, at, {
    service,
    status: config?.mode === 'scheduled' ? 'scheduled' : 'pickable',
    scheduledAt: booking.scheduledAt,
    optimized: false,
    bookings: [booking],
    stops,
  });
}

/** After a shortcode collision at the insert: every package draws again. */
function redrawShortcodes(packages: packagesRepo.PackageRow[]): void {
  for (const pkg of packages) pkg.shortcode = newShortcode();
}

/** Shortcode collisions tolerated before giving up (each has a chance of about 1 in 10^11 per package). */
const SHORTCODE_DRAWS = 5;

/**
 * Writes a new booking in one statement (see `repo.insertNewBooking`), drawing its packages' shortcodes again when
 * the unique index refuses one; an external label taken meanwhile by a concurrent create is a 422 like any other.
 */
export async function writeNewBooking(
  q: Queryable,
  created: repo.NewBooking,
  events: EventInput[],
  inputs: { external_label?: string | null }[] = [],
  actor?: Actor,
): Promise<void> {
  for (let draw = 1; ; draw++) {
    try {
      // Inside a transaction a failed statement aborts it: there the attempt gets a savepoint, so a redraw can follow.
      if (isTransaction(q)) await q.transaction((savepoint) => repo.insertNewBooking(savepoint, created, eventRows(events)));
      else await repo.insertNewBooking(q, created, eventRows(events));
      return;
    } catch (err) {
      const constraint = uniqueViolation(err);
      if (constraint === 'packages_shortcode_key' && draw < SHORTCODE_DRAWS) {
        redrawShortcodes(created.packages);
        continue;
      }
      // Whoever sent the other booking (a session, a key, another process): the index decides, not a read (decision 1560).
      if (constraint === 'bookings_open_external_id_key') throw await externalIdExists(q, actor, created.booking);
      if (constraint === 'packages_open_external_label_key') {
        const errors = await externalLabelErrors(q, created.booking.tenantId, inputs);
        if (errors.length) throw invalidFields(errors);
      }
      throw err;
    }
  }
}

/**
 * Every check of a new booking and every row it would write, read without writing anything: the create writes what
 * this returns, a bulk dry run stops here (decision 0320), so both apply the same rules.
 */
async function prepareBooking(deps: Deps, actor: Actor, input: BookingCreateInput) {
  dispatchPermissions.require(actor, 'create_booking');
  const at = deps.clock.now();
  const tenantId = actor.tenantId;
  const { db } = deps;
  const references = await repo.findBookingReferences(db, tenantId, input.service_id, placeIdsOf(input.stops));
  const { service } = references;
  if (!service) throw unknownReference('/booking/service_id', 'service');
  checkBookingStopLimit(service, input.stops.length);
  // Customers book for themselves; managers' bookings are managed by their organizations unless told otherwise.
  const customerId = ownBookingsOnly(actor) ? actor.userId : (input.customer_id ?? null);
  if (customerId && !ownBookingsOnly(actor)) {
    const customer = await findUser(db, tenantId, customerId);
    if (!customer || customer.role !== 'customer') throw unknownReference('/booking/customer_id', 'customer');
  }
  const managing = input.managing_organization_ids ?? defaultManagingOrganizationIds(actor);
  await checkManagingOrganizations(db, actor, managing, '/booking/managing_organization_ids');
  const id = newId();
  // Address-only stops are located now, before any write (contract §14, decision 1562).
  const { located, pending } = await locateStops(db, regionGeocode, tenantId, { customerId, serviceAreaId: service.serviceAreaId }, input.stops, (i) => `/booking/stops/${i}`);
  const stops = (await buildStops(db, tenantId, service, input.stops, (i) => `/booking/stops/${i}`, at, { knownPlaces: references.places, located })).map((row, i) =>
    completeRow(stopsTable, { ...row, bookingId: id, position: i }),
  );
  const managingOrganizationIds = [...managing].sort();
  // No tour yet: what settle would store for these stops (decision 0218), so the create records no transition.
  const settled = settledBooking(null, { customerId, managingOrganizationIds, tours: [] }, stops);
  const booking = completeRow(bookingsTable, {
    tenantId,
    id,
    externalId: input.external_id ?? null,
    serviceId: service.id,
    serviceAreaId: service.serviceAreaId,
    customerId,
    status: settled.status,
    scheduledAt: input.scheduled_at ? new Date(input.scheduled_at) : null,
    managingOrganizationIds,
    preferredDriverIds: [],
    tip: input.tip ?? null,
    earnings: null,
    metadata: input.metadata ?? {},
    createdAt: at,
    updatedAt: at,
  });
  const packageInputs = input.packages ?? [];
  const prepared = await preparePackages(db, actor, booking, stops, packageInputs, at);
  const packages = prepared.packages.map((p) => completeRow(packagesTable, p));
  const history = prepared.history.map((h) => completeRow(packageHistory, h));
  // Auto-dispatch decides after the create commits, as a job written with it (decision 1350); an auto dispatch_mode
  // service puts the booking into a new tour at once instead, so there is nothing left to decide.
  const decides = references.autoDispatch?.enabled === true && service.dispatchMode !== 'auto';
  const jobs = decides ? [jobRow({ tenantId, kind: 'bookings.auto_dispatch', payload: { booking_id: id }, dueAt: at, now: at, maxAttempts: 3 })] : [];
  const created = { booking, stops, packages, history, visibleTo: settled.organizationIds, jobs };
  const events: EventInput[] = [{ tenantId, actor, type: 'booking.created', resourceId: id, at, data: { ...bookingEventData(booking), status: booking.status } }];
  return { at, service, created, events, packageInputs, pending };
}

/** Runs every check the create would, writing nothing: a bulk dry run's answer for one item (decision 0320). */
export async function checkNewBooking(deps: Deps, actor: Actor, input: BookingCreateInput): Promise<void> {
  const { created } = await prepareBooking(deps, actor, input);
  // The write would meet the unique index: a dry run reads what it would say (a create leaves it to the index).
  const { booking } = created;
  if (booking.externalId && (await repo.findOpenBookingByExternalId(deps.db, booking.tenantId, booking.customerId, booking.externalId))) {
    throw await externalIdExists(deps.db, actor, booking);
  }
}

/**
 * Creates a booking and returns it rendered for the creator. The checks read outside any transaction (references
 * are re-checked by nothing, as a read-committed transaction would not either); the write is one statement, and the
 * response renders from the rows written, as a read after the commit would.
 */
export async function createBooking(deps: Deps, actor: Actor, input: BookingCreateInput) {
  const { at, service, created: checked, events, packageInputs, pending } = await prepareBooking(deps, actor, input);
  const { db } = deps;
  const { tenantId } = actor;
  const { booking, stops, packages, history } = checked;
  const { id } = booking;
  // The response shows the recipient's link: it is made now and written with the booking, not by the render (decision 1453).
  const link = newBookingLink(deps, actor, id, at);
  const created = { ...checked, trackingLinks: link ? [link] : [] };
  if (service.dispatchMode === 'auto') {
    // Dispatch rewrites the stops: one transaction with the create, and the response reads them again.
    await db.transaction(async (tx) => {
      await withNewPlaces(tx, created, input.stops, pending);
      await writeNewBooking(tx, created, events, packageInputs, actor);
      await autoDispatch(tx, tenantId, actor, at, service, booking);
      await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds: [id], tourIds: [], event: 'dispatch' });
    });
    return getBooking(deps, actor, id);
  }
  if (pending.length) {
    // The addresses' new places are made with the booking, or neither is (nothing half-written).
    await db.transaction(async (tx) => {
      await withNewPlaces(tx, created, input.stops, pending);
      await writeNewBooking(tx, created, events, packageInputs, actor);
    });
  } else await writeNewBooking(db, created, events, packageInputs, actor);
  await requireBooking(db, actor, { loaded: booking, stops });
  // Just created: no tip outcome can exist yet, so none is read; its link is the row just written.
  const [rendered] = await renderBookings(db, deps, actor, [booking], 'standard', new Map([[id, { stops, packages, history, trackingLink: link }]]), { fresh: true });
  return rendered!;
}
