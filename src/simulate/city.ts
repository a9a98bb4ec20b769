// `tourbook simulate`: a city of drivers and customers driving Tourbook through its public HTTP API only, as real
// clients would. Every choice comes from one seed; time runs in 5-second ticks, `speedup` times faster than real.
// Drivers follow their tour's route from the API (contract §15): along the roads where a region covers the city
// (Monaco, the demo region), straight lines elsewhere (Berlin, unless its region is imported); decision 1779.
import berlin from './berlin-locations.json' with { type: 'json' };
import monaco from './monaco-locations.json' with { type: 'json' };
import { haversineMeters, type LatLng } from '../modules/live/geo.ts';
import { rng, type Rng } from './rng.ts';
import { createStats, endpointOf, type Stats } from './stats.ts';

/** The simulated cities: Berlin's coordinates from the PDPTW instances, Monaco's addresses from the demo region. */
export const CITIES = ['berlin', 'monaco'] as const;
export type City = (typeof CITIES)[number];

export interface SimulationOptions {
  url: string;
  token: string;
  /** Default berlin. */
  city?: City;
  drivers: number;
  bookingsPerMinute: number;
  /** Real seconds to run. */
  durationSeconds: number;
  speedup: number;
  seed: number;
  /** Real seconds at the run's start whose requests are reported apart as "(warm-up)" (0: none). */
  warmupSeconds?: number;
  log?: (line: string) => void;
  /** Called once when the warm-up ends, with the requests made so far (benchmarks sample CPU there). */
  onMeasuredStart?: (requestsSoFar: number) => Promise<void> | void;
  /** Progress line interval in real milliseconds (10 s). */
  progressMs?: number;
}

