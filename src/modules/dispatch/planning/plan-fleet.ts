// POST /api/hailing/dispatch/plan with `drivers` or `shift_ids`: one tour per shift, each starting and ending where
// its shift says, inside its hours and its vehicle's capacity and skills, and every booking left out explained
// (docs/api-guide.md "Optimising tours and planning dispatch"; decisions 1301, 1304). A driver's tour under way is
// planned from where it stands, its stops done or under way kept in place (decision 1303). With `apply`, new tours
// are created and force-assigned to their drivers, and stops planned into a running tour are inserted into it.
import type { Queryable } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { unknownReference } from '../../../http/errors.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea, findUser, membershipsOf } from '../../identity/index.ts';
import { getService } from '../../services/index.ts';
import { shiftsByIds, shiftsOfDrivers, type ShiftView } from '../../shifts/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { HELD_BY_DRIVER_STATUSES } from '../tours/index.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { maySendDriver, seesTour } from '../access.ts';
import { applyProposal, fingerprint, type SelectStops, type StoredProposal } from './apply-plan.ts';
import {
  explainUnplaced,
  fleetModelOf,
  fleetScheduleOf,
  horizonOf,
  withFleetTravel,
  type FleetObjective,
  type FleetShift,
  type FleetUnplaced,
  type RunningTour,
} from './fleet.ts';
import { insertCheapest } from './insert-cheapest.ts';
import { searchFleet, type SolveFleet } from './search-fleet.ts';
import { SEED } from './order.ts';
import { isMovable } from './problem.ts';
import type { PlanInput } from './schemas.ts';
import type { Point } from './travel.ts';
import { proposedRoutes } from './proposed-routes.ts';
import type { TravelRouteView } from '../../../http/travel-schemas.ts';
import type { TravelSource } from '../../../seams/index.ts';


/** Whether the plan is made with a fleet: drivers, or their shifts. */
export const withFleet = (input: PlanInput): boolean => input.drivers !== undefined || input.shift_ids !== undefined;

/** Driver → organization, each a driver the caller may dispatch to (admins: any; managers: their organizations'); else 422 at `pointerOf(i)`. */
export async function dispatchableDrivers(q: Queryable, actor: Actor, driverIds: readonly string[], pointerOf: (i: number) => string, resource: string): Promise<Map<string, string | null>> {
  const organizations = await membershipsOf(q, actor.tenantId, [...new Set(driverIds)]);
  const result = new Map<string, string | null>();
  for (const [i, id] of driverIds.entries()) {
    const user = await findUser(q, actor.tenantId, id);
    const orgs = organizations.get(id) ?? [];
    const visible = maySendDriver(actor, orgs);
    if (!user || user.role !== 'driver' || user.deactivatedAt || !visible) throw unknownReference(pointerOf(i), resource);
    result.set(id, orgs[0] ?? null);
  }
  return result;
}

/** The named shifts, each of a driver the caller may dispatch to, else 422 unknown_reference at `/shift_ids/<i>` (decision 1304). */
async function checkShifts(q: Queryable, actor: Actor, shiftIds: readonly string[]): Promise<{ shifts: ShiftView[]; organizationOf: Map<string, string | null> }> {
  const shifts = await shiftsByIds(q, actor.tenantId, shiftIds);
  const byId = new Map(shifts.map((s) => [s.id, s]));
  const driverIds = shiftIds.map((id, i) => {
    const shift = byId.get(id);
    if (!shift) throw unknownReference(`/shift_ids/${i}`, 'shift');
    return shift.driver_id;
  });
  return { shifts, organizationOf: await dispatchableDrivers(q, actor, driverIds, (i) => `/shift_ids/${i}`, 'shift') };
}

/** What a plan's fleet names, checked: its drivers (422 at `/drivers/<i>`) or its shifts (at `/shift_ids/<i>`). */
export async function checkFleet(q: Queryable, actor: Actor, input: PlanInput): Promise<void> {
  if (input.shift_ids) await checkShifts(q, actor, input.shift_ids);
  else if (input.drivers) await dispatchableDrivers(q, actor, input.drivers, (i) => `/drivers/${i}`, 'driver');
}

