// Booking operations: read, list, cancel, tip, managing organizations, preferred drivers (creating: create-booking.ts).
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { badParameter, invalidFields, invalidTransition, unknownReference } from '../../../http/errors.ts';
import { decodeCursor, toPage } from '../../../http/pagination.ts';
import { listResourceEvents } from '../../../events/operations.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { isUuid, newId } from '../../../shared/ids.ts';
import { findUser, membershipsOf } from '../../identity/index.ts';
import { requireBooking, requireDispatcher } from '../access.ts';
import { bookingListScope, dispatchPermissions } from '../permissions.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { bookingEventData, recordBookingModified, settle, tourEventData } from '../settle.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { compactTour } from '../tours/merge-and-insert.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { isFinalStop } from './booking-status.ts';
import { checkManagingOrganizations } from './references.ts';
import * as repo from './repository.ts';
import type { BookingListQueryT } from './schemas.ts';
import { renderBookings } from './render-bookings.ts';
import { rotateTrackingLink } from './tracking-links.ts';
import { startingOverWhenToursChanged, ToursChangedMeanwhile } from '../start-over.ts';
import { getService } from '../../services/index.ts';
import { packagesOnBoard, returnPackagesOnBoard, returnsEnabled } from './return-on-cancel.ts';

/**
 * Runs `fn` in a transaction that holds the booking and every tour its stops are on, tours locked first (the order
 * every writer takes, so no deadlock). A stop dispatched into another tour between reading the tours and locking the
 * booking would leave that tour unlocked and unsettled: then the transaction starts over. `tourIds` are the tours
 * the booking's stops are on once it is locked.
 */
async function withBookingAndToursLocked<T>(deps: Deps, actor: Actor, id: string, fn: (tx: Tx, booking: repo.BookingRow, tourIds: string[]) => Promise<T>): Promise<T> {
  return startingOverWhenToursChanged(() =>
    deps.db.transaction(async (tx) => {
      const locked = await stopsRepo.tourIdsOfBookings(tx, actor.tenantId, [id]);
      await toursRepo.findToursForUpdate(tx, actor.tenantId, locked);
      const booking = await requireBooking(tx, actor, id, { forUpdate: true });
      const tourIds = await stopsRepo.tourIdsOfBookings(tx, actor.tenantId, [id]);
      if (tourIds.some((tourId) => !locked.includes(tourId))) throw new ToursChangedMeanwhile();
      return fn(tx, booking, tourIds);
    }),
  );
}

export async function getBooking(deps: Deps, actor: Actor, id: string, view: 'standard' | 'compact' = 'standard') {
  if (view === 'compact') {
    const booking = await requireBooking(deps.db, actor, id);
    return (await renderBookings(deps.db, deps, actor, [booking], view))[0]!;
  }
  // One statement for the booking, its children and its tip outcome; visibility is decided from the stops it brought.
  const found = await repo.findBookingWithChildren(deps.db, actor.tenantId, id, deps.hooks.dispatch.tipOutcomeRead);
  const booking = await requireBooking(deps.db, actor, { loaded: found?.booking, stops: found?.children.stops });
  const tips = deps.hooks.dispatch.tipOutcomeRead ? { evaluated: new Map([[id, found!.part ?? null]]) } : { fresh: false };
  const [rendered] = await renderBookings(deps.db, deps, actor, [booking], view, new Map([[id, found!.children]]), tips);
  return rendered!;
}

/**
 * The booking's timeline: its own events, newest first (decision 1662), for an admin and a manager who sees the
 * booking — the booking door answers 403 and 404 before the log is read; its tours' events are not in it.
 */
export async function listBookingEvents(deps: Deps, actor: Actor, id: string, query: { limit?: number; cursor?: string }) {
  await requireBooking(deps.db, actor, id, { action: 'booking_events' });
  return listResourceEvents(deps, actor.tenantId, { type: 'booking', id }, query);
}

/** A new tracking link for the booking (docs/tracking.md): the old one answers 404 at once; answers the booking. */
export async function rotateBookingTrackingLink(deps: Deps, actor: Actor, id: string) {
  await rotateTrackingLink(deps, actor, id);
  return getBooking(deps, actor, id);
}