export interface SimulationSummary {
  bookings: number;
  stopsDone: number;
  failures: number;
  positions: number;
  /** Metres driven to the stops reached, and the straight lines to them from where each leg began (the ratio: how road-like). */
  metersDriven: number;
  metersStraight: number;
  requests: number;
  errors: string[];
  endpoints: { endpoint: string; count: number; p50: number; p99: number }[];
  seconds: number;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API responses read as JSON

const TICK_SECONDS = 5;
const DRIVER_SPEED_MPS = 30 / 3.6;
const FAIL_PROBABILITY = 0.08;
const BOOKINGS_PER_TOUR = 2;
const OPEN = ['scheduled', 'approaching', 'arrived', 'to_be_dispatched'];

/** Berlin coordinates from the Sartori & Buriol PDPTW instances, shipped with the project. */
export function berlinLocations(): LatLng[] {
  // Imported, not read from disk: the build bundles it into dist/, where no berlin-locations.json sits next to the code.
  return berlin.locations.map(([lat, lng]) => ({ lat: lat ?? NaN, lng: lng ?? NaN }));
}

interface CityPlace {
  location: LatLng;
  address: { street: string; number?: string; zip_code?: string; city: string; country: string };
}

interface CityPlan {
  name: string;
  timeZone: string;
  organizations: [string, string];
  places: CityPlace[];
}

/** Monaco's house addresses, then a point on each named street, from the demo region (scripts/monaco-locations.mjs). */
export function monacoPlaces(): CityPlace[] {
  return monaco.locations.map(({ lat, lng, street, number, zip_code }) => ({
    location: { lat, lng },
    address: { street, ...(number ? { number } : {}), ...(zip_code ? { zip_code } : {}), city: 'Monaco', country: 'MC' },
  }));
}

function cityPlan(city: City): CityPlan {
  if (city === 'monaco') return { name: 'Monaco', timeZone: 'Europe/Monaco', organizations: ['Rocher Coursiers', 'Condamine Livraisons'], places: monacoPlaces() };
  // The city centre's nearest locations first: a compact city keeps legs short for small runs.
  const centre = { lat: 52.52, lng: 13.405 };
  const places = berlinLocations()
    .sort((a, b) => haversineMeters(centre, a) - haversineMeters(centre, b))
    .map((location, i) => ({ location, address: { street: 'Simulationsweg', number: String(i + 1), city: 'Berlin', country: 'DE' } }));
  return { name: 'Berlin', timeZone: 'Europe/Berlin', organizations: ['Spree Kurier', 'Havel Logistik'], places };
}

/**
 * The part of a tour's route (GeoJSON [lng, lat] from GET …/route) up to the next stop, ending at the stop itself. The
 * route runs through every remaining stop; its first leg ends where it comes closest to the next stop — the first
 * vertex within a metre of that closest distance (the stop snapped to its road).
 */
export function legToStop(coordinates: readonly (readonly number[])[], stop: LatLng): LatLng[] {
  const points = coordinates.map(([lng, lat]) => ({ lat: lat ?? NaN, lng: lng ?? NaN }));
  const distances = points.map((p) => haversineMeters(p, stop));
  const closest = Math.min(...distances);
  const end = distances.findIndex((d) => d <= closest + 1);
  return [...points.slice(0, end + 1), stop];
}

class ProtocolError extends Error {}

function api(baseUrl: string, stats: Stats) {
  return async (token: string, method: string, path: string, body?: unknown, expected: number[] = [200, 201]): Promise<Json> => {
    const started = performance.now();
    let status = 0;
    let text = '';
    try {
      const res = await fetch(new URL(path, baseUrl), {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      status = res.status;
      text = await res.text();
    } catch (err) {
      stats.error(`${method} ${path}: ${(err as Error).message}`);
      throw new ProtocolError(`${method} ${path} failed`);
    } finally {
      stats.record(endpointOf(method, path), performance.now() - started);
    }
    if (!expected.includes(status)) {
      stats.error(`${method} ${endpointOf(method, path)} answered ${status}: ${text.slice(0, 300)}`);
      throw new ProtocolError(`${method} ${path} answered ${status}`);
    }
    try {
      return text ? (JSON.parse(text) as Json) : {};
    } catch {
      stats.error(`${method} ${path}: the answer is not JSON`);
      throw new ProtocolError('not JSON');
    }
  };
}

interface Driver {
  index: number;
  id: string;
  token: string;
  at: LatLng;
  rng: Rng;
  tour: { id: string; stops: Json[] } | null;
  /** Whether it has driven yet: a shift starts at the first pickup. */
  moved: boolean;
  /** The road ahead to the stop `stopId`, read from the tour's route when the driver set off `from` there for it. */
  leg: { stopId: string; ahead: LatLng[]; from: LatLng; driven: number } | null;
  /** The tour it has reported a position on: a tour's route starts at its driver's last position. */
  reportedOn: string | null;
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationSummary> {
  const log = options.log ?? (() => undefined);
  const stats = createStats();
  const call = api(options.url, stats);
  const admin = (method: string, path: string, body?: unknown) => call(options.token, method, path, body);
  const world = rng(options.seed);
  const city = cityPlan(options.city ?? 'berlin');
  const places = city.places;
  const startedAt = Date.now();
  const counters = { bookings: 0, stopsDone: 0, failures: 0, positions: 0, metersDriven: 0, metersStraight: 0 };

  // The city: a service area, two organizations, drivers, a tour service, places from real coordinates.
  const tag = `sim-${options.seed}-${startedAt.toString(36)}`;
  const area = (await admin('POST', '/api/admin/service_areas', { service_area: { name: `Simulation ${city.name} ${tag}`, currency: 'EUR', time_zone: city.timeZone, average_speed_kmh: 30 } })).service_area;
  const orgs: Json[] = [];
  for (const name of city.organizations) orgs.push((await admin('POST', '/api/organizations', { organization: { name: `${name} ${tag}`, service_area_ids: [area.id] } })).organization);
  const service = (await admin('POST', '/api/admin/hailing/services', { service: { name: `Simulation ${tag}`, service_area_id: area.id } })).service;
  const placeCount = Math.min(places.length, 12 + options.drivers * 4);
  // Created concurrently in chunks, kept in the order asked (Promise.all keeps it).
  const placeIds: string[] = [];
  for (let from = 0; from < placeCount; from += 20) {
    const chunk = Array.from({ length: Math.min(20, placeCount - from) }, (_, k) => from + k);
    const created = await Promise.all(
      chunk.map((i) => {
        const place = places[i] as CityPlace;
        // An earlier run in this tenant made the place of this address already: 409 place_exists names it.
        return call(options.token, 'POST', '/api/places', { place: { name: `Place ${i} ${tag}`, ...place, service_area_id: area.id } }, [201, 409]);
      }),
    );
    placeIds.push(...created.map((body) => (body.place?.id ?? body.place_id) as string));
  }
  const drivers: Driver[] = [];
  for (let from = 0; from < options.drivers; from += 20) {
    const chunk = Array.from({ length: Math.min(20, options.drivers - from) }, (_, k) => from + k);
    const created = await Promise.all(
      chunk.map(async (i) => {
        const org = orgs[i % orgs.length] as Json;
        const user = (await admin('POST', '/api/users', { user: { role: 'driver', name: `Driver ${i + 1}`, email: `driver-${i + 1}-${tag}@sim.tourbook.dev`, organization_ids: [org.id] } })).user;
        const token = (await admin('POST', '/api/admin/api_keys', { api_key: { name: `sim driver ${i + 1}`, user_id: user.id } })).api_key.token as string;
        const at = (places[(i * 13 + options.seed) % places.length] as CityPlace).location;
        return { index: i, id: user.id as string, token, at, rng: rng(options.seed * 7919 + i + 1), tour: null, moved: false, leg: null, reportedOn: null };
      }),
    );
    drivers.push(...created);
  }
  const warmupMs = (options.warmupSeconds ?? 0) * 1000;
  const runStartedAt = Date.now();
  let warming = warmupMs > 0;
  stats.startRun(warming ? '(warm-up) ' : '');
  if (!warming) await options.onMeasuredStart?.(stats.requests);
  log(`simulate: ${city.name}, ${drivers.length} drivers, ${placeIds.length} places, service area ${area.id}; ${options.bookingsPerMinute} bookings/min, speedup ${options.speedup}, seed ${options.seed}`);

  const tickMs = (TICK_SECONDS * 1000) / options.speedup;
  // Each driver's moment of the tick (decision 0907) is a seeded shuffle of the fleet, not its index: tours go to idle
  // drivers in driver order, and neighbours in that order acting at neighbouring moments made a burst of every new
  // tour's first stop steps (decision 0963).
  const phases = rng(options.seed * 104_729 + 17).permutation(drivers.length);
  const ticks = Math.max(1, Math.floor((options.durationSeconds * 1000) / tickMs));
  // Simulated time ends at the real end: fixes are never ahead of the server's clock, however large the speedup.
  const simStart = startedAt - options.durationSeconds * 1000 * (options.speedup - 1);
  const simNow = (tick: number) => new Date(simStart + tick * TICK_SECONDS * 1000);
  const waiting: string[] = [];
  let owed = 0;
  let progressAt = Date.now();
  let lastRequests = 0;

  const progress = () => {
    const seconds = (Date.now() - progressAt) / 1000;
    const rate = (stats.requests - lastRequests) / Math.max(seconds, 0.001);
    progressAt = Date.now();
    lastRequests = stats.requests;
    const worst = stats.percentiles().filter((e) => !e.endpoint.startsWith('(')).sort((a, b) => b.p99 - a.p99)[0];
    log(
      `simulate: ${Math.round((Date.now() - startedAt) / 1000)} s — bookings ${counters.bookings}, stops done ${counters.stopsDone}, failures ${counters.failures}, ` +
        `${rate.toFixed(0)} req/s, slowest p99 ${worst ? `${worst.endpoint} ${worst.p99.toFixed(0)} ms (p50 ${worst.p50.toFixed(0)})` : '-'}, errors ${stats.errors.length}`,
    );
  };

  /**
   * This tick's bookings, each at its own moment of the tick (customers book one by one, not all at the tick's
   * start). They wait for dispatch from the next tick on, in the order asked, so timing never changes the pairing.
   */
  async function createBookings(tickStartedAt: number): Promise<void> {
    owed += (options.bookingsPerMinute * TICK_SECONDS) / 60;
    const count = Math.floor(owed);
    owed -= count;
    const batch: Promise<string>[] = [];
    for (let k = 0; k < count; k++) {
      const pickup = world.pick(placeIds);
      let dropoff = world.pick(placeIds);
      if (dropoff === pickup) dropoff = placeIds[(placeIds.indexOf(pickup) + 1) % placeIds.length] as string;
      const at = tickStartedAt + ((k + 0.5) / count) * tickMs;
      batch.push(
        new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())))
          .then(() =>
            admin('POST', '/api/hailing/bookings', {
              booking: { service_id: service.id, stops: [{ type: 'pickup', place_id: pickup }, { type: 'dropoff', place_id: dropoff }], packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] },
            }),
          )
          .then((body) => body.booking.id as string),
      );
    }
    for (const result of await Promise.allSettled(batch)) {
      if (result.status !== 'fulfilled') continue;
      counters.bookings += 1;
      waiting.push(result.value);
    }
  }

