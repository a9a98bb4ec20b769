// Auto-dispatch (decision 1350): after a booking's create committed, its stops go into the open tour of its service
// where they cost least and fit, or the booking stays waiting with the reason. The search reads without locks within
// the service area's budget; the insertion locks the chosen tour (then the booking) and checks the fit again.
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { findServiceArea } from '../../identity/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import * as bookingsRepo from '../bookings/repository.ts';
import * as packagesRepo from '../packages/repository.ts';
import { startOf } from '../planning/problem.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import * as stopsRepo from '../stops/repository.ts';
import type { AutoDispatchDecision, TourStatus } from '../tables.ts';
import { layOut } from '../tours/dispatch.ts';
import * as toursRepo from '../tours/repository.ts';
import { cheapestFit, cheapestOf, pointsOf, type FitConstraint, type FitResult, type LoadChanges, type TourForFit } from './cheapest-insertion.ts';
import { shiftOfTour, type ShiftOfTour } from './shifts.ts';

/** Tours a booking may join: released to drivers or running. A tour still `to_be_dispatched` is a dispatcher's draft. */
export const CANDIDATE_STATUSES: readonly TourStatus[] = ['scheduled', 'pickable', 'claimed', 'en_route'];
const DEFAULT_SPEED_KMH = 30;
/** Fits tried under the lock, cheapest first, before the booking is left waiting (the others changed meanwhile). */
const LOCKED_ATTEMPTS = 3;

export type SkipReason = 'no_open_tour' | 'no_fit' | 'budget_exceeded';

export interface DecideOptions {
  /** Milliseconds on a monotonic clock: the budget is wall time spent searching, not the domain's time. */
  elapsedClock?: () => number;
  /** How the tour's driver's shift constrains it (capacity, end); none until shifts are known. */
  shiftOf?: ShiftOfTour;
}

type Outcome = { status: 'dispatched'; tourId: string } | { status: 'skipped'; reason: SkipReason; constraint: FitConstraint | null };

/**
 * The `bookings.auto_dispatch` job's work: decides for one booking and records the decision (event and the booking's
 * `auto_dispatch`). Nothing is decided — no event — when the booking no longer waits (a dispatcher or a cancel came
 * first), was decided already (a retried job) or its service area turned auto-dispatch off meanwhile.
 */
export async function decideAutoDispatch(deps: Deps, tenantId: string, bookingId: string, options: DecideOptions = {}): Promise<AutoDispatchDecision | null> {
  const elapsed = options.elapsedClock ?? (() => performance.now());
  const started = elapsed();
  const shiftOf = options.shiftOf ?? shiftOfTour;
  const { db } = deps;
  const booking = await bookingsRepo.findBooking(db, tenantId, bookingId);
  if (!booking || !(await waiting(db, tenantId, booking))) return null;
  const area = await findServiceArea(db, tenantId, booking.serviceAreaId);
  if (!area?.autoDispatchEnabled) return null;
  const service = await getService(db, tenantId, booking.serviceId);
  if (!service) return null;
  const added = (await stopsRepo.findStopsOfBookings(db, tenantId, [bookingId])).sort((a, b) => a.position - b.position);
  const outOfBudget = () => elapsed() - started > area.autoDispatchBudgetMs;

  const tours = await toursRepo.findOpenToursOfService(db, tenantId, booking.serviceId, CANDIDATE_STATUSES);
  let outcome: Outcome;
  if (!tours.length) outcome = { status: 'skipped', reason: 'no_open_tour', constraint: null };
  else {
    const speed = area.averageSpeedKmh || DEFAULT_SPEED_KMH;
    const { read, changes } = await readTours(deps, db, tenantId, service, tours, added, shiftOf);
    // Nearest tours first: when the budget runs out, the tours searched are the likeliest to be cheapest.
    read.sort((a, b) => nearness(a, added) - nearness(b, added));
    const results: FitResult[] = [];
    let exhausted = false;
    for (const tour of read) {
      if (outOfBudget()) {
        exhausted = true;
        break;
      }
      const matrix = await deps.hooks.travel.matrixSeconds(deps.config, pointsOf(tour, added), speed);
      results.push(cheapestFit(tour, added, matrix, changes));
    }
    const fits = results.flatMap((r) => (r.fits ? [r.fit] : [])).sort((a, b) => a.cost - b.cost);
    if (!fits.length) {
      const best = cheapestOf(results);
      outcome = exhausted ? { status: 'skipped', reason: 'budget_exceeded', constraint: null } : { status: 'skipped', reason: 'no_fit', constraint: best.fits ? null : best.constraint };
    } else {
      // Every chosen tour closed meanwhile: as if there had been none.
      outcome = { status: 'skipped', reason: 'no_open_tour', constraint: null };
      for (const fit of fits.slice(0, LOCKED_ATTEMPTS)) {
        const inserted = await insertUnderLock(deps, tenantId, bookingId, fit.tourId, service, speed, shiftOf);
        if (inserted === 'gone') return null;
        if (inserted === 'closed') continue;
        if (inserted.fits) return inserted.decision;
        outcome = { status: 'skipped', reason: 'no_fit', constraint: inserted.constraint };
      }
    }
  }
  return recordSkip(deps, tenantId, bookingId, outcome as Extract<Outcome, { status: 'skipped' }>);
}

