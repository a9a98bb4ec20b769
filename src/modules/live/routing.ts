// Routing providers: travel seconds of each leg of a route, by straight line or by an OSRM server (docs/api-guide.md "Live tracking").
import type { Queryable } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { recordRoutingFallback } from '../../http/metrics.ts';
import type { TravelSource } from '../../seams/index.ts';
import { haversineMeters, type LatLng } from './geo.ts';

export interface RoutingProvider {
  name: 'straight_line' | 'osrm';
  /** Travel seconds between consecutive points: points.length - 1 legs. `speedKmh` is the service area's. */
  legSeconds(points: readonly LatLng[], speedKmh: number): Promise<number[]>;
}

/** Roads are not straight: 1.3 is the usual detour factor of urban road networks over the crow-flies distance. */
export const DETOUR_FACTOR = 1.3;

export function straightLineLegSeconds(points: readonly LatLng[], speedKmh: number): number[] {
  const metersPerSecond = Math.max(1, speedKmh) / 3.6;
  const legs: number[] = [];
  for (let i = 1; i < points.length; i++) {
    const from = points[i - 1];
    const to = points[i];
    if (from && to) legs.push((haversineMeters(from, to) * DETOUR_FACTOR) / metersPerSecond);
  }
  return legs;
}

export const straightLine: RoutingProvider = {
  name: 'straight_line',
  legSeconds: async (points, speedKmh) => straightLineLegSeconds(points, speedKmh),
};

export type FallbackReason = 'timeout' | 'error' | 'bad_response';

export interface OsrmOptions {
  url: string;
  timeoutMs: number;
  profile?: string;
  onFallback?: (reason: FallbackReason) => void;
}

interface OsrmRouteResponse {
  code?: unknown;
  routes?: { legs?: { duration?: unknown }[] }[];
}

/** OSRM caps coordinates per request (max-viaroute-size, 500 by default); longer routes are asked in chunks. */
const MAX_POINTS_PER_REQUEST = 100;

class BadResponse extends Error {}

async function osrmLegs(options: OsrmOptions, points: readonly LatLng[]): Promise<number[]> {
  const coordinates = points.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
  const base = options.url.replace(/\/+$/, '');
  // The route service answers legs in the order given, which is what ETAs along a fixed stop order need.
  const url = `${base}/route/v1/${options.profile ?? 'driving'}/${coordinates}?overview=false&steps=false&annotations=false`;
  const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
  const body = (await response.json().catch(() => null)) as OsrmRouteResponse | null;
  if (!response.ok || !body || body.code !== 'Ok') throw new BadResponse(`OSRM answered ${response.status} ${String(body?.code ?? '')}`);
  const legs = body.routes?.[0]?.legs ?? [];
  const seconds = legs.map((leg) => leg.duration);
  if (seconds.length !== points.length - 1 || !seconds.every((s): s is number => typeof s === 'number' && Number.isFinite(s) && s >= 0)) {
    throw new BadResponse('OSRM answered legs that do not match the route');
  }
  return seconds;
}

/** OSRM over HTTP; any timeout, error or unexpected answer falls back to straight-line routing and is counted. */
export function osrm(options: OsrmOptions): RoutingProvider {
  const onFallback = options.onFallback ?? ((reason: FallbackReason) => recordRoutingFallback('osrm', reason));
  return {
    name: 'osrm',
    async legSeconds(points, speedKmh) {
      if (points.length < 2) return [];
      try {
        const legs: number[] = [];
        for (let start = 0; start < points.length - 1; start += MAX_POINTS_PER_REQUEST - 1) {
          legs.push(...(await osrmLegs(options, points.slice(start, start + MAX_POINTS_PER_REQUEST))));
        }
        return legs;
      } catch (err) {
        const reason: FallbackReason =
          err instanceof BadResponse ? 'bad_response' : (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError' ? 'timeout' : 'error';
        onFallback(reason);
        return straightLineLegSeconds(points, speedKmh);
      }
    },
  };
}

/** The provider the configuration asks for: OSRM when OSRM_URL is set, straight lines otherwise. */
export function routingProvider(config: { osrmUrl: string | null; live: { osrmTimeoutMs: number } }): RoutingProvider {
  return config.osrmUrl ? osrm({ url: config.osrmUrl, timeoutMs: config.live.osrmTimeoutMs }) : straightLine;
}

/**
 * Travel seconds of each leg of a route from the one travel seam (contract §10, §15; decision 1523): the same source
 * as plans and optimisation — a configured engine, else the region's roads, else straight lines — and which it was.
 * One point has no leg, but its ETA still names the source a leg from it would take (decision 1702): the point to itself.
 */
export async function travelLegs(
  deps: Pick<Deps, 'clock' | 'config' | 'hooks'>,
  q: Queryable,
  points: readonly LatLng[],
  speedKmh: number,
): Promise<{ legs: number[]; source: TravelSource }> {
  if (points.length === 0) return { legs: [], source: 'straight_line' };
  const matrix = await deps.hooks.travel.matrix({ db: q, clock: deps.clock, config: deps.config }, points.length === 1 ? [points[0]!, points[0]!] : points, speedKmh);
  if (points.length === 1) return { legs: [], source: matrix.source };
  return { legs: points.slice(1).map((_, i) => matrix.seconds[i]![i + 1]!), source: matrix.source };
}
