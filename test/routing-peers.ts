// Loopback stand-ins for the routing engines' matrix and route services, answering as their documentation says (OSRM's
// table and route services, http://project-osrm.org/docs/v5.24.0/api/#table-service and #route-service; Valhalla's
// sources_to_targets and route, https://valhalla.github.io/valhalla/api/matrix/api-reference/ and
// …/api/turn-by-turn/api-reference/), with their default size limits enforced as the engines enforce them (OSRM:
// sources × destinations ≤ max-table-size², 100²; Valhalla: 2,500 location pairs). A peer's route between two points
// bends through a point off the straight line (its `bend`), so a test can tell the engine's line from any other.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PeerPoint {
  lat: number;
  lng: number;
}

/** Travel seconds and meters the peer answers for a pair. */
export type PeerTimes = (from: PeerPoint, to: PeerPoint) => { seconds: number; meters: number };

export interface RoutingPeer {
  url: string;
  /** `down`: the engine answers 503 (an outage). */
  mode: 'ok' | 'down';
  /** Per request: how many sources and destinations it asked. */
  requests: { sources: number; destinations: number }[];
  /** Per route request: how many points it asked. */
  routes: number[];
  close(): Promise<void>;
}

async function listen(handle: (req: http.IncomingMessage, body: string, send: (status: number, body: unknown) => void) => void, peer: { mode: 'ok' | 'down' }): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (peer.mode === 'down') return send(503, { message: 'Service Unavailable' });
      handle(req, body, send);
    });
  });
  // A test's own work between two matrices may outlast Node's 5 s keep-alive: keep the connections open for a minute.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }) };
}

const TABLE_RE = /^\/table\/v1\/driving\/([-0-9.,;]+)$/;
const ROUTE_RE = /^\/route\/v1\/driving\/([-0-9.,;]+)$/;

/** Where a peer's route between two points bends: a little north of their midpoint. */
export const bend = (a: PeerPoint, b: PeerPoint): PeerPoint => ({ lat: (a.lat + b.lat) / 2 + 0.0005, lng: (a.lng + b.lng) / 2 });

const coordinatesOf = (text: string): PeerPoint[] =>
  text.split(';').map((pair) => {
    const [lng, lat] = pair.split(',').map(Number);
    return { lat: lat!, lng: lng! };
  });

/** Google's encoded polyline of [lat, lng] at 10^precision, as Valhalla's `shape` (precision 6). */
export function encodePolyline(points: readonly PeerPoint[], precision = 6): string {
  const factor = 10 ** precision;
  let out = '';
  let lastLat = 0;
  let lastLng = 0;
  const put = (delta: number) => {
    let value = delta < 0 ? ~(delta << 1) : delta << 1;
    while (value >= 0x20) {
      out += String.fromCharCode((0x20 | (value & 0x1f)) + 63);
      value >>= 5;
    }
    out += String.fromCharCode(value + 63);
  };
  for (const p of points) {
    const lat = Math.round(p.lat * factor);
    const lng = Math.round(p.lng * factor);
    put(lat - lastLat);
    put(lng - lastLng);
    lastLat = lat;
    lastLng = lng;
  }
  return out;
}
/** OSRM's default --max-table-size. */
const OSRM_MAX_TABLE_SIZE = 100;

export async function startOsrmPeer(times: PeerTimes): Promise<RoutingPeer> {
  const peer: RoutingPeer = { url: '', mode: 'ok', requests: [], routes: [], close: async () => undefined };
  const server = await listen((req, _body, send) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = ROUTE_RE.exec(url.pathname);
    if (route) {
      // The route service: one route through the coordinates in order; geometries=geojson gives [lng, lat] pairs.
      const points = coordinatesOf(route[1]!);
      if (points.length < 2) return send(400, { code: 'InvalidQuery', message: 'Query string malformed close to position 0' });
      peer.routes.push(points.length);
      const legs = points.slice(1).map((to, i) => ({ ...times(points[i]!, to), from: points[i]!, to }));
      const line = [points[0]!, ...legs.flatMap((leg) => [bend(leg.from, leg.to), leg.to])];
      const geometry = url.searchParams.get('geometries') === 'geojson' ? { type: 'LineString', coordinates: line.map((p) => [p.lng, p.lat]) } : encodePolyline(line, 5);
      const distance = legs.reduce((sum, leg) => sum + leg.meters, 0);
      const duration = legs.reduce((sum, leg) => sum + leg.seconds, 0);
      return send(200, {
        code: 'Ok',
        routes: [{ distance, duration, weight: duration, weight_name: 'routability', geometry, legs: legs.map((leg) => ({ distance: leg.meters, duration: leg.seconds, steps: [], summary: '' })) }],
        waypoints: points.map((p) => ({ hint: '', distance: 0, name: '', location: [p.lng, p.lat] })),
      });
    }
    const match = TABLE_RE.exec(url.pathname);
    if (!match) return send(400, { code: 'InvalidUrl', message: 'URL string malformed' });
    const coordinates = match[1]!.split(';').map((pair) => {
      const [lng, lat] = pair.split(',').map(Number);
      return { lat: lat!, lng: lng! };
    });
    const indices = (name: string): number[] | null => {
      const value = url.searchParams.get(name);
      return value === null || value === 'all' ? coordinates.map((_, i) => i) : value.split(';').map(Number);
    };
    const sources = indices('sources')!;
    const destinations = indices('destinations')!;
    if ([...sources, ...destinations].some((i) => !Number.isInteger(i) || i < 0 || i >= coordinates.length)) return send(400, { code: 'InvalidOptions', message: 'Index out of bounds' });
    peer.requests.push({ sources: sources.length, destinations: destinations.length });
    // As osrm-routed: "if num_sources * num_destinations > max_locations_distance_table²" → TooBig.
    if (sources.length * destinations.length > OSRM_MAX_TABLE_SIZE * OSRM_MAX_TABLE_SIZE) return send(400, { code: 'TooBig', message: 'Too many table coordinates' });
    const annotations = (url.searchParams.get('annotations') ?? 'duration').split(',');
    const cells = sources.map((s) => destinations.map((d) => times(coordinates[s]!, coordinates[d]!)));
    const waypoint = (i: number) => ({ hint: '', distance: 0, name: '', location: [coordinates[i]!.lng, coordinates[i]!.lat] });
    send(200, {
      code: 'Ok',
      ...(annotations.includes('duration') ? { durations: cells.map((row) => row.map((c) => c.seconds)) } : {}),
      ...(annotations.includes('distance') ? { distances: cells.map((row) => row.map((c) => c.meters)) } : {}),
      sources: sources.map(waypoint),
      destinations: destinations.map(waypoint),
    });
  }, peer);
  peer.url = server.url;
  peer.close = server.close;
  return peer;
}

