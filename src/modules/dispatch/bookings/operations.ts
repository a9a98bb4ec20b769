// Booking operations: create, read, list, cancel, tip, custom stops, groups, stop properties, organizations, drivers.
import type { Deps } from '../../../deps.ts';
import { isTransaction, type Queryable, type Tx } from '../../../db/client.ts';
import { uniqueViolation } from '../../../db/errors.ts';
import { completeRow } from '../../../db/json-insert.ts';
import type { Actor } from '../../../http/actor.ts';
import { badParameter, forbidden, invalidFields, invalidTransition, notFound, unknownReference, type FieldError } from '../../../http/errors.ts';
import { decodeCursor, toPage } from '../../../http/pagination.ts';
import { eventRows, recordEvent, recordEvents, type EventInput } from '../../../events/outbox.ts';
import { isUuid, newId } from '../../../shared/ids.ts';
import { findOrganizations, findUser, membershipsOf } from '../../identity/index.ts';
import { getSchedulingConfig, getService, type ServiceConfig } from '../../services/index.ts';
import { createTour, compactTour } from '../tours/dispatch.ts';
import { bookingEventData, settle, tourEventData, tourFacts } from '../settle.ts';
import * as toursRepo from '../tours/repository.ts';
import { canSee, requireDispatcher, visibleBooking } from '../access.ts';
import { isFinalStop } from './booking-status.ts';
import { automaticGroup, checkExplicitGroup, groupAfterTypeChange } from '../stops/grouping.ts';
import { externalLabelErrors, preparePackages, redrawShortcodes } from '../packages/operations.ts';
import * as repo from './repository.ts';
import * as stopsRepo from '../stops/repository.ts';
import * as packagesRepo from '../packages/repository.ts';
import type { BookingCreateInput, BookingListQueryT, CustomStopInput, GroupsInput, StopPropertiesInput } from './schemas.ts';
import { buildStops, placeIdsOf, stopLimitReached } from '../stops/stop-input.ts';
import { renderBookings } from './views.ts';
import { bookingOrganizations, canSeeTour } from '../visibility.ts';
import { bookings as bookingsTable, stops as stopsTable } from '../tables.ts';

async function serviceOrReject(tx: Queryable, tenantId: string, id: string, pointer: string): Promise<ServiceConfig> {
  const service = await getService(tx, tenantId, id);
  if (!service) throw unknownReference(pointer, 'service');
  return service;
}

async function checkOrganizations(tx: Queryable, tenantId: string, ids: string[], pointer: string): Promise<void> {
  const found = new Set((await findOrganizations(tx, tenantId, ids)).map((o) => o.id));
  ids.forEach((id, i) => {
    if (!found.has(id)) throw unknownReference(`${pointer}/${i}`, 'organization');
  });
}

const recordModified = (tx: Tx, tenantId: string, at: Date, booking: repo.BookingRow, route = false) =>
  recordEvents(tx, [
    { tenantId, type: 'booking.modified', resourceId: booking.id, at, data: bookingEventData(booking) },
    ...(route ? [{ tenantId, type: 'booking.route_changed' as const, resourceId: booking.id, at, data: bookingEventData(booking) }] : []),
  ]);

/** Thrown inside a transaction when a booking's stops moved into another tour before the booking was locked. */
class ToursChangedMeanwhile extends Error {}

/** Starts over this often; each start needs a concurrent dispatch of the same booking in a window of microseconds. */
const LOCK_ATTEMPTS = 5;

/**
 * Runs `fn` in a transaction that holds the booking and every tour its stops are on, tours locked first (the order
 * every writer takes, so no deadlock). A stop dispatched into another tour between reading the tours and locking the
 * booking would leave that tour unlocked and unsettled: then the transaction starts over. `tourIds` are the tours
 * the booking's stops are on once it is locked.
 */
async function withBookingAndToursLocked<T>(deps: Deps, actor: Actor, id: string, fn: (tx: Tx, booking: repo.BookingRow, tourIds: string[]) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction(async (tx) => {
        const locked = await stopsRepo.tourIdsOfBookings(tx, actor.tenantId, [id]);
        await toursRepo.findToursForUpdate(tx, actor.tenantId, locked);
        const booking = await visibleBooking(tx, actor, id, { forUpdate: true });
        const tourIds = await stopsRepo.tourIdsOfBookings(tx, actor.tenantId, [id]);
        if (tourIds.some((tourId) => !locked.includes(tourId))) throw new ToursChangedMeanwhile();
        return fn(tx, booking, tourIds);
      });
    } catch (err) {
      if (!(err instanceof ToursChangedMeanwhile) || attempt === LOCK_ATTEMPTS) throw err;
    }
  }
}

