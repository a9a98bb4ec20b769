// The doors of dispatch (decision 0219): one entry point per resource that every operation on that resource starts
// with. A door checks the role × action table (permissions.ts, 403), loads the row (locked with `forUpdate`), applies
// the visibility rule (visibility.ts: 404 for what is absent or unseen alike, before any state check) and returns
// the row. `{ loaded }` hands the door a row the operation already read (a combined read, a lock order), so a door
// never adds a query; `otherwise` names the error for a row referenced in a request body (422 unknown_reference).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound, type AppError } from '../../http/errors.ts';
import { findTours, toursRepository, type TourRow } from './tours/index.ts';
import { canSeeBooking, canSeeTour, seesBookingWithoutTours } from './visibility.ts';
import { dispatchPermissions } from './permissions.ts';
import { bookingsRepository as repo } from './bookings/index.ts';
// Past the stops' door (architecture test, SIDEWAYS_OPERATIONS): that door carries the stop views, which ask seesTour here.
import * as stopsRepo from './stops/repository.ts';
import { planningRepository, type PlanRow } from './planning/index.ts';
import { tourFacts } from './settle.ts';

export type DispatchAction = Parameters<typeof dispatchPermissions.may>[1];

/** A row the operation already read (null or undefined: there is none), instead of an id for the door to read. */
export interface Loaded<Row> {
  loaded: Row | null | undefined;
}

export interface DoorOptions {
  /** The role × action check (permissions.ts, 403), before anything is read. */
  action?: DispatchAction;
  /** Reads the row with `SELECT … FOR UPDATE`. */
  forUpdate?: boolean;
  /** The error for a row that is absent or unseen; 404 `not_found` of the resource by default. */
  otherwise?: () => AppError;
}

/** Dispatchers (permissions.ts): admins, and managers for what they see. */
export function requireDispatcher(actor: Actor): void {
  dispatchPermissions.require(actor, 'dispatch');
}

/** Whether the caller sees the tour (visibility.ts): a fact for an operation that decides on several tours at once, or renders by it. */
export const seesTour = (actor: Actor, tour: TourRow): boolean => canSeeTour(actor, tourFacts(tour));

/**
 * Whether the caller sees the booking. `stops`, when the caller already holds all of the booking's stops, spares
 * reading which tours they are on.
 */
async function seesBooking(q: Queryable, actor: Actor, booking: repo.BookingRow, stops?: stopsRepo.StopRow[]): Promise<boolean> {
  const decided = seesBookingWithoutTours(actor, booking);
  if (decided !== null) return decided;
  const tourIds = stops
    ? [...new Set(stops.map((s) => s.tourId).filter((id): id is string => id !== null))]
    : await stopsRepo.tourIdsOfBookings(q, actor.tenantId, [booking.id]);
  const tours = await findTours(q, actor.tenantId, tourIds);
  return canSeeBooking(actor, { customerId: booking.customerId, managingOrganizationIds: booking.managingOrganizationIds, tours: tours.map(tourFacts) });
}

/** The tour's door: the tour if the caller may take `action` (403) and sees it (404). */
export async function requireTour(q: Queryable, actor: Actor, tour: string | Loaded<TourRow>, options: DoorOptions = {}): Promise<TourRow> {
  if (typeof tour !== 'string') return requireLoadedTour(actor, tour.loaded, options);
  if (options.action) dispatchPermissions.require(actor, options.action);
  const row = options.forUpdate ? await toursRepository.findTourForUpdate(q, actor.tenantId, tour) : await toursRepository.findTour(q, actor.tenantId, tour);
  return requireLoadedTour(actor, row, options.otherwise ? { otherwise: options.otherwise } : {});
}

/** requireTour on a row already read, at once (no await): the driver position's fast path decides in one turn. */
export function requireLoadedTour<T extends TourRow>(actor: Actor, tour: T | null | undefined, options: Omit<DoorOptions, 'forUpdate'> = {}): T {
  if (options.action) dispatchPermissions.require(actor, options.action);
  if (!tour || !seesTour(actor, tour)) throw options.otherwise?.() ?? notFound('tour');
  return tour;
}

