// Test factories: create domain objects through the HTTP API, as an integrator would.
import { clientOf, type Client } from './app.ts';

export async function expectOk<T = any>(res: Promise<{ status: number; body: T; text: string }>, status = 200): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies
  const r = await res;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  return r.body;
}

export type { Client };

// ── Identity, places and services ────────────────────────────────────────────────────────────────────────────────
// Each factory takes the client that may create the thing (usually the tenant's admin) and optional overrides of the
// request body; it returns the created resource as the API rendered it. Unique names and e-mails come from a counter.

let sequence = 0;
const next = (): number => ++sequence;

/** A client for another token that talks to the same app (the explicit header wins over the original token). */
export function withToken(client: Client, token: string): Client {
  const auth = (options: { headers?: Record<string, string>; raw?: string | Buffer } = {}) => ({
    ...options,
    headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` },
  });
  return clientOf(token, (method, url, body, options) => client.request(method, url, body, auth(options)));
}

/** A service area: EUR in Europe/Berlin unless overridden. */
export async function createServiceArea(admin: Client, overrides: Record<string, unknown> = {}) {
  const n = next();
  const body = await expectOk(admin.post('/api/admin/service_areas', { service_area: { name: `Area ${n}`, currency: 'EUR', time_zone: 'Europe/Berlin', ...overrides } }), 201);
  return body.service_area;
}

/** An organization; `service_area_ids` defaults to none. */
export async function createOrganization(admin: Client, overrides: Record<string, unknown> = {}) {
  const n = next();
  const body = await expectOk(admin.post('/api/organizations', { organization: { name: `Organization ${n}`, ...overrides } }), 201);
  return body.organization;
}

export interface CreatedUser {
  id: string;
  /** An API key of the user (`tb_…`). */
  token: string;
  /** A client authenticated as the user. */
  client: Client;
  /** The user as GET /api/users/{id} renders it. */
  user: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON body
}

/**
 * A user of the given role with an API key. Managers and drivers without `organization_ids` get a fresh
 * organization of their own (drivers need exactly one, managers at least one).
 */
export async function createUser(
  admin: Client,
  options: { role: 'admin' | 'manager' | 'driver' | 'customer'; organization_ids?: string[]; name?: string; email?: string; phone_number?: string; password?: string },
): Promise<CreatedUser> {
  const n = next();
  const needsOrganization = options.role === 'manager' || options.role === 'driver';
  const organizationIds = options.organization_ids ?? (needsOrganization ? [(await createOrganization(admin)).id] : []);
  const body = await expectOk(
    admin.post('/api/users', {
      user: { name: `${options.role} ${n}`, email: `${options.role}-${n}-${Date.now()}@example.com`, ...options, organization_ids: organizationIds },
    }),
    201,
  );
  const key = await expectOk(admin.post('/api/admin/api_keys', { api_key: { name: `key of ${body.user.name}`, user_id: body.user.id } }), 201);
  return { id: body.user.id, token: key.api_key.token, client: withToken(admin, key.api_key.token), user: body.user };
}

/** A place in Berlin; pass `service_area_id`, `customer_id`, `is_hub`… as overrides. Customers create their own. */
export async function createPlace(client: Client, overrides: Record<string, unknown> = {}) {
  const n = next();
  const body = await expectOk(
    client.post('/api/places', {
      place: {
        name: `Place ${n}`,
        location: { lat: 52.52 + n / 10_000, lng: 13.405 },
        address: { street: 'Invalidenstraße', number: String(n), zip_code: '10115', city: 'Berlin', country: 'DE' },
        ...overrides,
      },
    }),
    201,
  );
  return body.place;
}

/** A scheduling config (instant, 900 s claim window unless overridden). */
export async function createSchedulingConfig(admin: Client, overrides: Record<string, unknown> = {}) {
  const n = next();
  const body = await expectOk(admin.post('/api/admin/hailing/scheduling_configs', { scheduling_config: { name: `Scheduling ${n}`, ...overrides } }), 201);
  return body.scheduling_config;
}

/**
 * A tour service with the contract's defaults (stop types pickup/dropoff/task/return, all failure outcomes…).
 * Without `service_area_id` a fresh service area is created for it.
 */
export async function createService(admin: Client, overrides: Record<string, unknown> = {}) {
  const n = next();
  const serviceAreaId = (overrides.service_area_id as string | undefined) ?? (await createServiceArea(admin)).id;
  const body = await expectOk(admin.post('/api/admin/hailing/services', { service: { name: `Service ${n}`, ...overrides, service_area_id: serviceAreaId } }), 201);
  return body.service;
}

// ── Bookings and tours ───────────────────────────────────────────────────────────────────────────────────────────

/**
 * A booking of `service_id`: by default a pickup at `places[0]` and a drop-off at `places[1]` with one package
 * between them; pass `stops`/`packages` (or any other booking field) to override.
 */
export async function createBooking(client: Client, options: { service_id: string; places?: string[] } & Record<string, unknown>) {
  const { places = [], ...overrides } = options;
  const stops = places.length
    ? places.map((placeId, i) => ({ type: i === 0 ? 'pickup' : 'dropoff', place_id: placeId }))
    : [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
      ];
  const body = await expectOk(
    client.post('/api/hailing/bookings', { booking: { stops, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }], ...overrides } }),
    201,
  );
  return body.booking;
}

/** A new tour made of the given bookings' waiting stops (POST /api/hailing/bookings/merge). */
export async function mergeIntoTour(client: Client, bookingIds: string[]) {
  const body = await expectOk(client.post('/api/hailing/bookings/merge', { booking_ids: bookingIds }), 201);
  return body.tour;
}

/** The events recorded for a resource, oldest first, as GET /api/admin/events returns them. */
export async function eventsOf(admin: Client, resourceId: string, type?: string) {
  const query = `filters[resource_id]=${resourceId}${type ? `&filters[type][]=${type}` : ''}&limit=100`;
  const body = await expectOk(admin.get(`/api/admin/events?${query}`));
  return [...body.events].reverse();
}

// ── Failures ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** Bookings merged into one tour that `driverId` is force-assigned to and has started (en_route). */
export async function tourEnRoute(dispatcher: Client, bookingIds: string[], driverId: string) {
  const tour = await mergeIntoTour(dispatcher, bookingIds);
  const body = await expectOk(dispatcher.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driverId, start: true }));
  return body.tour;
}

/** The driver walks a stop of its en_route tour up to `arrived`, or on to `completed`. */
export async function driveStop(driver: Client, stopId: string, until: 'approaching' | 'arrived' | 'completed' = 'arrived') {
  await expectOk(driver.post(`/api/stops/${stopId}/approach`, {}));
  if (until === 'approaching') return;
  await expectOk(driver.post(`/api/stops/${stopId}/arrive`, {}));
  if (until === 'completed') await expectOk(driver.post(`/api/stops/${stopId}/complete`, {}));
}

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * A webhook subscription of the tenant's admin to `url` (a test/webhook-receiver.ts receiver's url): every event
 * unless `events` is given. Returns it with its `secret`, for verifyWebhook().
 */
export async function createWebhook(admin: Client, url: string, overrides: Record<string, unknown> = {}) {
  const body = await expectOk(admin.post('/api/admin/webhooks', { webhook: { url, events: ['*'], ...overrides } }), 201);
  return body.webhook as { id: string; secret: string; url: string; events: string[] };
}
