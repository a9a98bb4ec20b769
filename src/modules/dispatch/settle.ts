// After every dispatch change, in the same transaction: completes finished tours, derives booking statuses
// (booking.transition), refreshes each tour's managing organizations and the stored visibility of both.
// The one place for what every change shares: event payload builders and a tour's visibility facts.
import type { Tx } from '../../db/client.ts';
import { recordEvent, recordEvents, type EventActor, type EventInput } from '../../events/outbox.ts';
import { setActiveTour } from '../identity/index.ts';
import type { DispatchHooks } from './hooks.ts';
import { deriveBookingStatus, isFinalStop, settledBooking } from './bookings/index.ts';
import { bookingsRepository as bookingsRepo } from './bookings/index.ts';
import { toursRepository as repo } from './tours/index.ts';
import { isHeldByDriver } from './tours/index.ts';
import { tourOrganizations, type TourFacts } from './visibility.ts';
import { readForSettle, type SettleRows } from './settle-repository.ts';
import { syncVisibility, type VisibilityEntry } from './visibility-repository.ts';

export interface Change {
  tenantId: string;
  /** Who made the change: the events settle records carry it (decision 0106). */
  actor: EventActor;
  at: Date;
  bookingIds: string[];
  tourIds: string[];
  /** What caused the change, carried by booking.transition and tour.active_status_changed as `event`. */
  event: string;
}

export const bookingEventData = (b: bookingsRepo.BookingRow) => ({
  booking_id: b.id,
  customer_id: b.customerId,
  external_id: b.externalId,
  service_area_id: b.serviceAreaId,
});

export const tourEventData = (t: Pick<repo.TourRow, 'id' | 'serviceAreaId'>) => ({ tour_id: t.id, service_area_id: t.serviceAreaId });

/** booking.modified for a changed booking, with booking.route_changed when its stops' route changed too. */
export const recordBookingModified = (tx: Tx, tenantId: string, actor: EventActor, at: Date, booking: bookingsRepo.BookingRow, route = false) =>
  recordEvents(tx, [
    { tenantId, actor, type: 'booking.modified', resourceId: booking.id, at, data: bookingEventData(booking) },
    ...(route ? [{ tenantId, actor, type: 'booking.route_changed' as const, resourceId: booking.id, at, data: bookingEventData(booking) }] : []),
  ]);

/** What the visibility rules need of a tour. */
export const tourFacts = (t: repo.TourRow): TourFacts => ({
  status: t.status,
  driverId: t.driverId,
  executingOrganizationId: t.executingOrganizationId,
  managingOrganizationIds: t.managingOrganizationIds,
  preferredDriverIds: t.preferredDriverIds,
});

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));
const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))].sort();

export async function recordActiveStatusChange(
  tx: Tx,
  tenantId: string,
  actor: EventActor,
  at: Date,
  tour: Pick<repo.TourRow, 'id' | 'serviceAreaId'>,
  change: { from: string; to: string; event: string; driverId: string | null; affectedUserIds: string[] },
): Promise<void> {
  await recordEvent(tx, {
    tenantId,
    actor,
    type: 'tour.active_status_changed',
    resourceId: tour.id,
    at,
    data: {
      ...tourEventData(tour),
      from: change.from,
      to: change.to,
      event: change.event,
      driver_id: change.driverId,
      affected_user_ids: unique(change.affectedUserIds),
    },
  });
}

/** What settle read, as it left it: the change's tours (statuses and managing organizations settled) and stops. */
export type Settled = Pick<SettleRows, 'tours' | 'tourStops' | 'bookingStops'>;

/**
 * Settles a change and then lets other modules react (DispatchHooks), all in the caller's transaction: tip facts when
 * tours completed or bookings finished, tracked tours whenever the change touched tours.
 */