/** The shifts to plan with: the named ones, or the drivers' that overlap the horizon; each driver's organization. */
async function fleetOf(q: Queryable, actor: Actor, input: PlanInput, horizon: { from: Date; to: Date }) {
  if (input.shift_ids) return checkShifts(q, actor, input.shift_ids);
  const drivers = input.drivers ?? [];
  const organizationOf = await dispatchableDrivers(q, actor, drivers, (i) => `/drivers/${i}`, 'driver');
  return { shifts: await shiftsOfDrivers(q, actor.tenantId, drivers, horizon.from, horizon.to), organizationOf };
}

const fleetShiftOf = (s: ShiftView, organizationOf: ReadonlyMap<string, string | null>): FleetShift => ({
  id: s.id,
  driverId: s.driver_id,
  startsAt: new Date(s.starts_at),
  endsAt: new Date(s.ends_at),
  start: s.start_location,
  end: s.end_location,
  capacity: { packages: s.vehicle?.capacity.packages, weightGrams: s.vehicle?.capacity.weight_kg !== undefined ? Math.round(s.vehicle.capacity.weight_kg * 1000) : undefined },
  skills: s.vehicle?.skills ?? [],
  organizationId: organizationOf.get(s.driver_id) ?? null,
});

/** A driver's tour under way as the plan read it: the tour, all its stops in tour order, and its open ones. */
interface Running {
  tour: toursRepo.TourRow;
  stops: stopsRepo.StopRow[];
  open: stopsRepo.StopRow[];
}

/** When a held tour's open part starts: now when en_route, else its scheduled time if that is later. */
const startOfTour = (tour: toursRepo.TourRow, now: Date): Date => (tour.status !== 'en_route' && tour.scheduledAt && tour.scheduledAt > now ? tour.scheduledAt : now);

/**
 * Each shift's tour under way (decision 1303): a tour its driver holds (claimed or en_route) that starts within the
 * shift; en_route first, then the earliest. A shift whose tour cannot take this plan's stops (another service, or a
 * tour the caller does not see) is `busy`: the driver is taken, so the plan leaves the shift out.
 */
async function runningTours(q: Queryable, actor: Actor, shifts: readonly ShiftView[], serviceId: string, now: Date): Promise<{ running: Map<string, Running>; busy: Set<string> }> {
  const tours = await toursRepo.findToursOfDrivers(q, actor.tenantId, [...new Set(shifts.map((s) => s.driver_id))], HELD_BY_DRIVER_STATUSES);
  const rank = (t: toursRepo.TourRow) => (t.status === 'en_route' ? 0 : 1);
  const chosen = new Map<string, toursRepo.TourRow>();
  for (const tour of [...tours].sort((a, b) => rank(a) - rank(b) || startOfTour(a, now).getTime() - startOfTour(b, now).getTime())) {
    const at = startOfTour(tour, now).getTime();
    const shift = shifts.find((s) => s.driver_id === tour.driverId && Date.parse(s.starts_at) <= at && at < Date.parse(s.ends_at));
    if (shift && !chosen.has(shift.id)) chosen.set(shift.id, tour);
  }
  const busy = new Set<string>();
  const kept = [...chosen].filter(([shiftId, tour]) => {
    // A locked tour keeps its stops as they are (decision 1643): its driver is taken, like a tour of another service.
    const fits = tour.serviceId === serviceId && seesTour(actor, tour) && !tour.locked;
    if (!fits) busy.add(shiftId);
    return fits;
  });
  const stops = await stopsRepo.findStopsOfTours(q, actor.tenantId, kept.map(([, tour]) => tour.id));
  const running = new Map<string, Running>();
  for (const [shiftId, tour] of kept) {
    const own = stops.filter((s) => s.tourId === tour.id);
    running.set(shiftId, { tour, stops: own, open: own.filter(isMovable) });
  }
  return { running, busy };
}

/**
 * Where and when the running tour's vehicle is free (decision 1303): at the stop under way once served (reached from
 * the driver's last position), else at the driver's last position now, else at the last stop served, else (not
 * started) at the shift's start when the tour starts; and the goods on board for its open drop-offs.
 */
