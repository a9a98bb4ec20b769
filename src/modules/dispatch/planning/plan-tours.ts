// POST /api/hailing/dispatch/plan: tours proposed for waiting stops across drivers (fewest tours, then least travel,
// as the benchmark's objective) and, with `apply`, created as merge creates one (decision 0958).
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, unknownReference } from '../../../http/errors.ts';
import { getService } from '../../services/index.ts';
import { requireBooking, requireDispatcher } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { loadDispatchableStops } from '../tours/merge-and-insert.ts';
import { getTour } from '../tours/get-tours.ts';
import { applyProposal, type StoredProposal } from './apply-plan.ts';
import { SEED, routedModel } from './order.ts';
import { placeAll, problemOf, scheduleOf } from './problem.ts';
import { proposedRoutes, speedOf } from './proposed-routes.ts';
import { checkFleet, planFleet, withFleet } from './plan-fleet.ts';
import * as planRepo from './repository.ts';
import { SYNC_PLAN_MAX_BOOKINGS, type PlanInput, type PlanWire } from './schemas.ts';
import { newId } from '../../../shared/ids.ts';
import { iso } from '../../../shared/time.ts';
import { scheduleJob } from '../../../worker/jobs.ts';

export const PLAN_TIME_LIMIT_MS = 5000;
const MAX_TOURS = 100;

/** The waiting stops the body names (merge's rules: visible, waiting, one service), their bookings locked by `tx`. */
export async function selectStops(tx: Tx, actor: Actor, input: PlanInput) {
  if ('stop_ids' in input) return loadDispatchableStops(tx, actor, input.stop_ids, (i) => `/stop_ids/${i}`, false);
  const bookings = await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, input.booking_ids);
  for (const [i, id] of input.booking_ids.entries()) {
    await requireBooking(tx, actor, { loaded: bookings.find((b) => b.id === id) }, { otherwise: () => unknownReference(`/booking_ids/${i}`, 'booking') });
  }
  const all = await stopsRepo.findStopsOfBookings(tx, actor.tenantId, input.booking_ids);
  const waiting = input.booking_ids.flatMap((id) => all.filter((s) => s.bookingId === id && s.status === 'to_be_dispatched'));
  if (!waiting.length) throw invalidFields([{ pointer: '/booking_ids', code: 'nothing_to_dispatch', detail: 'no stop of these bookings waits for dispatch' }]);
  return loadDispatchableStops(tx, actor, waiting.map((s) => s.id), (i) => `/booking_ids/${input.booking_ids.indexOf(waiting[i]!.bookingId!)}`, false);
}

/** The answer: the plan now (200, or 201 when applied), or a plan run as a job to poll (202; decision 1302). */
export type PlanAnswer = { status: 200 | 201; body: { plan: PlanWire; tours: Awaited<ReturnType<typeof getTour>>[] } } | { status: 202; body: { plan: PlanJobStarted } };

export async function planDispatch(deps: Deps, actor: Actor, input: PlanInput): Promise<PlanAnswer> {
  requireDispatcher(actor);
  // The fleet is named by its drivers or by their shifts, never both (decision 1304).
  if (input.drivers && input.shift_ids) throw invalidFields([{ pointer: '/shift_ids', code: 'exclusive', detail: 'give drivers or shift_ids, not both' }]);
  const fleet = withFleet(input);
  // Without drivers a tour may start anywhere: only the fewest tours make sense to ask for (decision 1301).
  if (input.objective && input.objective !== 'fewest_tours' && !fleet) throw invalidFields([{ pointer: '/objective', code: 'requires_drivers', detail: 'needs drivers: without them only fewest_tours applies' }]);
  // Without drivers there are no tours under way to add to (decision 1646).
  if (input.replan && !fleet) throw invalidFields([{ pointer: '/replan', code: 'requires_drivers', detail: 'needs drivers: only_new adds to the tours of drivers or shifts' }]);
  const size = 'booking_ids' in input ? input.booking_ids.length : input.stop_ids.length / 2;
  if (input.async || (fleet && size > SYNC_PLAN_MAX_BOOKINGS)) {
    // What the request can refuse it refuses now (unknown or invisible bookings, stops, drivers or shifts); the rest is the job's.
    await deps.db.transaction(async (tx) => {
      await selectStops(tx, actor, input);
      if (fleet) await checkFleet(tx, actor, input);
    });
    return { status: 202, body: { plan: await startPlanJob(deps, actor, input) } };
  }
  const { plan, tourIds } = await planNow(deps, actor, input);
  const tours = [];
  for (const id of tourIds) tours.push(await getTour(deps, actor, id));
  return { status: input.apply ? 201 : 200, body: { plan, tours } };
}