/** Auto-dispatch services put a new booking's stops into a new tour, released as their scheduling config says. */
async function autoDispatch(tx: Tx, tenantId: string, at: Date, service: ServiceConfig, booking: repo.BookingRow): Promise<void> {
  const config = service.schedulingConfigId ? await getSchedulingConfig(tx, tenantId, service.schedulingConfigId) : null;
  const stops = await stopsRepo.findStopsOfBookings(tx, tenantId, [booking.id]);
  await createTour(tx, tenantId, at, {
    service,
    status: config?.mode === 'scheduled' ? 'scheduled' : 'pickable',
    scheduledAt: booking.scheduledAt,
    optimized: false,
    bookings: [booking],
    stops,
  });
}

/** Shortcode collisions tolerated before giving up (each has a chance of about 1 in 10^11 per package). */
const SHORTCODE_DRAWS = 5;

/**
 * Writes a new booking in one statement (see `repo.insertNewBooking`), drawing its packages' shortcodes again when
 * the unique index refuses one; an external label taken meanwhile by a concurrent create is a 422 like any other.
 */
export async function writeNewBooking(q: Queryable, created: repo.NewBooking, events: EventInput[], inputs: { external_label?: string | null }[] = []): Promise<void> {
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
      if (constraint === 'packages_open_external_label_key') {
        const errors = await externalLabelErrors(q, created.booking.tenantId, inputs);
        if (errors.length) throw invalidFields(errors);
      }
      throw err;
    }
  }
}

/**
 * Creates a booking and returns it rendered for the creator. The checks read outside any transaction (references
 * are re-checked by nothing, as a read-committed transaction would not either); the write is one statement, and the
 * response renders from the rows written, as a read after the commit would.
 */
export async function createBooking(deps: Deps, actor: Actor, input: BookingCreateInput) {
  if (actor.role === 'driver') throw forbidden();
  const at = deps.clock.now();
  const tenantId = actor.tenantId;
  const { db } = deps;
  const references = await repo.findBookingReferences(db, tenantId, input.service_id, placeIdsOf(input.stops));
  const { service } = references;
  if (!service) throw unknownReference('/booking/service_id', 'service');
  if (input.stops.length > service.maxStopsPerBooking) throw stopLimitReached(service.maxStopsPerBooking, 'booking');
  // Customers book for themselves; managers' bookings are managed by their organizations unless told otherwise.
  const customerId = actor.role === 'customer' ? actor.userId : (input.customer_id ?? null);
  if (customerId && actor.role !== 'customer') {
    const customer = await findUser(db, tenantId, customerId);
    if (!customer || customer.role !== 'customer') throw unknownReference('/booking/customer_id', 'customer');
  }
  const managing = input.managing_organization_ids ?? (actor.role === 'manager' ? actor.organizationIds : []);
  await checkOrganizations(db, tenantId, managing, '/booking/managing_organization_ids');
  const id = newId();
  const stops = (await buildStops(db, tenantId, service, input.stops, (i) => `/booking/stops/${i}`, at, references.places)).map((row, i) =>
    completeRow(stopsTable, { ...row, bookingId: id, position: i }),
  );
  const booking = completeRow(bookingsTable, {
    tenantId,
    id,
    externalId: input.external_id ?? null,
    serviceId: service.id,
    serviceAreaId: service.serviceAreaId,
    customerId,
    // A new booking's stops are all to be dispatched, so is the booking (deriveBookingStatus); no transition.
    status: 'to_be_dispatched',
    scheduledAt: input.scheduled_at ? new Date(input.scheduled_at) : null,
    managingOrganizationIds: [...managing].sort(),
    preferredDriverIds: [],
    tip: input.tip ?? null,
    earnings: null,
    metadata: input.metadata ?? {},
    createdAt: at,
    updatedAt: at,
  });
  const packageInputs = input.packages ?? [];
  const { packages, history } = await preparePackages(db, actor, booking, stops, packageInputs, at);
  // No tour yet: the managing organizations see it (SPEC.md visibility), as settle would store.
  const created = { booking, stops, packages, history, visibleTo: bookingOrganizations({ ...booking, tours: [] }).organizationIds };
  const events: EventInput[] = [{ tenantId, type: 'booking.created', resourceId: id, at, data: { ...bookingEventData(booking), status: booking.status } }];
  if (service.dispatchMode === 'auto') {
    // Dispatch rewrites the stops: one transaction with the create, and the response reads them again.
    await db.transaction(async (tx) => {
      await writeNewBooking(tx, created, events, packageInputs);
      await autoDispatch(tx, tenantId, at, service, booking);
      await settle(tx, { tenantId, at, bookingIds: [id], tourIds: [], event: 'dispatch' });
    });
    return getBooking(deps, actor, id);
  }
  await writeNewBooking(db, created, events, packageInputs);
  if (!(await canSee(db, actor, booking, stops))) throw notFound('booking');
  const [rendered] = await renderBookings(db, deps, actor, [booking], 'standard', new Map([[id, { stops, packages, history }]]));
  return rendered!;
}

