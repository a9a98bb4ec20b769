// Auto-dispatch (decision 1350): after a booking's create committed, its stops go into the open tour of its service
// where they cost least and fit, or the booking stays waiting with the reason. The search reads without locks within
// the service area's budget; the insertion locks the chosen tour (then the booking) and checks the fit again.
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea } from '../../identity/index.ts';
import { getService, type ServiceConfig } from '../../services/index.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { startOf } from '../planning/index.ts';
import type { Point } from '../planning/index.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import type { AutoDispatchDecision, TourStatus } from '../tables.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { cheapestFit, cheapestOf, pointsOf, type FitConstraint, type FitResult, type FitStop, type TourForFit } from './cheapest-insertion.ts';
import { shiftsOfTours, type ShiftLimits, type ShiftsOfTours } from './shifts.ts';

/** Tours a booking may join: released to drivers or running. A tour still `to_be_dispatched` is a dispatcher's draft. */
export const CANDIDATE_STATUSES: readonly TourStatus[] = ['scheduled', 'pickable', 'claimed', 'en_route'];
/** Fits tried under the lock, cheapest first, before the booking is left waiting (the others changed meanwhile). */
const LOCKED_ATTEMPTS = 3;

export type SkipReason = 'no_open_tour' | 'no_fit' | 'budget_exceeded';

export interface DecideOptions {
  /** Milliseconds now; by default the injected clock's (wall time in production, standing still in tests). */
  elapsedClock?: () => number;
  /** How the tours' drivers' shifts constrain them (capacity, end). */
  shiftsOf?: ShiftsOfTours;
}

type Skip = { status: 'skipped'; reason: SkipReason; constraint: FitConstraint | null };

/**
 * The `bookings.auto_dispatch` job's work: decides for one booking and records the decision (event and the booking's
 * `auto_dispatch`). Nothing is decided — no event — when the booking no longer waits (a dispatcher or a cancel came
 * first), was decided already (a retried job) or its service area turned auto-dispatch off meanwhile.
 */
export async function decideAutoDispatch(deps: Deps, tenantId: string, bookingId: string, options: DecideOptions = {}): Promise<AutoDispatchDecision | null> {
  const elapsed = options.elapsedClock ?? (() => deps.clock.now().getTime());
  const started = elapsed();
  const shiftsOf = options.shiftsOf ?? shiftsOfTours;
  const { db } = deps;
  const booking = await bookingsRepo.findBooking(db, tenantId, bookingId);
  if (!booking) return null;
  const added = await waitingStops(db, tenantId, booking);
  if (!added) return null;
  const area = await findServiceArea(db, tenantId, booking.serviceAreaId);
  if (!area?.autoDispatchEnabled) return null;
  const service = await getService(db, tenantId, booking.serviceId);
  if (!service) return null;
  const outOfBudget = () => elapsed() - started > area.autoDispatchBudgetMs;
  const speed = area.averageSpeedKmh || DEFAULT_AVERAGE_SPEED_KMH;

  const candidates = await readCandidates(deps, db, tenantId, service, added, shiftsOf);
  if (!candidates.tours.length) return recordSkip(deps, tenantId, bookingId, { status: 'skipped', reason: 'no_open_tour', constraint: null });
  // Nearest tours first: when the budget runs out, the tours searched are the likeliest to be cheapest.
  const ordered = [...candidates.tours].sort((a, b) => nearness(a.stops, added) - nearness(b.stops, added));
  const results: FitResult[] = [];
  let exhausted = false;
  for (const candidate of ordered) {
    if (outOfBudget()) {
      exhausted = true;
      break;
    }
    const tour = tourForFit(deps, service, candidate, candidate.stops, candidates.shifts.get(candidate.id)!, candidates.positions.get(candidate.id) ?? null);
    const matrix = await deps.hooks.travel.matrixSeconds({ db, clock: deps.clock, config: deps.config }, pointsOf(tour, added), speed);
    results.push(cheapestFit(tour, added, matrix, candidates.changes));
  }
  const fits = results.flatMap((r) => (r.fits ? [r.fit] : [])).sort((a, b) => a.cost - b.cost);
  if (!fits.length) {
    const best = cheapestOf(results);
    const skip: Skip = exhausted ? { status: 'skipped', reason: 'budget_exceeded', constraint: null } : { status: 'skipped', reason: 'no_fit', constraint: best.fits ? null : best.constraint };
    return recordSkip(deps, tenantId, bookingId, skip);
  }
  // Every chosen tour closed meanwhile: as if there had been none.
  let skip: Skip = { status: 'skipped', reason: 'no_open_tour', constraint: null };
  for (const fit of fits.slice(0, LOCKED_ATTEMPTS)) {
    const inserted = await insertUnderLock(deps, tenantId, bookingId, fit.tourId, service, speed, shiftsOf);
    if (inserted === 'gone') return null;
    if (inserted === 'closed') continue;
    if (inserted.fits) return inserted.decision;
    skip = { status: 'skipped', reason: 'no_fit', constraint: inserted.constraint };
  }
  return recordSkip(deps, tenantId, bookingId, skip);
}