  /**
   * Which idle drivers get which waiting bookings this tick: decided at the tick's start, in driver order, so the
   * pairing does not depend on timing; each driver takes its tour at its own moment of the tick (takeTour).
   */
  function assignTours(): Map<Driver, string[]> {
    const assigned = new Map<Driver, string[]>();
    for (const driver of drivers) {
      if (driver.tour || !waiting.length) continue;
      assigned.set(driver, waiting.splice(0, BOOKINGS_PER_TOUR));
    }
    return assigned;
  }

  /** A driver's new tour: half are scheduled and claimed then started, half made pickable and picked. */
  async function takeTour(driver: Driver, bookings: string[]): Promise<void> {
    const tour = (await admin('POST', '/api/hailing/bookings/merge', { booking_ids: bookings })).tour;
    if (driver.rng.chance(0.5)) {
      await admin('POST', `/api/hailing/tours/${tour.id}/schedule`, {});
      await call(driver.token, 'POST', `/api/hailing/tours/${tour.id}/claim`, {});
      driver.tour = (await call(driver.token, 'POST', `/api/hailing/tours/${tour.id}/start`, {})).tour;
    } else {
      await admin('POST', `/api/hailing/tours/${tour.id}/ready_to_pick`, {});
      driver.tour = (await call(driver.token, 'POST', `/api/hailing/tours/${tour.id}/pick`, {})).tour;
    }
  }

