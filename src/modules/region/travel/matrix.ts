// Where a travel time comes from (contract §15, docs/architecture.md "Travel times", decision 1523) — the one file:
//   1. a configured engine (ROUTING=osrm|valhalla + ROUTING_URL; OSRM_URL alone is osrm), its answers cached per
//      point pair for ROUTING_CACHE_SECONDS; on any failure of it, on to
//   2. the road network of the one imported region whose box holds every point, every point snapped onto its nearest
//      drivable road (roads/snap.ts) — unless a point is farther than 500 m from every road (at sea, outside the
//      roads) or two points have no path between them; then
//   3. straight lines: haversine × 1.3 at the service area's average speed.
// One matrix has one source for all its points, named in `source` (travel_source in the API).
import type { Config } from '../../../config.ts';
import type { Queryable } from '../../../db/client.ts';
import { recordRoutingFallback } from '../../../http/metrics.ts';
import type { Clock } from '../../../shared/clock.ts';
import { regionForPoints } from '../repository.ts';
import { roadNetwork, type RoadNetwork } from '../roads/network.ts';
import { roadMatrix } from '../roads/search.ts';
import type { Snapped } from '../roads/snap.ts';
import type { EngineAdapter, EngineMatrix } from './engines.ts';
import { osrmTable } from './osrm.ts';
import { straightLineMatrix, type Point } from './straight-line.ts';
import { valhallaMatrix } from './valhalla.ts';

export type TravelSource = 'road_network' | 'osrm' | 'valhalla' | 'straight_line';

export interface TravelMatrix {
  /** Row = from, column = to. */
  seconds: number[][];
  meters: number[][];
  source: TravelSource;
}

export interface TravelDeps {
  db: Queryable;
  clock: Clock;
  config: Pick<Config, 'routing' | 'live'>;
}

const ENGINES: Record<'osrm' | 'valhalla', EngineAdapter> = { osrm: osrmTable, valhalla: valhallaMatrix };

export async function travelMatrix(deps: TravelDeps, points: readonly Point[], speedKmh: number): Promise<TravelMatrix> {
  if (points.length < 2) return { seconds: points.map(() => [0]), meters: points.map(() => [0]), source: 'straight_line' };
  const { engine } = deps.config.routing;
  if (engine) {
    const answer = await engineMatrix(deps, engine, points).catch((err: unknown) => {
      recordRoutingFallback(engine, (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? 'timeout' : 'error');
      return null;
    });
    if (answer) return rows(answer, points.length, engine);
  }
  const network = await regionNetwork(deps.db, points);
  if (network) {
    const snapped = snapAll(network, points);
    if (snapped) {
      const answer = roadMatrix(network.workspace, snapped, snapped);
      if (answer.seconds.every(Number.isFinite)) return rows(answer, points.length, 'road_network');
    }
  }
  return rows(straightLineMatrix(points, speedKmh), points.length, 'straight_line');
}

/** The road network of the region that holds every point, or null. */
export async function regionNetwork(q: Queryable, points: readonly Point[]): Promise<RoadNetwork | null> {
  const region = await regionForPoints(q, points);
  return region ? roadNetwork(q, region.id) : null;
}

/** Every point on the road, or null when one of them is not near any. */
export function snapAll(network: RoadNetwork, points: readonly Point[]): Snapped[] | null {
  const snapped: Snapped[] = [];
  for (const p of points) {
    const s = network.snap.snap(p.lat, p.lng);
    if (!s) return null;
    snapped.push(s);
  }
  return snapped;
}

function rows(matrix: EngineMatrix, n: number, source: TravelSource): TravelMatrix {
  const seconds: number[][] = [];
  const meters: number[][] = [];
  for (let i = 0; i < n; i++) {
    const s = Array.from(matrix.seconds.subarray(i * n, i * n + n));
    const m = Array.from(matrix.meters.subarray(i * n, i * n + n));
    // A point to itself is no travel, whatever the engine or the snapping says.
    s[i] = 0;
    m[i] = 0;
    seconds.push(s);
    meters.push(m);
  }
  return { seconds, meters, source };
}

// The engines' answers per point pair (decision 1523): keyed by engine URL and both points to 6 decimals (≈ 0.1 m),
// kept ROUTING_CACHE_SECONDS; at most CACHE_PAIRS pairs, the oldest dropped first.
const CACHE_PAIRS = 2_000_000;
const pairCache = new Map<string, { seconds: number; meters: number; until: number }>();

const pointKey = (p: Point): string => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

/** Forgets every cached engine answer (tests; an operator changing engines restarts anyway). */
export function clearTravelCache(): void {
  pairCache.clear();
}

async function engineMatrix(deps: TravelDeps, engine: 'osrm' | 'valhalla', points: readonly Point[]): Promise<EngineMatrix> {
  const { url, parallel, cacheSeconds } = deps.config.routing;
  const n = points.length;
  const now = deps.clock.now().getTime();
  const keys = points.map(pointKey);
  const prefix = `${engine} ${url ?? ''} `;
  const cached = new Float64Array(n * n).fill(NaN);
  const cachedMeters = new Float64Array(n * n);
  if (cacheSeconds > 0) {
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const hit = pairCache.get(prefix + keys[i]! + ' ' + keys[j]!);
        if (hit && hit.until > now) {
          cached[i * n + j] = hit.seconds;
          cachedMeters[i * n + j] = hit.meters;
        }
      }
    }
  }
  const missing = (sources: readonly number[], targets: readonly number[]): boolean => sources.some((i) => targets.some((j) => i !== j && Number.isNaN(cached[i * n + j]!)));
  const answer = await ENGINES[engine](points, { url: url ?? '', timeoutMs: deps.config.live.osrmTimeoutMs, parallel, wanted: missing });
  for (let cell = 0; cell < n * n; cell++) {
    if (!Number.isNaN(cached[cell]!)) {
      answer.seconds[cell] = cached[cell]!;
      answer.meters[cell] = cachedMeters[cell]!;
    } else if (cacheSeconds > 0 && cell % (n + 1) !== 0) {
      const key = prefix + keys[Math.floor(cell / n)]! + ' ' + keys[cell % n]!;
      pairCache.delete(key);
      pairCache.set(key, { seconds: answer.seconds[cell]!, meters: answer.meters[cell]!, until: now + cacheSeconds * 1000 });
    }
  }
  while (pairCache.size > CACHE_PAIRS) pairCache.delete(pairCache.keys().next().value!);
  return answer;
}