/** Whether the booking still waits for dispatch: not cancelled, not decided, every stop still to be dispatched. */
async function waiting(q: Queryable, tenantId: string, booking: bookingsRepo.BookingRow): Promise<boolean> {
  if (booking.autoDispatch || booking.status !== 'to_be_dispatched') return false;
  const stops = await stopsRepo.findStopsOfBookings(q, tenantId, [booking.id]);
  return stops.length > 0 && stops.every((s) => s.status === 'to_be_dispatched');
}

/** The candidate tours with their stops, start and shift, and every stop's package count change: a few statements. */
async function readTours(
  deps: Deps,
  q: Queryable,
  tenantId: string,
  service: ServiceConfig,
  tours: toursRepo.TourRow[],
  added: stopsRepo.StopRow[],
  shiftOf: ShiftOfTour,
): Promise<{ read: TourForFit<stopsRepo.StopRow>[]; changes: LoadChanges }> {
  const allStops = await stopsRepo.findStopsOfTours(q, tenantId, tours.map((t) => t.id));
  const links = await packagesRepo.findPackagesOfStops(q, tenantId, [...allStops, ...added].map((s) => s.id));
  const changes = loadChanges(links);
  const now = deps.clock.now();
  const read: TourForFit<stopsRepo.StopRow>[] = [];
  for (const tour of tours) {
    const stops = allStops.filter((s) => s.tourId === tour.id).sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0));
    read.push(await tourForFit(deps, q, tenantId, service, tour, stops, now, shiftOf));
  }
  return { read, changes };
}

async function tourForFit(
  deps: Deps,
  q: Queryable,
  tenantId: string,
  service: ServiceConfig,
  tour: toursRepo.TourRow,
  stops: stopsRepo.StopRow[],
  now: Date,
  shiftOf: ShiftOfTour,
): Promise<TourForFit<stopsRepo.StopRow>> {
  const position = tour.status === 'en_route' ? await deps.hooks.travel.lastPosition(q, tenantId, tour.id) : null;
  const startAt = tour.scheduledAt && tour.scheduledAt > now ? tour.scheduledAt : now;
  const shift = await shiftOf(q, tenantId, tour, startAt);
  return { id: tour.id, stops, start: startOf(stops, position), startAt, maxStops: service.maxStopsPerTour, capacity: shift.capacity, endsAt: shift.endsAt };
}

/** +1 at a package's pickup stop, −1 at its drop-off: what the vehicle's load does at each stop. */
function loadChanges(links: readonly packagesRepo.PackageRow[]): Map<string, number> {
  const changes = new Map<string, number>();
  for (const p of links) {
    if (p.pickupStopId) changes.set(p.pickupStopId, (changes.get(p.pickupStopId) ?? 0) + 1);
    if (p.dropoffStopId) changes.set(p.dropoffStopId, (changes.get(p.dropoffStopId) ?? 0) - 1);
  }
  return changes;
}