/** The booking's stops in booking order while it still waits (not cancelled, not decided, none dispatched), else null. */
async function waitingStops(q: Queryable, tenantId: string, booking: bookingsRepo.BookingRow): Promise<stopsRepo.StopRow[] | null> {
  if (booking.autoDispatch || booking.status !== 'to_be_dispatched') return null;
  const stops = await stopsRepo.findStopsOfBookings(q, tenantId, [booking.id]);
  return stops.length > 0 && stops.every((s) => s.status === 'to_be_dispatched') ? stops.sort((a, b) => a.position - b.position) : null;
}

interface Candidate extends toursRepo.TourRow {
  stops: stopsRepo.FitStopRow[];
}

/**
 * The candidate tours with their stops, their drivers' shifts and, when some vehicle has a capacity, every stop's
 * package count change: four statements at most, whatever the number of tours.
 */
async function readCandidates(deps: Deps, q: Queryable, tenantId: string, service: ServiceConfig, added: readonly stopsRepo.StopRow[], shiftsOf: ShiftsOfTours) {
  // A locked tour takes no new stops (decision 1643).
  const tours = (await toursRepo.findOpenToursOfService(q, tenantId, service.id, CANDIDATE_STATUSES)).filter((t) => !t.locked);
  if (!tours.length) return { tours: [] as Candidate[], shifts: new Map<string, ShiftLimits>(), positions: new Map<string, Point>(), changes: new Map<string, number>() };
  const stops = await stopsRepo.findFitStopsOfOpenTours(q, tenantId, service.id, CANDIDATE_STATUSES);
  const byTour = new Map<string, stopsRepo.FitStopRow[]>(tours.map((t) => [t.id, []]));
  for (const s of stops) byTour.get(s.tourId!)?.push(s);
  const now = deps.clock.now();
  const shifts = await shiftsOf(q, tenantId, tours.map((t) => ({ id: t.id, driverId: t.driverId, startAt: startAtOf(t, now) })));
  // Running tours start where their drivers were last seen.
  const positions = await deps.hooks.travel.lastPositions(q, tenantId, tours.filter((t) => t.status === 'en_route').map((t) => t.id));
  // Package counts matter only on a vehicle with a capacity.
  const capacitated = tours.filter((t) => shifts.get(t.id)?.capacity != null);
  const changes = capacitated.length
    ? loadChanges(await packagesRepo.findPackagesOfStops(q, tenantId, [...capacitated.flatMap((t) => byTour.get(t.id)!), ...added].map((s) => s.id)))
    : new Map<string, number>();
  return { tours: tours.map((t) => ({ ...t, stops: byTour.get(t.id)! })), shifts, positions, changes };
}

/** When the open part of a tour starts: now, or its scheduled time if later. */
const startAtOf = (tour: Pick<toursRepo.TourRow, 'scheduledAt'>, now: Date): Date => (tour.scheduledAt && tour.scheduledAt > now ? tour.scheduledAt : now);