async function runningOf(deps: Deps, q: Queryable, tenantId: string, speed: number, shift: FleetShift, r: Running, packages: readonly packagesRepo.PackageRow[], now: Date): Promise<RunningTour> {
  const underway = r.stops.filter((s) => s.status === 'approaching' || s.status === 'arrived').at(-1);
  const served = r.stops.filter((s) => s.status === 'completed' || s.status === 'failed').at(-1);
  const position: Point | null = r.tour.status === 'en_route' ? await deps.hooks.travel.lastPosition(q, tenantId, r.tour.id) : null;
  let from: Point = shift.start;
  let readyAt = startOfTour(r.tour, now);
  if (underway) {
    from = { lat: underway.lat, lng: underway.lng };
    const leg = position ? ((await deps.hooks.travel.matrixSeconds({ db: q, clock: deps.clock, config: deps.config }, [position, from], speed))[0]?.[1] ?? 0) : 0;
    readyAt = new Date(now.getTime() + (leg + underway.serviceDurationSeconds) * 1000);
  } else if (position) from = position;
  else if (served) from = { lat: served.lat, lng: served.lng };
  const open = new Set(r.open.map((s) => s.id));
  // On board: picked up (in transit) or being picked up at the stop under way, and dropped off at an open stop.
  const onBoard = packages.filter((p) => open.has(p.dropoffStopId) && !open.has(p.pickupStopId) && (p.status === 'in_transit' || p.pickupStopId === underway?.id));
  return {
    tourId: r.tour.id,
    from,
    readyAt,
    openStopIds: r.open.map((s) => s.id),
    keptStopIds: r.stops.filter((s) => !isMovable(s)).map((s) => s.id),
    onBoard: onBoard.map((p) => ({ pickupStopId: p.pickupStopId, dropoffStopId: p.dropoffStopId, weightGrams: p.weightGrams })),
  };
}

export interface FleetPlanTour {
  tour_id: string | null;
  running?: boolean;
  kept_stop_ids?: string[];
  driver_id: string;
  shift_id: string;
  starts_at: string;
  ends_at: string;
  stop_ids: string[];
  booking_ids: string[];
  travel_seconds: number;
  etas: string[];
  /** The work of the tour (decision 1644): stops, seconds driving, waiting and working (leave to end), metres. */
  stops_count: number;
  driving_s: number;
  waiting_s: number;
  working_s: number;
  distance_m: number;
  travel_source: TravelSource;
  route: TravelRouteView;
}

export interface FleetPlan {
  applied: boolean;
  objective: FleetObjective;
  tours: FleetPlanTour[];
  travel_seconds: number;
  travel_source: TravelSource;
  unplaced: FleetUnplaced[];
}

interface Proposed {
  shift: FleetShift;
  running: Running | null;
  stops: stopsRepo.StopRow[];
  travelSeconds: number;
  starts_at: string;
  ends_at: string;
  etas: string[];
  work: Pick<FleetPlanTour, 'stops_count' | 'driving_s' | 'waiting_s' | 'working_s' | 'distance_m'>;
}

