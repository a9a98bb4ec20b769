// The failures benchmark's server process: one booking of 20 stops on an en_route tour whose 19 grouped drop-offs
// are all arrived, so the driver's read renders failure_options on 19 stops; the customer's read renders none.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { reportReady } from './_harness.ts';

export interface FailuresInfo {
  bookingUrl: string;
  driverToken: string;
  customerToken: string;
}

const DROPOFFS = 19;

const config = loadConfig();
const runtime = await createRuntime(config, { migrate: true });
const { admin_token: adminToken } = await createTenant(runtime.deps, { name: 'Bench' });
const app = await buildApp(runtime.deps);

/** One setup request as the admin (or another token); fails the benchmark on anything but `status`. */
async function call<T>(method: 'GET' | 'POST', url: string, body: unknown, status: number, token = adminToken): Promise<T> {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

async function userWithKey(role: 'driver' | 'customer', organizationIds: string[]): Promise<{ id: string; token: string }> {
  const { user } = await call<{ user: { id: string } }>('POST', '/api/users', { user: { role, name: `Bench ${role}`, email: `${role}@bench.example`, organization_ids: organizationIds } }, 201);
  const { api_key: key } = await call<{ api_key: { token: string } }>('POST', '/api/admin/api_keys', { api_key: { name: role, user_id: user.id } }, 201);
  return { id: user.id, token: key.token };
}

const { service_area: area } = await call<{ service_area: { id: string } }>('POST', '/api/admin/service_areas', { service_area: { name: 'Berlin', currency: 'EUR', time_zone: 'Europe/Berlin' } }, 201);
const { organization } = await call<{ organization: { id: string } }>('POST', '/api/organizations', { organization: { name: 'Couriers' } }, 201);
const driver = await userWithKey('driver', [organization.id]);
const customer = await userWithKey('customer', []);
const { service } = await call<{ service: { id: string } }>('POST', '/api/admin/hailing/services', { service: { name: 'Parcels', service_area_id: area.id } }, 201);
const place = async (name: string, lat: number) =>
  (await call<{ place: { id: string } }>('POST', '/api/places', { place: { name, location: { lat, lng: 13.4 }, address: { street: name, number: '1', city: 'Berlin' } } }, 201)).place.id;
const depot = await place('Depot', 52.5);
const mall = await place('Mall', 52.52);

// Drop-offs from one place share an automatic group: the driver can arrive at all of them at once.
const { booking } = await call<{ booking: { id: string; stops: { id: string }[] } }>(
  'POST',
  '/api/hailing/bookings',
  {
    booking: {
      service_id: service.id,
      customer_id: customer.id,
      stops: [{ type: 'pickup', place_id: depot }, ...Array.from({ length: DROPOFFS }, () => ({ type: 'dropoff', place_id: mall }))],
      packages: Array.from({ length: DROPOFFS }, (_, i) => ({ pickup_stop_index: 0, dropoff_stop_index: i + 1 })),
    },
  },
  201,
);
const { tour } = await call<{ tour: { id: string } }>('POST', '/api/hailing/bookings/merge', { booking_ids: [booking.id] }, 201);
await call('POST', `/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id, start: true }, 200);
const [pickup, ...dropoffs] = booking.stops;
if (!pickup) throw new Error('booking without stops');
for (const step of ['arrive', 'complete']) await call('POST', `/api/stops/${pickup.id}/${step}`, {}, 200, driver.token);
for (const stop of dropoffs) await call('POST', `/api/stops/${stop.id}/arrive`, {}, 200, driver.token);

// Check the premise once: the driver sees failure_options on every arrived drop-off, the customer on none.
type Read = { booking: { stops: { failure_options?: unknown }[] } };
const driverRead = await call<Read>('GET', `/api/hailing/bookings/${booking.id}`, undefined, 200, driver.token);
const customerRead = await call<Read>('GET', `/api/hailing/bookings/${booking.id}`, undefined, 200, customer.token);
const rendered = (read: Read) => read.booking.stops.filter((s) => s.failure_options).length;
if (rendered(driverRead) !== DROPOFFS || rendered(customerRead) !== 0) {
  throw new Error(`premise broken: driver sees ${rendered(driverRead)} failure_options, customer ${rendered(customerRead)}`);
}

const address = await app.listen({ port: 0, host: '127.0.0.1' });
reportReady({ bookingUrl: `${address}/api/hailing/bookings/${booking.id}`, driverToken: driver.token, customerToken: customer.token } satisfies FailuresInfo);