export async function getBooking(deps: Deps, actor: Actor, id: string, view: 'standard' | 'compact' = 'standard') {
  if (view === 'compact') {
    const booking = await visibleBooking(deps.db, actor, id);
    return (await renderBookings(deps.db, deps, actor, [booking], view))[0]!;
  }
  // One statement for the booking and its children; visibility is decided from the stops it brought.
  const found = await repo.findBookingWithChildren(deps.db, actor.tenantId, id);
  if (!found || !(await canSee(deps.db, actor, found.booking, found.children.stops))) throw notFound('booking');
  const [rendered] = await renderBookings(deps.db, deps, actor, [found.booking], view, new Map([[id, found.children]]));
  return rendered!;
}

export async function listBookings(deps: Deps, actor: Actor, query: BookingListQueryT) {
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  if (beforeId !== null && (typeof beforeId !== 'string' || !isUuid(beforeId))) {
    throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
  }
  const filters = query.filters ?? {};
  const rows = await repo.listBookings(deps.db, actor.tenantId, {
    ...(actor.role === 'manager' ? { visibleToOrganizationIds: actor.organizationIds } : {}),
    ...(actor.role === 'driver' ? { onToursOfDriver: actor.userId } : {}),
    ...(actor.role === 'customer' ? { customerId: actor.userId } : filters.customer_id ? { customerId: filters.customer_id } : {}),
    ...(filters.status ? { statuses: filters.status } : {}),
    ...(filters.external_id ? { externalId: filters.external_id } : {}),
    ...(filters.service_area_id ? { serviceAreaId: filters.service_area_id } : {}),
    ...(filters.created_after ? { createdAfter: new Date(filters.created_after) } : {}),
    ...(filters.created_before ? { createdBefore: new Date(filters.created_before) } : {}),
    beforeId,
    limit,
  });
  const page = toPage(rows, limit, (row) => [row.id]);
  return { bookings: await renderBookings(deps.db, deps, actor, page.items, query.view ?? 'standard'), meta: page.meta };
}

/**
 * Cancels a booking: stops not yet under way leave their tours and are cancelled, a stop the driver is
 * approaching or has reached fails (the driver is there), open packages are cancelled.
 */
export async function cancelBooking(deps: Deps, actor: Actor, id: string): Promise<void> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await withBookingAndToursLocked(deps, actor, id, async (tx, booking, tourIds) => {
    const tenantId = actor.tenantId;
    if (booking.status === 'completed' || booking.status === 'cancelled') throw invalidTransition('booking', booking.status, 'cancelled');
    const stops = await stopsRepo.findStopsOfBookings(tx, tenantId, [id]);
    for (const stop of stops.filter((s) => !isFinalStop(s.status))) {
      if (stop.status === 'approaching' || stop.status === 'arrived') {
        await stopsRepo.updateStop(tx, tenantId, stop.id, {
          status: 'failed',
          failedAt: at,
          failure: { outcome: 'skip_recovery', reason_key: 'booking_cancelled', note: null },
          updatedAt: at,
        });
      } else {
        await stopsRepo.updateStop(tx, tenantId, stop.id, { status: 'cancelled', cancelledAt: at, tourId: null, tourPosition: null, updatedAt: at });
      }
    }
    for (const pkg of await packagesRepo.findPackagesOfBookings(tx, tenantId, [id])) {
      if (!['created', 'awaiting_pickup', 'in_transit'].includes(pkg.status)) continue;
      await packagesRepo.updatePackage(tx, tenantId, pkg.id, { status: 'cancelled', updatedAt: at });
      await packagesRepo.insertPackageHistory(tx, [{ tenantId, id: newId(), packageId: pkg.id, at, event: 'cancelled', actorId: actor.userId }]);
    }
    await repo.updateBooking(tx, tenantId, id, { status: 'cancelled', updatedAt: at });
    await recordEvent(tx, { tenantId, type: 'booking.transition', resourceId: id, at, data: { ...bookingEventData(booking), from: booking.status, to: 'cancelled', event: 'cancel' } });
    await recordModified(tx, tenantId, at, booking, tourIds.length > 0);
    for (const tourId of tourIds) {
      await compactTour(tx, tenantId, tourId, at);
      const tour = await toursRepo.findTour(tx, tenantId, tourId);
      if (tour) await recordEvent(tx, { tenantId, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    }
    await settle(tx, { tenantId, at, bookingIds: [id], tourIds, event: 'cancel' });
  });
}

export async function setTip(deps: Deps, actor: Actor, id: string, tip: { amount: number; currency: string } | null): Promise<void> {
  if (actor.role === 'driver') throw forbidden();
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const booking = await visibleBooking(tx, actor, id, { forUpdate: true });
    await repo.updateBooking(tx, actor.tenantId, id, { tip, updatedAt: at });
    await recordModified(tx, actor.tenantId, at, booking);
  });
}