function tourForFit<S extends stopsRepo.FitStopRow>(
  deps: Pick<Deps, 'clock'>,
  service: ServiceConfig,
  tour: toursRepo.TourRow,
  stops: S[],
  shift: ShiftLimits,
  position: Point | null,
): TourForFit<S> {
  const startAt = startAtOf(tour, deps.clock.now());
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
function nearness(stops: readonly FitStop[], added: readonly FitStop[]): number {
  const first = added[0];
  if (!first) return 0;
  let best = Number.POSITIVE_INFINITY;
  for (const s of stops) best = Math.min(best, Math.hypot(s.lat - first.lat, s.lng - first.lng));
  return best;
}

type Locked = 'gone' | 'closed' | { fits: true; decision: AutoDispatchDecision } | { fits: false; constraint: FitConstraint };

/**
 * Inserts the booking into the tour under the tour's lock, then the booking's (the lock order of every dispatch
 * write), after checking the fit again on what is there now: two bookings decided at once never overfill a tour.
 */
async function insertUnderLock(deps: Deps, tenantId: string, bookingId: string, tourId: string, service: ServiceConfig, speed: number, shiftsOf: ShiftsOfTours): Promise<Locked> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx): Promise<Locked> => {
    const [tour] = await toursRepo.findToursForUpdate(tx, tenantId, [tourId]);
    const [booking] = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [bookingId]);
    const added = booking ? await waitingStops(tx, tenantId, booking) : null;
    if (!booking || !added) return 'gone';
    if (!tour || !CANDIDATE_STATUSES.includes(tour.status)) return 'closed';
    const stops = (await stopsRepo.findStopsOfTours(tx, tenantId, [tourId])).filter((s) => s.tourId === tourId);
    const links = await packagesRepo.findPackagesOfStops(tx, tenantId, [...stops, ...added].map((s) => s.id));
    const shift = (await shiftsOf(tx, tenantId, [{ id: tour.id, driverId: tour.driverId, startAt: startAtOf(tour, at) }])).get(tour.id)!;
    const position = tour.status === 'en_route' ? await deps.hooks.travel.lastPosition(tx, tenantId, tour.id) : null;
    const fitTour = tourForFit(deps, service, tour, stops, shift, position);
    // The transaction's own handle: the region's roads are read in it (PGlite has one connection).
    const matrix = await deps.hooks.travel.matrixSeconds({ db: tx, clock: deps.clock, config: deps.config }, pointsOf(fitTour, added), speed);
    const result = cheapestFit(fitTour, added, matrix, loadChanges(links));
    if (!result.fits) return result;
    await insertInOrder(tx, tenantId, tourId, stops, added, result.fit.order, at);
    const decision: AutoDispatchDecision = { status: 'dispatched', tour_id: tourId, reason: null, constraint: null, decided_at: at.toISOString() };
    await bookingsRepo.updateBooking(tx, tenantId, bookingId, { autoDispatch: decision, updatedAt: at });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'booking.route_changed', resourceId: bookingId, at, data: { ...bookingEventData(booking), tour_id: tourId } });
    await recordEvent(tx, { tenantId, actor: 'system', type: 'booking.auto_dispatched', resourceId: bookingId, at, data: { ...bookingEventData(booking), tour_id: tourId } });
    const affected = [...new Set([...stops, ...added].map((s) => s.bookingId).filter((id): id is string => !!id))];
    await settle(tx, deps.hooks.dispatch, { tenantId, actor: 'system', at, bookingIds: affected, tourIds: [tourId], event: 'dispatch' });
    return { fits: true, decision };
  });
}

/**
 * Lays the tour out in `order`: the booking's stops join it (scheduled), the tour's stops after them move down — in
 * one statement, not one per stop (a 25-stop tour's insert wrote 25 rows one by one).
 */
async function insertInOrder(tx: Tx, tenantId: string, tourId: string, stops: readonly stopsRepo.StopRow[], added: readonly stopsRepo.StopRow[], order: readonly string[], at: Date): Promise<void> {
  const position = new Map(order.map((id, i) => [id, i]));
  const moved = stops.filter((s) => s.tourPosition !== position.get(s.id)).map((s) => ({ id: s.id, position: position.get(s.id)! }));
  await stopsRepo.setTourPositions(tx, tenantId, moved, at);
  for (const stop of added) await stopsRepo.updateStop(tx, tenantId, stop.id, { tourId, tourPosition: position.get(stop.id)!, status: 'scheduled', updatedAt: at });
}

/** Leaves the booking waiting and says why: the booking's `auto_dispatch` and `booking.auto_dispatch_skipped`. */
async function recordSkip(deps: Deps, tenantId: string, bookingId: string, outcome: Skip): Promise<AutoDispatchDecision | null> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx: Tx) => {
    const [booking] = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [bookingId]);
    if (!booking || !(await waitingStops(tx, tenantId, booking))) return null;
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
