// POST /api/hailing/dispatch/plan with `drivers`: one tour per shift of those drivers, each starting and ending where
// its shift says, inside its hours and its vehicle's capacity and skills, and every booking left out explained
// (docs/api-guide.md "Optimising tours and planning dispatch"; decision 1301). With `apply`, the tours are created and force-assigned to their drivers.
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, unknownReference } from '../../../http/errors.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea, findUser, membershipsOf } from '../../identity/index.ts';
import { getService } from '../../services/index.ts';
import { shiftsOfDrivers } from '../../shifts/index.ts';
import * as packagesRepo from '../packages/repository.ts';
import { settle } from '../settle.ts';
import type * as stopsRepo from '../stops/repository.ts';
import type { BookingRow } from '../bookings/repository.ts';
import { createTour } from '../tours/merge-and-insert.ts';
import { forceAssignPlannedTour } from '../tours/operations.ts';
import { acceptRoutes, explainUnplaced, fleetModelOf, fleetProblemOf, fleetScheduleOf, horizonOf, SOLVER_OBJECTIVE, withFleetTravel, type FleetObjective, type FleetShift, type FleetUnplaced } from './fleet.ts';
import { SEED } from './order.ts';
import type { PlanInput } from './schemas.ts';

type Selected = { stops: stopsRepo.StopRow[]; bookings: BookingRow[] };
export type SelectStops = (tx: Tx, actor: Actor, input: PlanInput) => Promise<Selected>;

/** The named drivers, each a driver the caller may dispatch to (admins: any; managers: their organizations'). */
export async function checkDrivers(q: Queryable, actor: Actor, driverIds: readonly string[]): Promise<Map<string, string | null>> {
  const organizations = await membershipsOf(q, actor.tenantId, [...driverIds]);
  const result = new Map<string, string | null>();
  for (const [i, id] of driverIds.entries()) {
    const user = await findUser(q, actor.tenantId, id);
    const orgs = organizations.get(id) ?? [];
    const visible = actor.role === 'admin' || orgs.some((o) => actor.organizationIds.includes(o));
    if (!user || user.role !== 'driver' || user.deactivatedAt || !visible) throw unknownReference(`/drivers/${i}`, 'driver');
    result.set(id, orgs[0] ?? null);
  }
  return result;
}

export interface FleetPlanTour {
  tour_id: string | null;
  driver_id: string;
  shift_id: string;
  starts_at: string;
  ends_at: string;
  stop_ids: string[];
  booking_ids: string[];
  travel_seconds: number;
  etas: string[];
}

export interface FleetPlan {
  applied: boolean;
  objective: FleetObjective;
  tours: FleetPlanTour[];
  travel_seconds: number;
  unplaced: FleetUnplaced[];
}