export async function listBookings(deps: Deps, actor: Actor, query: BookingListQueryT) {
  const limit = query.limit ?? 25;
  const [beforeId] = decodeCursor(query.cursor) ?? [null];
  if (beforeId !== null && (typeof beforeId !== 'string' || !isUuid(beforeId))) {
    throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
  }
  const filters = query.filters ?? {};
  const rows = await repo.listBookings(deps.db, actor.tenantId, {
    ...(filters.customer_id ? { customerId: filters.customer_id } : {}),
    // After the filter: a customer's own bookings whatever customer_id says.
    ...bookingListScope(actor),
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
 * approaching or has reached fails (the driver is there), open packages are cancelled — but parcels already on board
 * go back to their pickup place on a return stop right after the driver's current stop (decision 1641).
 */
export async function cancelBooking(deps: Deps, actor: Actor, id: string) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await withBookingAndToursLocked(deps, actor, id, async (tx, booking, tourIds) => {
    const tenantId = actor.tenantId;
    if (booking.status === 'completed' || booking.status === 'cancelled') throw invalidTransition('booking', booking.status, 'cancelled');
    const stops = await stopsRepo.findStopsOfBookings(tx, tenantId, [id]);
    const packages = await packagesRepo.findPackagesOfBookings(tx, tenantId, [id]);
    const service = await getService(tx, tenantId, booking.serviceId);
    // Read under the tours' locks: a completion racing this cancel has either put the parcel on board or not.
    const onBoard = service && returnsEnabled(service) ? packagesOnBoard(stops, packages) : [];
    const returning = new Set(onBoard.map((o) => o.pkg.id));
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
    for (const pkg of packages) {
      if (!['created', 'awaiting_pickup', 'in_transit'].includes(pkg.status) || returning.has(pkg.id)) continue;
      await packagesRepo.updatePackage(tx, tenantId, pkg.id, { status: 'cancelled', updatedAt: at });
      await packagesRepo.insertPackageHistory(tx, [{ tenantId, id: newId(), packageId: pkg.id, at, event: 'cancelled', actorId: actor.userId }]);
    }
    await repo.updateBooking(tx, tenantId, id, { status: 'cancelled', updatedAt: at });
    await recordEvent(tx, { tenantId, actor, type: 'booking.transition', resourceId: id, at, data: { ...bookingEventData(booking), from: booking.status, to: 'cancelled', event: 'cancel' } });
    await recordBookingModified(tx, tenantId, actor, at, booking, tourIds.length > 0);
    for (const tourId of tourIds) await compactTour(tx, tenantId, tourId, at);
    const returns = onBoard.length ? await returnPackagesOnBoard(tx, tenantId, actor, id, service!, stops, onBoard, at) : [];
    for (const started of returns) {
      const data = { ...bookingEventData(booking), stop_id: started.stopId, tour_id: started.tourId };
      await recordEvent(tx, { tenantId, actor, type: 'booking.return_started', resourceId: id, at, data });
      await recordEvent(tx, { tenantId, actor, type: 'booking.route_changed', resourceId: id, at, data: { ...bookingEventData(booking), tour_id: started.tourId } });
    }
    for (const tourId of tourIds) {
      const tour = await toursRepo.findTour(tx, tenantId, tourId);
      if (tour) await recordEvent(tx, { tenantId, actor, type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    }
    await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds: [id], tourIds, event: 'cancel' });
  });
  return getBooking(deps, actor, id);
}

export async function setTip(deps: Deps, actor: Actor, id: string, tip: { amount: number; currency: string } | null) {
  dispatchPermissions.require(actor, 'tip');
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const booking = await requireBooking(tx, actor, id, { forUpdate: true });
    await repo.updateBooking(tx, actor.tenantId, id, { tip, updatedAt: at });
    await recordBookingModified(tx, actor.tenantId, actor, at, booking);
    await deps.hooks.dispatch.tipFactsChanged(tx, { tenantId: actor.tenantId, at, completedTourIds: [], bookingIds: [id] });
  });
  return getBooking(deps, actor, id);
}

/** PUT /api/hailing/bookings/{id}/managing_organizations: stays as set; visibility follows at once. */
export async function setManagingOrganizations(deps: Deps, actor: Actor, bookingId: string, organizationIds: string[]) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await withBookingAndToursLocked(deps, actor, bookingId, async (tx, booking, tourIds) => {
    const tenantId = actor.tenantId;
    await checkManagingOrganizations(tx, actor, organizationIds, '/managing_organization_ids');
    await repo.updateBooking(tx, tenantId, bookingId, { managingOrganizationIds: [...organizationIds].sort(), updatedAt: at });
    await recordBookingModified(tx, tenantId, actor, at, booking);
    await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds: [bookingId], tourIds, event: 'managing_organizations_changed' });
  });
  return getBooking(deps, actor, bookingId);
}

/**
 * Only drivers who could take the work may be preferred: drivers of one of the managing organizations, or of any
 * organization when there are none (docs/api-guide.md "Who sees what").
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

export async function setBookingPreferredDrivers(deps: Deps, actor: Actor, bookingId: string, driverIds: string[]) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const booking = await requireBooking(tx, actor, bookingId, { forUpdate: true });
    await checkPreferredDrivers(tx, actor.tenantId, driverIds, booking.managingOrganizationIds);
    await repo.updateBooking(tx, actor.tenantId, bookingId, { preferredDriverIds: driverIds, updatedAt: at });
    await recordBookingModified(tx, actor.tenantId, actor, at, booking);
  });
  return getBooking(deps, actor, bookingId);
}
