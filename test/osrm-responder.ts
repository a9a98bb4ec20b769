// A loopback OSRM stand-in answering the route and table services in OSRM's documented format (project-osrm.org/docs/v5.24.0/api),
// with switchable failure modes for the fallback tests. Leg durations: 1 s per 10 m of straight line (36 km/h).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { haversineMeters } from '../src/modules/live/geo.ts';

export type OsrmMode = 'ok' | 'invalid_query' | 'server_error' | 'slow' | 'not_json';

export interface OsrmResponder {
  url: string;
  mode: OsrmMode;
  /** Request paths received, in order. */
  requests: string[];
  close(): Promise<void>;
}

const ROUTE_RE = /^\/route\/v1\/([a-z]+)\/([-0-9.,;]+)$/;
/** The table service (tour optimisation's travel matrix): durations between every pair of points. */
const TABLE_RE = /^\/table\/v1\/([a-z]+)\/([-0-9.,;]+)$/;

const parsePoints = (text: string) =>
  text.split(';').map((pair) => {
    const [lng, lat] = pair.split(',').map(Number);
    return { lat: lat ?? 0, lng: lng ?? 0 };
  });

export async function startOsrmResponder(): Promise<OsrmResponder> {
  const state: { mode: OsrmMode; requests: string[] } = { mode: 'ok', requests: [] };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push(url.pathname);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (state.mode === 'slow') return void setTimeout(() => send(200, { code: 'Ok', routes: [] }), 5_000).unref();
    if (state.mode === 'server_error') return send(500, { message: 'internal' });
    if (state.mode === 'not_json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end('<html>gateway</html>');
    }
    const table = TABLE_RE.exec(url.pathname);
    if (table && state.mode === 'ok') {
      const points = parsePoints(table[2] ?? '');
      const sources = url.searchParams.get('sources')?.split(';').map(Number) ?? points.map((_, i) => i);
      const destinations = url.searchParams.get('destinations')?.split(';').map(Number) ?? points.map((_, i) => i);
      const cells = (f: (meters: number) => number) => sources.map((s) => destinations.map((d) => f(haversineMeters(points[s]!, points[d]!))));
      return send(200, { code: 'Ok', durations: cells((m) => m / 10), distances: cells((m) => m) });
    }
    const match = ROUTE_RE.exec(url.pathname);
    if (!match || state.mode === 'invalid_query') return send(400, { code: 'InvalidQuery', message: 'Query string malformed close to position 0' });
    const points = parsePoints(match[2] ?? '');
    const legs = points.slice(1).map((to, i) => {
      const distance = haversineMeters(points[i] ?? to, to);
      return { steps: [], summary: '', weight: distance / 10, duration: distance / 10, distance };
    });
    const duration = legs.reduce((sum, leg) => sum + leg.duration, 0);
    const distance = legs.reduce((sum, leg) => sum + leg.distance, 0);
    send(200, {
      code: 'Ok',
      routes: [{ legs, weight_name: 'routability', weight: duration, duration, distance }],
      waypoints: points.map((p) => ({ hint: '', distance: 0, name: '', location: [p.lng, p.lat] })),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: OsrmMode) {
      state.mode = mode;
    },
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
