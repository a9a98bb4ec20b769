// The routing engines' route services (contract §15's routes; decision 1700): the road line through points in their
// order, with its distance and duration. OSRM: GET /route/v1/driving/{lng,lat;…}?overview=full&geometries=geojson
// (http://project-osrm.org/docs/v5.24.0/api/#route-service), asked in runs of 100 points that share their ends.
// Valhalla: POST /route {locations, costing: auto} (https://valhalla.github.io/valhalla/api/turn-by-turn/api-reference/),
// each leg's `shape` a polyline of precision 6, its summary in seconds and kilometers. Each throws on any failure;
// route.ts then falls back.
import { EngineError, fetchJson, finiteSeconds } from './engines.ts';
import type { Point } from './straight-line.ts';

export interface EngineRoute {
  /** [lng, lat] pairs (GeoJSON order). */
  coordinates: [number, number][];
  meters: number;
  seconds: number;
}

export type EngineRouteAdapter = (points: readonly Point[], options: { url: string; timeoutMs: number }) => Promise<EngineRoute>;

/** OSRM's default --max-viaroute-size is 500; 100 keeps each URL short. */
const OSRM_ROUTE_POINTS = 100;

const isPair = (value: unknown): value is [number, number] => Array.isArray(value) && value.length >= 2 && value.every((v) => typeof v === 'number' && Number.isFinite(v));

export const osrmRoute: EngineRouteAdapter = async (points, options) => {
  const base = options.url.replace(/\/+$/, '');
  const route: EngineRoute = { coordinates: [], meters: 0, seconds: 0 };
  for (let start = 0; start < points.length - 1; start += OSRM_ROUTE_POINTS - 1) {
    const run = points.slice(start, start + OSRM_ROUTE_POINTS);
    const coordinates = run.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
    const { status, body } = await fetchJson(`${base}/route/v1/driving/${coordinates}?overview=full&geometries=geojson&steps=false`, {}, options.timeoutMs);
    const answer = body as { code?: unknown; routes?: { distance?: unknown; duration?: unknown; geometry?: { coordinates?: unknown } }[] } | null;
    const first = answer?.routes?.[0];
    const line = first?.geometry?.coordinates;
    if (status !== 200 || answer?.code !== 'Ok' || !first || !finiteSeconds(first.duration) || !finiteSeconds(first.distance) || !Array.isArray(line) || !line.every(isPair)) {
      throw new EngineError(`OSRM answered ${status} ${String(answer?.code ?? '')}`);
    }
    route.coordinates.push(...(route.coordinates.length ? line.slice(1) : line));
    route.meters += first.distance;
    route.seconds += first.duration;
  }
  return route;
};

/** Decodes an encoded polyline (Google's algorithm) of the given precision into [lng, lat] pairs. */
export function decodePolyline(encoded: string, precision = 6): [number, number][] {
  const factor = 10 ** precision;
  const out: [number, number][] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = (): number => {
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      if (index >= encoded.length) throw new EngineError('Valhalla answered a truncated shape');
      byte = encoded.charCodeAt(index++) - 63;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    lat += next();
    lng += next();
    out.push([lng / factor, lat / factor]);
  }
  return out;
}

export const valhallaRoute: EngineRouteAdapter = async (points, options) => {
  const base = options.url.replace(/\/+$/, '');
  const request = { locations: points.map((p) => ({ lat: p.lat, lon: p.lng })), costing: 'auto', units: 'kilometers' };
  const { status, body } = await fetchJson(`${base}/route`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }, options.timeoutMs);
  const trip = (body as { trip?: { summary?: { time?: unknown; length?: unknown }; legs?: { shape?: unknown }[] } } | null)?.trip;
  const legs = trip?.legs;
  if (status !== 200 || !trip || !finiteSeconds(trip.summary?.time) || !finiteSeconds(trip.summary?.length) || !Array.isArray(legs) || legs.length !== points.length - 1) {
    throw new EngineError(`Valhalla answered ${status}`);
  }
  const coordinates: [number, number][] = [];
  for (const leg of legs) {
    if (typeof leg.shape !== 'string') throw new EngineError('Valhalla answered a leg without a shape');
    const line = decodePolyline(leg.shape);
    coordinates.push(...(coordinates.length ? line.slice(1) : line));
  }
  return { coordinates, meters: trip.summary.length * 1000, seconds: trip.summary.time };
};