export async function planFleet(deps: Deps, actor: Actor, input: PlanInput, selectStops: SelectStops): Promise<{ plan: FleetPlan; tourIds: string[]; proposal: StoredProposal }> {
  const objective: FleetObjective = input.objective ?? 'balanced';
  const now = deps.clock.now();
  // The search runs outside any transaction; `apply` takes the locks again and checks nothing moved meanwhile.
  const { stops: waiting, bookings } = await deps.db.transaction((tx) => selectStops(tx, actor, input));
  const fleet = await fleetOf(deps.db, actor, input, horizonOf(waiting, now));
  const serviceAreaId = bookings[0]!.serviceAreaId;
  const service = await getService(deps.db, actor.tenantId, bookings[0]!.serviceId);
  const speed = (await findServiceArea(deps.db, actor.tenantId, serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
  const { running, busy } = await runningTours(deps.db, actor, fleet.shifts, bookings[0]!.serviceId, now);
  // A running tour's open stops are planned with the waiting ones (they stay on it: decision 1303).
  const stops = [...waiting, ...[...running.values()].flatMap((r) => r.open)];
  const packages = await packagesRepo.findPackagesOfStops(deps.db, actor.tenantId, stops.map((s) => s.id));
  const shifts: FleetShift[] = [];
  for (const view of fleet.shifts.filter((s) => !busy.has(s.id))) {
    const shift = fleetShiftOf(view, fleet.organizationOf);
    const r = running.get(view.id);
    shifts.push(r ? { ...shift, running: await runningOf(deps, deps.db, actor.tenantId, speed, shift, r, packages, now) } : shift);
  }
  const origin = new Date(Math.min(now.getTime(), ...shifts.map((s) => s.startsAt.getTime())));
  const managing = new Map(bookings.map((b) => [b.id, b.managingOrganizationIds]));
  const fleetStops = stops.map((s) => ({ ...s, requiredSkills: s.requiredSkills ?? [] }));
  let model = fleetModelOf(fleetStops, packages, shifts, managing, origin, now);
  const travel = await deps.hooks.travel.matrix(deps, model.points, speed);
  // Road or engine metres make `distance_m` the route's; straight lines keep the great circle (not × the detour factor).
  model = withFleetTravel(model, travel.seconds, travel.source === 'straight_line' ? undefined : travel.meters);
  let routes: number[][] = shifts.map(() => []);
  let left = stops.map((_, i) => i);
  if (shifts.length && input.replan === 'only_new') {
    // Add, don't reshuffle (decision 1646): each running tour's open stops in their tour order, the bookings put in.
    const index = new Map(stops.map((s, i) => [s.id, i]));
    const base = shifts.map((s) => (s.running ? [...running.get(s.id)!.open].sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0)).map((x) => index.get(x.id)!) : []));
    const groups = new Map<string, number[]>();
    for (const s of waiting) groups.set(s.bookingId ?? s.id, [...(groups.get(s.bookingId ?? s.id) ?? []), index.get(s.id)!]);
    ({ routes, unplaced: left } = insertCheapest(model, base, [...groups.values()], service?.maxStopsPerTour, shifts.map((s) => s.running?.keptStopIds.length ?? 0)));
  } else if (shifts.length) {
    // The objective's search, checked, the leftovers put in (search-fleet.ts; balanced in areas: decision 1790).
    const solve: SolveFleet = (problem, options) => deps.optimizer.solve(problem, { ...options, seed: SEED });
    ({ routes, unplaced: left } = await searchFleet(model, objective, solve, input.time_limit_ms ?? 5000, service?.maxStopsPerTour));
  }
  const at = (seconds: number) => new Date(origin.getTime() + Math.round(seconds) * 1000).toISOString();
  const proposed: Proposed[] = routes.flatMap((route, k) => {
    if (!route.length) return [];
    const shift = shifts[k]!;
    const schedule = fleetScheduleOf(model, k, route);
    const r = running.get(shift.id) ?? null;
    const work = {
      stops_count: route.length,
      driving_s: Math.round(schedule.travelSeconds),
      waiting_s: Math.round(schedule.waitingSeconds),
      working_s: Math.round(schedule.finish - schedule.departure),
      distance_m: Math.round(schedule.distanceMeters),
    };
    return [{ shift, running: r, stops: route.map((i) => stops[i]!), travelSeconds: schedule.travelSeconds, starts_at: at(schedule.departure), ends_at: at(schedule.finish), etas: schedule.arrivals.map(at), work }];
  });
  const proposal: StoredProposal = {
    selected: waiting.map((s) => s.id),
    tours: proposed.map((p) => ({
      stop_ids: p.stops.map((s) => s.id),
      driver_id: p.shift.driverId,
      starts_at: p.starts_at,
      finish_at: p.ends_at,
      distance_m: p.work.distance_m,
      running: p.running ? { tour_id: p.running.tour.id, fingerprint: fingerprint(p.running.tour, p.running.stops) } : null,
    })),
  };
  const tourIds: (string | null)[] = input.apply ? await deps.db.transaction((tx) => applyProposal(tx, deps, actor, deps.clock.now(), input, proposal, selectStops)) : proposed.map((p) => p.running?.tour.id ?? null);
  const lines = await proposedRoutes(deps, proposed.map((p) => p.stops), speed, proposed.map((p) => p.shift.running?.from ?? p.shift.start));
  const tours = proposed.map((p, k): FleetPlanTour => ({
    tour_id: tourIds[k] ?? null,
    ...(p.running ? { running: true, kept_stop_ids: p.running.stops.filter((s) => !isMovable(s)).map((s) => s.id) } : {}),
    driver_id: p.shift.driverId,
    shift_id: p.shift.id,
    starts_at: p.starts_at,
    ends_at: p.ends_at,
    stop_ids: p.stops.map((s) => s.id),
    booking_ids: [...new Set(p.stops.map((s) => s.bookingId).filter((id): id is string => !!id))],
    travel_seconds: Math.round(p.travelSeconds),
    etas: p.etas,
    ...p.work,
    travel_source: travel.source,
    route: lines[k]!,
  }));
  return {
    plan: { applied: input.apply === true, objective, tours, travel_seconds: tours.reduce((sum, t) => sum + t.travel_seconds, 0), travel_source: travel.source, unplaced: explainUnplaced(model, left) },
    tourIds: input.apply ? tourIds.filter((id): id is string => !!id) : [],
    proposal,
  };
}