export async function settle(tx: Tx, hooks: DispatchHooks, change: Change): Promise<Settled> {
  const { tenantId, actor, at } = change;
  // The change's tours, its bookings' tours and those tours' bookings, with their stops and stored visibility: one
  // statement.
  const read = await readForSettle(tx, tenantId, unique(change.tourIds), unique(change.bookingIds));
  const { tours, tourStops, bookings, bookingStops } = read;

  // An en_route tour whose last open stop reached a final state completes (docs/api-guide.md "Bookings, stops and tours").
  const completedTourIds: string[] = [];
  for (const tour of tours) {
    const stops = tourStops.filter((s) => s.tourId === tour.id);
    if (tour.status !== 'en_route' || !stops.length || stops.some((s) => !isFinalStop(s.status))) continue;
    await repo.updateTour(tx, tenantId, tour.id, { status: 'completed', completedAt: at, updatedAt: at });
    if (tour.driverId) await setActiveTour(tx, tenantId, tour.driverId, null);
    await recordActiveStatusChange(tx, tenantId, actor, at, tour, {
      from: 'en_route',
      to: 'completed',
      event: 'complete',
      driverId: tour.driverId,
      affectedUserIds: tour.driverId ? [tour.driverId] : [],
    });
    tour.status = 'completed';
    completedTourIds.push(tour.id);
  }

  const transitions: EventInput[] = [];
  for (const booking of bookings) {
    const to = deriveBookingStatus(booking.status, bookingStops.filter((s) => s.bookingId === booking.id));
    if (to === booking.status) continue;
    await bookingsRepo.updateBooking(tx, tenantId, booking.id, { status: to, updatedAt: at });
    transitions.push({
      tenantId,
      actor,
      type: 'booking.transition',
      resourceId: booking.id,
      at,
      data: { ...bookingEventData(booking), from: booking.status, to, event: change.event },
    });
    booking.status = to;
    booking.updatedAt = at;
  }
  await recordEvents(tx, transitions);
  const finished = transitions.filter((e) => e.data.to === 'completed' || e.data.to === 'cancelled').map((e) => e.resourceId!);
  if (completedTourIds.length || finished.length) await hooks.tipFactsChanged(tx, { tenantId, at, completedTourIds, bookingIds: finished });

  // A tour's managing organizations are the union of its bookings' (docs/api-guide.md "Tour lifecycle"). A tour left without
  // booking stops keeps its last ones, so that its dispatchers can still refill or cancel it. Settle moves no
  // stop, so the tours' stops read above are still current.
  const bookingById = new Map(bookings.map((b) => [b.id, b]));
  const tourRows: VisibilityEntry[] = [];
  for (const tour of tours) {
    const ofTour = tourStops.filter((s) => s.tourId === tour.id && s.bookingId);
    const managing = unique(ofTour.flatMap((s) => bookingById.get(s.bookingId ?? '')?.managingOrganizationIds ?? []));
    if (ofTour.length && !sameSet(managing, tour.managingOrganizationIds)) {
      await repo.updateTour(tx, tenantId, tour.id, { managingOrganizationIds: managing });
      tour.managingOrganizationIds = managing;
    }
    tourRows.push({ id: tour.id, organizationIds: tourOrganizations(tourFacts(tour)).organizationIds });
  }

  // Tours already in hand (updated in place above) are not read again.
  const tourById = new Map(tours.map((t) => [t.id, t]));
  const otherTourIds = unique(bookingStops.map((s) => s.tourId)).filter((id) => !tourById.has(id));
  for (const tour of await repo.findTours(tx, tenantId, otherTourIds)) tourById.set(tour.id, tour);
  const bookingRows: VisibilityEntry[] = [];
  for (const booking of bookings) {
    const ofBooking = unique(bookingStops.filter((s) => s.bookingId === booking.id).map((s) => s.tourId)).flatMap((id) => {
      const tour = tourById.get(id);
      return tour ? [tourFacts(tour)] : [];
    });
    // By the rule the create's fast path writes a new booking with (decision 0218); the status was settled above.
    const { organizationIds } = settledBooking(booking.status, {
      customerId: booking.customerId,
      managingOrganizationIds: booking.managingOrganizationIds,
      tours: ofBooking,
    }, bookingStops.filter((s) => s.bookingId === booking.id));
    bookingRows.push({ id: booking.id, organizationIds });
  }
  // Only what differs from the stored rows is written: most changes (a stop step, a status change) leave every
  // resource's organizations as they were.
  const differs = (stored: Map<string, string[]>) => (e: VisibilityEntry) => !sameSet(unique([...e.organizationIds]), unique(stored.get(e.id) ?? []));
  await syncVisibility(tx, tenantId, { tour: tourRows.filter(differs(read.tourVisibility)), booking: bookingRows.filter(differs(read.bookingVisibility)) });

  // Stops, their order or the tour's driver may have changed: live tracking recomputes or drops the tours' ETAs.
  const touched = tours.map((t) => ({ id: t.id, tracked: isHeldByDriver(t.status) }));
  if (touched.length) await hooks.trackedToursChanged(tx, { tenantId, at, tours: touched, event: change.event });
  return { tours, tourStops, bookingStops };
}