export interface PlanJobStarted {
  id: string;
  status: 'running';
  created_at: string;
  finished_at: null;
}

/** Stores the plan and schedules its job, in one transaction: a plan is never `running` without a job to run it. */
async function startPlanJob(deps: Deps, actor: Actor, input: PlanInput): Promise<PlanJobStarted> {
  const at = deps.clock.now();
  const id = newId();
  await deps.db.transaction(async (tx) => {
    await planRepo.insertPlan(tx, { tenantId: actor.tenantId, id, status: 'running', actor: { ...actor }, input: { ...input }, result: null, error: null, createdAt: at, finishedAt: null });
    await scheduleJob(tx, { tenantId: actor.tenantId, kind: 'dispatch.plan', payload: { plan_id: id }, dueAt: at, now: at, maxAttempts: 1 });
  });
  return { id, status: 'running', created_at: iso(at), finished_at: null };
}

/** Plans (and with `apply` creates the tours) now: with drivers by their shifts, else as many tours as needed. */
export async function planNow(deps: Deps, actor: Actor, input: PlanInput): Promise<{ plan: PlanWire; tourIds: string[]; proposal: StoredProposal }> {
  if (withFleet(input)) return planFleet(deps, actor, input, selectStops);
  // The search runs outside any transaction; `apply` takes the locks again and checks nothing moved meanwhile.
  const { stops, bookings } = await deps.db.transaction((tx) => selectStops(tx, actor, input));
  const serviceAreaId = bookings[0]!.serviceAreaId;
  // No proposed tour may hold more stops than the service allows (merge would refuse it: stop_limit_reached).
  const maxStops = (await serviceOf(deps.db, actor, bookings[0]!.serviceId)).maxStopsPerTour;
  const model = await routedModel(deps, deps.db, actor.tenantId, serviceAreaId, stops, { point: null, readyAfterSeconds: 0 }, deps.clock.now());
  const vehicles = Math.min(input.max_tours ?? MAX_TOURS, model.requests.length);
  const solution = await deps.optimizer.solve(problemOf(model, vehicles, maxStops), { timeLimitMs: input.time_limit_ms ?? PLAN_TIME_LIMIT_MS, seed: SEED, objective: 'vehicles-then-distance' });
  const { routes, unplaced } = placeAll(model, solution, maxStops);
  const proposed = routes
    .filter((r) => r.length)
    .map((r) => {
      const tourStops = r.map((i) => model.stops[i]!);
      const schedule = scheduleOf(model, r);
      // A proposed tour has no driver yet: its ETAs are for a start at its first stop now (decision 1041).
      const etas = schedule.arrivals.map((s) => new Date(model.startAt.getTime() + Math.round(s) * 1000).toISOString());
      return { stops: tourStops, travelSeconds: Math.round(schedule.travelSeconds), etas };
    });
  const proposal: StoredProposal = {
    selected: model.stops.map((s) => s.id),
    tours: proposed.map((p) => ({ stop_ids: p.stops.map((s) => s.id), driver_id: null, starts_at: null, finish_at: p.etas.at(-1) ?? null, distance_m: null, running: null })),
  };
  const tourIds = input.apply ? await deps.db.transaction((tx) => applyProposal(tx, deps, actor, deps.clock.now(), input, proposal, selectStops)) : proposed.map(() => null);
  const speed = await speedOf(deps.db, actor.tenantId, serviceAreaId);
  const lines = await proposedRoutes(deps, proposed.map((p) => p.stops), speed);
  const plan = {
    applied: input.apply === true,
    tours: proposed.map((p, k) => ({
      tour_id: tourIds[k] ?? null,
      stop_ids: p.stops.map((s) => s.id),
      booking_ids: [...new Set(p.stops.map((s) => s.bookingId).filter((id): id is string => !!id))],
      travel_seconds: p.travelSeconds,
      etas: p.etas,
      travel_source: model.travelSource,
      route: lines[k]!,
    })),
    travel_seconds: proposed.reduce((sum, p) => sum + p.travelSeconds, 0),
    travel_source: model.travelSource,
    unplaced,
  };
  return { plan, tourIds: tourIds.filter((id): id is string => !!id), proposal };
}

async function serviceOf(q: Queryable, actor: Actor, serviceId: string) {
  const service = await getService(q, actor.tenantId, serviceId);
  if (!service) throw new Error('booking without its service');
  return service;
}