/** A cheap lower bound of how far the booking is from the tour: degrees to the tour's nearest stop. */
function nearness(tour: TourForFit, added: readonly stopsRepo.StopRow[]): number {
  const first = added[0];
  if (!first) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (const s of tour.stops) best = Math.min(best, Math.hypot(s.lat - first.lat, s.lng - first.lng));
  return best;
}

type Locked = 'gone' | 'closed' | { fits: true; decision: AutoDispatchDecision } | { fits: false; constraint: FitConstraint };

/**
 * Inserts the booking into the tour under the tour's lock, then the booking's (the lock order of every dispatch
 * write), after checking the fit again on what is there now: two bookings decided at once never overfill a tour.
 */
async function insertUnderLock(deps: Deps, tenantId: string, bookingId: string, tourId: string, service: ServiceConfig, speed: number, shiftOf: ShiftOfTour): Promise<Locked> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx): Promise<Locked> => {
    const [tour] = await toursRepo.findToursForUpdate(tx, tenantId, [tourId]);
    const [booking] = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [bookingId]);
    if (!booking || !(await waiting(tx, tenantId, booking))) return 'gone';
    if (!tour || !CANDIDATE_STATUSES.includes(tour.status)) return 'closed';
    const added = (await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId])).sort((a, b) => a.position - b.position);
    const stops = (await stopsRepo.findStopsOfTours(tx, tenantId, [tourId])).filter((s) => s.tourId === tourId);
    const links = await packagesRepo.findPackagesOfStops(tx, tenantId, [...stops, ...added].map((s) => s.id));
    const fitTour = await tourForFit(deps, tx, tenantId, service, tour, stops, at, shiftOf);
    const matrix = await deps.hooks.travel.matrixSeconds(deps.config, pointsOf(fitTour, added), speed);
    const result = cheapestFit(fitTour, added, matrix, loadChanges(links));
    if (!result.fits) return result;
    const byId = new Map([...stops, ...added].map((s) => [s.id, s]));
    await layOut(tx, tenantId, tourId, result.fit.order.map((id) => byId.get(id)!), at);
    const decision: AutoDispatchDecision = { status: 'dispatched', tour_id: tourId, reason: null, constraint: null, decided_at: at.toISOString() };
    await bookingsRepo.updateBooking(tx, tenantId, bookingId, { autoDispatch: decision, updatedAt: at });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'booking.route_changed', resourceId: bookingId, at, data: { ...bookingEventData(booking), tour_id: tourId } });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'booking.auto_dispatched', resourceId: bookingId, at, data: { ...bookingEventData(booking), tour_id: tourId } });
    const affected = [...new Set([...stops, ...added].map((s) => s.bookingId).filter((id): id is string => !!id))];
    await settle(tx, deps.hooks.dispatch, { tenantId, actor: 'system', at, bookingIds: affected, tourIds: [tourId], event: 'dispatch', stopsChanged: [{ tourId, reason: 'stops_inserted' }] });
    return { fits: true, decision };
  });
}

/** Leaves the booking waiting and says why: the booking's `auto_dispatch` and `booking.auto_dispatch_skipped`. */
async function recordSkip(deps: Deps, tenantId: string, bookingId: string, outcome: { reason: SkipReason; constraint: FitConstraint | null }): Promise<AutoDispatchDecision | null> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx: Tx) => {
    const [booking] = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [bookingId]);
    if (!booking || !(await waiting(tx, tenantId, booking))) return null;
    const decision: AutoDispatchDecision = { status: 'skipped', tour_id: null, reason: outcome.reason, constraint: outcome.constraint, decided_at: at.toISOString() };
    await bookingsRepo.updateBooking(tx, tenantId, bookingId, { autoDispatch: decision, updatedAt: at });
    await recordEvent(tx, {
      tenantId,
      actor: 'system',
      type: 'booking.auto_dispatch_skipped',
      resourceId: bookingId,
      at,
      data: { ...bookingEventData(booking), reason: outcome.reason, constraint: outcome.constraint },
    });
    return decision;
  });
}
