// A tour's best stop order by the solver: stops done or under way stay at their positions; the open ones fill the
// other positions in the order that drives least while keeping pickups before drop-offs and time windows (decisions
// 0955, 0956).
import type { Queryable } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Solver } from '../../../optimizer/index.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea } from '../../identity/index.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import type { StopRow } from '../stops/index.ts';
import { inFreePositions } from './positions.ts';
import { isMovable, modelOf, placeAll, problemOf, scheduleOf, startOf, withTravel, type Model, type Unplaced } from './problem.ts';
import type { Point } from './travel.ts';
import type { TravelSource } from '../../../seams/index.ts';

/** The same seed every time: one tour, one budget, one answer (as far as the budget allows). */
export const SEED = 1;
/** Merge with `optimize: true` searches inside its transaction (the tour is new), so briefly (decision 0956). */
export const MERGE_OPTIMIZE_TIME_LIMIT_MS = 300;

export interface Optimization {
  before_seconds: number;
  after_seconds: number;
  unplaced: Unplaced[];
}

/** The routed model of some stops from a start (travel seconds between them by the ETA routing). */
export async function routedModel(
  deps: Pick<Deps, 'config' | 'hooks' | 'db' | 'clock'>,
  q: Queryable,
  tenantId: string,
  serviceAreaId: string,
  stops: readonly StopRow[],
  start: ReturnType<typeof startOf>,
  startAt: Date,
): Promise<Model<StopRow> & { travelSource: TravelSource }> {
  const links = await packagesRepo.findPackagesOfStops(q, tenantId, stops.map((s) => s.id));
  const model = modelOf(stops, links, start, startAt);
  const speed = (await findServiceArea(q, tenantId, serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
  // Through q: a caller inside a transaction must not wait on a second connection (PGlite has only one).
  const travel = await deps.hooks.travel.matrix({ db: q, clock: deps.clock, config: deps.config }, model.points, speed);
  return { ...withTravel(model, travel.seconds), travelSource: travel.source };
}

export interface TourToOrder {
  id: string;
  serviceAreaId: string;
  status: string;
  scheduledAt: Date | null;
}

/**
 * The tour's stops (in their current order) reordered, with the travel seconds of the open part before and after
 * and the stops served outside their window. Never worse than the current order: fewer late stops, then less travel.
 */
export async function optimizedOrder(
  deps: Pick<Deps, 'config' | 'hooks' | 'clock' | 'db'> & { optimizer: Solver },
  q: Queryable,
  tenantId: string,
  tour: TourToOrder,
  stops: readonly StopRow[],
  timeLimitMs: number,
): Promise<{ order: StopRow[]; optimization: Optimization }> {
  const fixed = stops.filter((s) => !isMovable(s));
  const open = stops.filter(isMovable);
  // Fixed stops keep their positions; the open ones' positions must stay after the fixed stops they depend on.
  const links = fixed.length ? await packagesRepo.findPackagesOfStops(q, tenantId, stops.map((s) => s.id)) : [];
  const inPlace = (route: readonly number[]) => inFreePositions(stops, links, route.map((i) => open[i]!), (s) => !isMovable(s));
  const position: Point | null = tour.status === 'en_route' ? await deps.hooks.travel.lastPosition(q, tenantId, tour.id) : null;
  const now = deps.clock.now();
  const startAt = tour.scheduledAt && tour.scheduledAt > now ? tour.scheduledAt : now;
  const model = await routedModel(deps, q, tenantId, tour.serviceAreaId, open, startOf(stops, position), startAt);
  const current = open.map((_, i) => i);
  const kept = placeAll(model, { routes: [current], unassigned: [] });
  const solution = open.length ? await deps.optimizer.solve(problemOf(model, 1), { timeLimitMs, seed: SEED, objective: 'distance', ...(inOrder(model, current) ? { initial: [current] } : {}) }) : { routes: [[]], unassigned: [] };
  const searched = placeAll(model, solution);
  const order = inPlace(searched.routes[0] ?? []);
  // The open stops in the order they take around the fixed ones (the search's, unless precedence with them moved some).
  const openIndex = new Map(open.map((s, i) => [s.id, i]));
  const route = order?.filter(isMovable).map((s) => openIndex.get(s.id)!) ?? [];
  const found = route.every((i, k) => searched.routes[0]?.[k] === i) ? searched : placeAll(model, { routes: [route], unassigned: [] });
  const travel = (p: typeof kept) => scheduleOf(model, p.routes[0] ?? []).travelSeconds;
  const better = order !== null && (found.unplaced.length < kept.unplaced.length || (found.unplaced.length === kept.unplaced.length && travel(found) < travel(kept)));
  const chosen = better ? found : kept;
  return {
    order: better ? order : [...stops],
    optimization: {
      before_seconds: Math.round(scheduleOf(model, current).travelSeconds),
      after_seconds: Math.round(travel(chosen)),
      unplaced: chosen.unplaced,
    },
  };
}

/** Whether a route keeps every solver pair in order (the solver's starting solution must). */
function inOrder(model: Model, route: readonly number[]): boolean {
  return model.requests.every((r) => r.delivery === undefined || r.pickup === undefined || route.indexOf(r.pickup) < route.indexOf(r.delivery));
}