  /** Moves the driver `meters` along its leg's road ahead; whether it reached the stop at its end. */
  function advance(driver: Driver, leg: NonNullable<Driver['leg']>, meters: number): boolean {
    let left = meters;
    while (leg.ahead.length) {
      const next = leg.ahead[0] as LatLng;
      const d = haversineMeters(driver.at, next);
      if (d > left) {
        const f = left / d;
        driver.at = { lat: driver.at.lat + (next.lat - driver.at.lat) * f, lng: driver.at.lng + (next.lng - driver.at.lng) * f };
        leg.driven += left;
        return false;
      }
      driver.at = next;
      leg.driven += d;
      left -= d;
      leg.ahead.shift();
    }
    return true;
  }

  /**
   * One tick of a driver, `offsetMs` of simulated time into it: drive along the route toward the next open stop,
   * report the position, serve the stop when there.
   */
  async function drive(driver: Driver, tick: number, offsetMs: number): Promise<void> {
    const tour = driver.tour;
    if (!tour) return;
    const next = tour.stops.find((s) => OPEN.includes(s.status));
    if (!next) {
      driver.tour = null;
      return;
    }
    const target = { lat: next.location.lat, lng: next.location.lng };
    if (!driver.moved) driver.at = target;
    driver.moved = true;
    const report = (atMs: number) =>
      call(driver.token, 'POST', `/api/hailing/tours/${tour.id}/driver_location`, {
        location: { lat: Number(driver.at.lat.toFixed(6)), lng: Number(driver.at.lng.toFixed(6)), speed: DRIVER_SPEED_MPS, recorded_at: new Date(atMs).toISOString() },
      }).then(() => void (counters.positions += 1));
    const at = simNow(tick).getTime() + offsetMs;
    let leg = driver.leg;
    if (!leg || leg.stopId !== next.id) {
      // The route runs from the driver's last position on the tour, so a new tour's first one is reported before it
      // is read, as a phone reports where it is when its driver sets off (a second earlier than this tick's).
      if (driver.reportedOn !== tour.id) await report(at - 1000);
      driver.reportedOn = tour.id;
      const route = (await call(driver.token, 'GET', `/api/hailing/tours/${tour.id}/route`)).route;
      leg = { stopId: next.id, ahead: legToStop(route.geometry.coordinates as number[][], target), from: driver.at, driven: 0 };
      driver.leg = leg;
    }
    const there = advance(driver, leg, DRIVER_SPEED_MPS * TICK_SECONDS);
    await report(at);
    if (!there) return;
    counters.metersDriven += leg.driven;
    counters.metersStraight += haversineMeters(leg.from, target);
    driver.leg = null;
    await call(driver.token, 'POST', `/api/stops/${next.id}/approach`, {});
    const arrived = (await call(driver.token, 'POST', `/api/stops/${next.id}/arrive`, {})).stop;
    const allowed = Object.entries((arrived.failure_options?.outcomes ?? {}) as Record<string, { allowed: boolean }>)
      .filter(([, o]) => o.allowed)
      .map(([outcome]) => outcome)
      .sort();
    if (allowed.length && driver.rng.chance(FAIL_PROBABILITY)) {
      await call(driver.token, 'POST', `/api/stops/${next.id}/fail`, { outcome: driver.rng.pick(allowed) });
      counters.failures += 1;
    } else {
      await call(driver.token, 'POST', `/api/stops/${next.id}/complete`, {});
      counters.stopsDone += 1;
    }
    const fresh = (await call(driver.token, 'GET', `/api/hailing/tours/${tour.id}`)).tour;
    driver.tour = fresh.status === 'en_route' ? fresh : null;
  }