/** The booking's door: the booking if the caller may take `action` (403) and sees it (404). `stops`: as seesBooking's. */
export async function requireBooking(
  q: Queryable,
  actor: Actor,
  booking: string | (Loaded<repo.BookingRow> & { stops?: stopsRepo.StopRow[] }),
  options: DoorOptions = {},
): Promise<repo.BookingRow> {
  if (options.action) dispatchPermissions.require(actor, options.action);
  let row: repo.BookingRow | null | undefined;
  if (typeof booking !== 'string') row = booking.loaded;
  else [row] = options.forUpdate ? await repo.findBookingsForUpdate(q, actor.tenantId, [booking]) : [await repo.findBooking(q, actor.tenantId, booking)];
  if (!row || !(await seesBooking(q, actor, row, typeof booking !== 'string' ? booking.stops : undefined))) throw options.otherwise?.() ?? notFound('booking');
  return row;
}

/**
 * The stop's door for reading or changing one stop: a booking's stop is seen through its booking, a tour-only stop
 * through its tour (404 otherwise); failing a stop (`through: 'tour_or_booking'`) lets either show it. `loaded`: the
 * stop with its booking and tour, read (and locked) in the operation's order.
 */
export async function requireStop(
  q: Queryable,
  actor: Actor,
  stop: string | { loaded: { stop: stopsRepo.StopRow | null; booking: repo.BookingRow | null | undefined; tour: TourRow | null } },
  options: Pick<DoorOptions, 'action'> & { through?: 'booking_else_tour' | 'tour_or_booking' } = {},
): Promise<stopsRepo.StopRow> {
  if (options.action) dispatchPermissions.require(actor, options.action);
  let found: { stop: stopsRepo.StopRow | null; booking: repo.BookingRow | null | undefined; tour: TourRow | null };
  if (typeof stop !== 'string') found = stop.loaded;
  else {
    const row = await stopsRepo.findStop(q, actor.tenantId, stop);
    if (!row) throw notFound('stop');
    found = {
      stop: row,
      booking: row.bookingId ? await repo.findBooking(q, actor.tenantId, row.bookingId) : null,
      tour: row.tourId ? await toursRepository.findTour(q, actor.tenantId, row.tourId) : null,
    };
  }
  const { stop: row, booking, tour } = found;
  if (!row) throw notFound('stop');
  const visible =
    options.through === 'tour_or_booking'
      ? (tour !== null && seesTour(actor, tour)) || (!!booking && (await seesBooking(q, actor, booking)))
      : booking
        ? await seesBooking(q, actor, booking)
        : tour !== null && seesTour(actor, tour);
  if (!visible) throw notFound('stop');
  return row;
}

/** The package's door: seen through its booking (404 otherwise); returns the booking the package belongs to. */
export async function requirePackage<P extends { bookingId: string }>(q: Queryable, actor: Actor, pkg: Loaded<P>): Promise<{ pkg: P; booking: repo.BookingRow }> {
  const booking = pkg.loaded ? await repo.findBooking(q, actor.tenantId, pkg.loaded.bookingId) : null;
  if (!pkg.loaded || !booking || !(await seesBooking(q, actor, booking))) throw notFound('package');
  return { pkg: pkg.loaded, booking };
}

/** A plan job's door: dispatchers (403), and a plan is its maker's, or any admin's to read (404 otherwise). */
export async function requirePlan(q: Queryable, actor: Actor, id: string, options: { forUpdate?: boolean } = {}): Promise<PlanRow> {
  requireDispatcher(actor);
  const row = await planningRepository.findPlan(q, actor.tenantId, id, options);
  if (!row || (actor.role !== 'admin' && row.actor.userId !== actor.userId)) throw notFound('plan');
  return row;
}

/** Whether the caller may dispatch to a driver of these organizations: admins to any, managers to their own organizations'. */
export const maySendDriver = (actor: Actor, driverOrganizationIds: readonly string[]): boolean =>
  actor.role === 'admin' || driverOrganizationIds.some((o) => actor.organizationIds.includes(o));