function requireOpenBooking(booking: repo.BookingRow): void {
  if (booking.status === 'completed' || booking.status === 'cancelled') throw invalidTransition('booking', booking.status, 'modified');
}

/** POST /api/hailing/bookings/{id}/stops: a custom stop inserted into the booking at `position` (default: last). */
export async function addBookingStop(deps: Deps, actor: Actor, bookingId: string, input: CustomStopInput): Promise<string> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const booking = await visibleBooking(tx, actor, bookingId, { forUpdate: true });
    requireOpenBooking(booking);
    const service = await serviceOrReject(tx, tenantId, booking.serviceId, '/stop');
    const existing = await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId]);
    if (existing.filter((s) => s.status !== 'cancelled').length + 1 > service.maxStopsPerBooking) throw stopLimitReached(service.maxStopsPerBooking, 'booking');
    const [row] = await buildStops(tx, tenantId, service, [input.stop], () => '/stop', at);
    const position = Math.min(input.position ?? existing.length, existing.length);
    for (const stop of existing.slice(position).reverse()) await stopsRepo.updateStop(tx, tenantId, stop.id, { position: stop.position + 1 });
    await stopsRepo.insertStops(tx, [{ ...row!, bookingId, position }]);
    await recordModified(tx, tenantId, at, booking, true);
    await settle(tx, { tenantId, at, bookingIds: [bookingId], tourIds: [], event: 'stop_added' });
    return row!.id;
  });
}

/** PUT /api/hailing/bookings/{id}/stops/groups: custom groups set, null restoring the automatic group. */
export async function updateStopGroups(deps: Deps, actor: Actor, bookingId: string, input: GroupsInput): Promise<void> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const booking = await visibleBooking(tx, actor, bookingId, { forUpdate: true });
    const stops = new Map((await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId])).map((s) => [s.id, s]));
    const errors: FieldError[] = [];
    input.stops.forEach((entry, i) => {
      const stop = stops.get(entry.id);
      if (!stop) throw unknownReference(`/stops/${i}/id`, 'stop of this booking');
      if (entry.group !== null) checkExplicitGroup(entry.group, `/stops/${i}/group`);
      if (stop.status !== 'to_be_dispatched' && stop.status !== 'scheduled') {
        errors.push({ pointer: `/stops/${i}/id`, code: 'stop_not_editable', detail: `a ${stop.status} stop keeps its group` });
      }
    });
    if (errors.length) throw invalidFields(errors);
    for (const entry of input.stops) {
      const stop = stops.get(entry.id)!;
      const group = entry.group ?? (stop.placeId ? automaticGroup(stop.type, stop.placeId) : null);
      await stopsRepo.updateStop(tx, tenantId, stop.id, { group, updatedAt: at });
    }
    await recordModified(tx, tenantId, at, booking);
  });
}