/** Valhalla's default service_limits.auto.max_matrix_location_pairs. */
const VALHALLA_MAX_PAIRS = 2500;

export async function startValhallaPeer(times: PeerTimes): Promise<RoutingPeer> {
  const peer: RoutingPeer = { url: '', mode: 'ok', requests: [], routes: [], close: async () => undefined };
  const server = await listen((req, body, send) => {
    if (req.method === 'POST' && req.url === '/route') {
      // The route service: a trip through the locations in order, each leg's shape a polyline of precision 6.
      const request = JSON.parse(body) as { locations: { lat: number; lon: number }[]; units?: string };
      const points = request.locations.map((l) => ({ lat: l.lat, lng: l.lon }));
      if (points.length < 2) return send(400, { error_code: 120, error: 'Insufficient number of locations provided', status_code: 400, status: 'Bad Request' });
      peer.routes.push(points.length);
      const kmFactor = request.units === 'miles' ? 1 / 1609.344 : 1 / 1000;
      const legs = points.slice(1).map((to, i) => ({ ...times(points[i]!, to), shape: encodePolyline([points[i]!, bend(points[i]!, to), to]) }));
      const length = legs.reduce((sum, leg) => sum + leg.meters, 0) * kmFactor;
      const time = legs.reduce((sum, leg) => sum + leg.seconds, 0);
      return send(200, {
        trip: {
          locations: request.locations.map((l) => ({ type: 'break', lat: l.lat, lon: l.lon })),
          legs: legs.map((leg) => ({ summary: { time: leg.seconds, length: leg.meters * kmFactor }, shape: leg.shape, maneuvers: [] })),
          summary: { time, length },
          status: 0,
          status_message: 'Found route between points',
          units: request.units ?? 'kilometers',
        },
      });
    }
    if (req.method !== 'POST' || req.url !== '/sources_to_targets') return send(404, { error_code: 106, error: 'Try any of', status_code: 404, status: 'Not Found' });
    const request = JSON.parse(body) as { sources: { lat: number; lon: number }[]; targets: { lat: number; lon: number }[]; costing?: string; units?: string };
    peer.requests.push({ sources: request.sources.length, destinations: request.targets.length });
    if (request.sources.length * request.targets.length > VALHALLA_MAX_PAIRS) {
      return send(400, { error_code: 154, error: `Exceeded max locations: ${VALHALLA_MAX_PAIRS}`, status_code: 400, status: 'Bad Request' });
    }
    const kmFactor = request.units === 'miles' ? 1 / 1609.344 : 1 / 1000;
    send(200, {
      sources_to_targets: request.sources.map((s, i) =>
        request.targets.map((t, j) => {
          const cell = times({ lat: s.lat, lng: s.lon }, { lat: t.lat, lng: t.lon });
          return { distance: Number((cell.meters * kmFactor).toFixed(3)), time: Math.round(cell.seconds), to_index: j, from_index: i };
        }),
      ),
      units: request.units ?? 'kilometers',
    });
  }, peer);
  peer.url = server.url;
  peer.close = server.close;
  return peer;
}

/**
 * A Sartori & Buriol instance (test/fixtures/sartori-buriol/): its points and the OSRM travel times between them that
 * the instance publishes (EDGES, whole minutes). The peer answers those times for the instance's points; its
 * distances are the instance's minutes at 30 km/h (the instance publishes no distances).
 */
export function sartoriBuriol(file: string): { points: PeerPoint[]; minutes: number[][]; times: PeerTimes } {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const nodesAt = lines.indexOf('NODES');
  const edgesAt = lines.indexOf('EDGES');
  const points = lines.slice(nodesAt + 1, edgesAt).filter((l) => l.trim()).map((l) => {
    const [, lat, lng] = l.trim().split(/\s+/).map(Number);
    return { lat: lat!, lng: lng! };
  });
  const minutes = lines.slice(edgesAt + 1, edgesAt + 1 + points.length).map((l) => l.trim().split(/\s+/).map(Number));
  const index = new Map(points.map((p, i) => [`${p.lat.toFixed(6)},${p.lng.toFixed(6)}`, i]));
  const times: PeerTimes = (from, to) => {
    const i = index.get(`${from.lat.toFixed(6)},${from.lng.toFixed(6)}`);
    const j = index.get(`${to.lat.toFixed(6)},${to.lng.toFixed(6)}`);
    if (i === undefined || j === undefined) throw new Error('not a point of the instance');
    const seconds = minutes[i]![j]! * 60;
    return { seconds, meters: seconds * (30 / 3.6) };
  };
  return { points, minutes, times };
}