  const until = async (at: number) => {
    if (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, at - Date.now()));
  };
  for (let tick = 0; tick < ticks; tick++) {
    const due = startedAt + tick * tickMs;
    await until(due);
    if (warming && Date.now() - runStartedAt >= warmupMs) {
      warming = false;
      stats.startRun('');
      await options.onMeasuredStart?.(stats.requests);
    }
    const assigned = assignTours();
    const booked = createBookings(due);
    // Each driver acts at its own moment of the tick, as phones do, not all at its start: a burst of every driver at
    // once measured the server's queue for that burst rather than its answers (decision 0907). The tick's tours are
    // taken spread over it too, the k-th of n at (k + ½)/n, as a dispatcher takes bookings as they come (decision 0963).
    const takeAt = new Map([...assigned.keys()].map((d, k, all) => [d, due + ((k + 0.5) / all.length) * tickMs]));
    await Promise.allSettled(
      drivers.map(async (d) => {
        const offset = ((phases[d.index] as number) / drivers.length) * tickMs;
        const bookings = assigned.get(d);
        if (bookings) {
          await until(takeAt.get(d) as number);
          await takeTour(d, bookings);
        }
        await until(due + offset);
        await drive(d, tick, offset * options.speedup);
      }),
    );
    await booked;
    if (Date.now() - progressAt >= (options.progressMs ?? 10_000)) progress();
  }
  progress();
  return { ...counters, requests: stats.requests, errors: stats.errors, endpoints: stats.percentiles(), seconds: (Date.now() - startedAt) / 1000 };
}