export async function planFleet(deps: Deps, actor: Actor, input: PlanInput & { drivers: string[] }, selectStops: SelectStops): Promise<{ plan: FleetPlan; tourIds: string[] }> {
  const objective: FleetObjective = input.objective ?? 'balanced';
  const now = deps.clock.now();
  // The search runs outside any transaction; `apply` takes the locks again and checks nothing moved meanwhile.
  const { stops, bookings } = await deps.db.transaction((tx) => selectStops(tx, actor, input));
  const organizationOf = await checkDrivers(deps.db, actor, input.drivers);
  const horizon = horizonOf(stops, now);
  const shifts: FleetShift[] = (await shiftsOfDrivers(deps.db, actor.tenantId, input.drivers, horizon.from, horizon.to)).map((s) => ({
    id: s.id,
    driverId: s.driver_id,
    startsAt: new Date(s.starts_at),
    endsAt: new Date(s.ends_at),
    start: s.start_location,
    end: s.end_location,
    capacity: { packages: s.vehicle?.capacity.packages, weightGrams: s.vehicle?.capacity.weight_kg !== undefined ? Math.round(s.vehicle.capacity.weight_kg * 1000) : undefined },
    skills: s.vehicle?.skills ?? [],
    organizationId: organizationOf.get(s.driver_id) ?? null,
  }));
  const serviceAreaId = bookings[0]!.serviceAreaId;
  const service = await getService(deps.db, actor.tenantId, bookings[0]!.serviceId);
  const packages = await packagesRepo.findPackagesOfStops(deps.db, actor.tenantId, stops.map((s) => s.id));
  const origin = new Date(Math.min(now.getTime(), ...shifts.map((s) => s.startsAt.getTime())));
  const managing = new Map(bookings.map((b) => [b.id, b.managingOrganizationIds]));
  const fleetStops = stops.map((s) => ({ ...s, requiredSkills: s.requiredSkills ?? [] }));
  let model = fleetModelOf(fleetStops, packages, shifts, managing, origin, now);
  const speed = (await findServiceArea(deps.db, actor.tenantId, serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
  model = withFleetTravel(model, await deps.hooks.travel.matrixSeconds(deps.config, model.points, speed));
  let routes: number[][] = shifts.map(() => []);
  let left = stops.map((_, i) => i);
  if (shifts.length) {
    const { problem } = fleetProblemOf(model, service?.maxStopsPerTour);
    const solution = problem.requests.length
      ? await deps.optimizer.solve(problem, { timeLimitMs: input.time_limit_ms ?? 5000, seed: SEED, objective: SOLVER_OBJECTIVE[objective] })
      : { routes: shifts.map(() => []), unassigned: [] };
    ({ routes, unplaced: left } = acceptRoutes(model, solution));
  }
  const proposed = routes.flatMap((route, k) => {
    if (!route.length) return [];
    const shift = shifts[k]!;
    const schedule = fleetScheduleOf(model, k, route);
    const at = (seconds: number) => new Date(origin.getTime() + Math.round(seconds) * 1000).toISOString();
    const tourStops = route.map((i) => stops[i]!);
    return [{ shift, stops: tourStops, schedule, starts_at: at(Math.max(model.readyAt, (shift.startsAt.getTime() - origin.getTime()) / 1000)), ends_at: at(schedule.finish), etas: schedule.arrivals.map(at) }];
  });
  const tourIds = input.apply ? await applyFleetPlan(deps, actor, input, stops, proposed, selectStops) : [];
  const tours = proposed.map((p, k) => ({
    tour_id: tourIds[k] ?? null,
    driver_id: p.shift.driverId,
    shift_id: p.shift.id,
    starts_at: p.starts_at,
    ends_at: p.ends_at,
    stop_ids: p.stops.map((s) => s.id),
    booking_ids: [...new Set(p.stops.map((s) => s.bookingId).filter((id): id is string => !!id))],
    travel_seconds: Math.round(p.schedule.travelSeconds),
    etas: p.etas,
  }));
  return {
    plan: { applied: input.apply === true, objective, tours, travel_seconds: tours.reduce((sum, t) => sum + t.travel_seconds, 0), unplaced: explainUnplaced(model, left) },
    tourIds,
  };
}

/**
 * Creates the proposed tours in one transaction, if the stops selected all still wait for dispatch, and force-assigns
 * each to its shift's driver, scheduled for the shift's start (decision 1301).
 */
async function applyFleetPlan(
  deps: Deps,
  actor: Actor,
  input: PlanInput,
  selected: readonly stopsRepo.StopRow[],
  proposed: { shift: FleetShift; stops: stopsRepo.StopRow[]; starts_at: string }[],
  selectStops: SelectStops,
): Promise<string[]> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const { stops, bookings } = await selectStops(tx, actor, input);
    const now = new Set(stops.map((s) => s.id));
    if (now.size !== selected.length || selected.some((s) => !now.has(s.id))) throw conflict('plan_outdated', { key: 'planning.plan_outdated' });
    const service = await getService(tx, actor.tenantId, bookings[0]!.serviceId);
    if (!service) throw new Error('booking without its service');
    const byId = new Map(stops.map((s) => [s.id, s]));
    const ids: string[] = [];
    for (const p of proposed) {
      const ofTour = bookings.filter((b) => p.stops.some((s) => s.bookingId === b.id));
      const id = await createTour(tx, actor.tenantId, actor, at, {
        service,
        status: 'to_be_dispatched',
        scheduledAt: new Date(p.starts_at),
        optimized: true,
        bookings: ofTour,
        stops: p.stops.map((s) => byId.get(s.id)!),
      });
      await forceAssignPlannedTour(tx, actor.tenantId, at, id, p.shift.driverId, actor);
      ids.push(id);
    }
    await settle(tx, deps.hooks.dispatch, {
      tenantId: actor.tenantId,
      actor,
      at,
      bookingIds: bookings.map((b) => b.id),
      tourIds: ids,
      event: 'dispatch',
    });
    return ids;
  });
}