/** PATCH /api/stops/{id}/properties: a changed type moves an automatic group along (SPEC.md Stop). */
export async function updateStopProperties(deps: Deps, actor: Actor, stopId: string, input: StopPropertiesInput): Promise<void> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const preview = await stopsRepo.findStop(tx, tenantId, stopId);
    if (!preview) throw notFound('stop');
    const tour = preview.tourId ? await toursRepo.findTourForUpdate(tx, tenantId, preview.tourId) : null;
    const [booking] = preview.bookingId ? await repo.findBookingsForUpdate(tx, tenantId, [preview.bookingId]) : [null];
    // A booking stop is seen through its booking, a tour-only stop through its tour.
    const visible = booking ? await canSee(tx, actor, booking) : tour !== null && canSeeTour(actor, tourFacts(tour));
    if (!visible) throw notFound('stop');
    const stop = (await stopsRepo.findStop(tx, tenantId, stopId))!;
    if (isFinalStop(stop.status)) throw invalidTransition('stop', stop.status, 'modified');
    const service = await serviceOrReject(tx, tenantId, booking?.serviceId ?? tour?.serviceId ?? '', '/stop');
    if (input.type !== undefined && !service.stopTypes.includes(input.type)) {
      throw invalidFields([{ pointer: '/stop/type', code: 'invalid_value', detail: `is not a stop type of the service (${service.stopTypes.join(', ')})` }]);
    }
    const patch: Partial<stopsRepo.StopRow> = { updatedAt: at };
    if (input.type !== undefined) Object.assign(patch, { type: input.type, group: groupAfterTypeChange(stop.group, input.type, stop.placeId) });
    if (input.contact !== undefined) {
      patch.contact = input.contact && { name: input.contact.name ?? null, phone_number: input.contact.phone_number ?? null, email: input.contact.email ?? null };
    }
    if (input.time_window !== undefined) {
      patch.timeWindowStartsAt = input.time_window ? new Date(input.time_window.starts_at) : null;
      patch.timeWindowEndsAt = input.time_window ? new Date(input.time_window.ends_at) : null;
    }
    if (input.service_duration_seconds !== undefined) patch.serviceDurationSeconds = input.service_duration_seconds;
    if (input.notes !== undefined) patch.notes = input.notes;
    await stopsRepo.updateStop(tx, tenantId, stopId, patch);
    if (booking) await recordModified(tx, tenantId, at, booking);
    if (tour) await recordEvent(tx, { tenantId, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) });
  });
}

/** PUT /api/hailing/bookings/{id}/managing_organizations: stays as set; visibility follows at once. */
export async function setManagingOrganizations(deps: Deps, actor: Actor, bookingId: string, organizationIds: string[]): Promise<void> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await withBookingAndToursLocked(deps, actor, bookingId, async (tx, booking, tourIds) => {
    const tenantId = actor.tenantId;
    await checkOrganizations(tx, tenantId, organizationIds, '/managing_organization_ids');
    await repo.updateBooking(tx, tenantId, bookingId, { managingOrganizationIds: [...organizationIds].sort(), updatedAt: at });
    await recordModified(tx, tenantId, at, booking);
    await settle(tx, { tenantId, at, bookingIds: [bookingId], tourIds, event: 'managing_organizations_changed' });
  });
}

/**
 * Only drivers who could take the work may be preferred: drivers of one of the managing organizations, or of any
 * organization when there are none (SPEC.md visibility).
 */
export async function checkPreferredDrivers(tx: Tx, tenantId: string, driverIds: string[], managing: string[]): Promise<void> {
  const memberships = await membershipsOf(tx, tenantId, driverIds);
  for (const [i, id] of driverIds.entries()) {
    const user = await findUser(tx, tenantId, id);
    if (!user || user.role !== 'driver' || user.deactivatedAt) throw unknownReference(`/preferred_driver_ids/${i}`, 'driver');
    const orgs = memberships.get(id) ?? [];
    if (managing.length && !orgs.some((o) => managing.includes(o))) {
      throw invalidFields([{ pointer: `/preferred_driver_ids/${i}`, code: 'driver_not_eligible', detail: 'is not a driver of a managing organization' }]);
    }
  }
}

export async function setBookingPreferredDrivers(deps: Deps, actor: Actor, bookingId: string, driverIds: string[]): Promise<void> {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const booking = await visibleBooking(tx, actor, bookingId, { forUpdate: true });
    await checkPreferredDrivers(tx, actor.tenantId, driverIds, booking.managingOrganizationIds);
    await repo.updateBooking(tx, actor.tenantId, bookingId, { preferredDriverIds: driverIds, updatedAt: at });
    await recordModified(tx, actor.tenantId, at, booking);
  });
}
