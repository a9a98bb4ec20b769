// `tourbook demo`: loads a small, realistic data set into a running Tourbook over its HTTP API, so a newcomer sees
// bookings, a tour in progress and the people behind them at once. The day is in Monaco, the demo region (contract
// §14): its places and drop-offs are real addresses of the OpenStreetMap extract (© OpenStreetMap contributors, ODbL).

export interface DemoOptions {
  baseUrl: string;
  adminToken: string;
  log?: (line: string) => void;
}

export interface DemoResult {
  /** The people's sign-in for the console: e-mail by key (anna, ben, …), one password for all, shown once. */
  signIn: { emails: Record<string, string>; password: string };
  serviceAreaId: string;
  organizationIds: string[];
  tokens: Record<string, string>;
  bookingIds: string[];
  tourInProgressId: string;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API responses read as JSON

function client(baseUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

/** Addresses of the Monaco extract (regions/monaco.osm.pbf) with their OSM coordinates; the first is the depot. */
const MONACO = [
  { name: 'Fontvieille depot', street: 'Rue du Gabian', number: '7', lat: 43.7295, lng: 7.41488, hub: true, phone: '93 50 12 34' },
  { name: 'Stars n Bars', street: 'Quai Antoine 1er', number: '6', lat: 43.73292, lng: 7.42579, phone: '97 97 12 34' },
  { name: 'My Sushi', street: 'Rue des Orangers', number: '2', lat: 43.73351, lng: 7.42033, phone: '93 50 56 78' },
  { name: 'Planet Pasta', street: 'Rue Imberty', number: '6', lat: 43.73369, lng: 7.42031, phone: '97 97 56 78' },
  { name: 'Monaco Mutualité', street: 'Avenue des Papalins', number: '8', lat: 43.7291, lng: 7.41718, phone: '93 50 90 12' },
];

/** Recipients at real addresses of the extract, given as a shop's export gives them: no place, a national phone number. */
const RECIPIENTS = [
  { name: 'Léa Rossi', street: 'Avenue Albert II', number: '25', lat: 43.73036, lng: 7.41701, phone: '06 40 12 34 56', email: 'lea.rossi@example.mc' },
  { name: 'Marco Bellini', street: 'Avenue de Fontvieille', number: '24', lat: 43.72887, lng: 7.41479, phone: '06 40 65 43 21', email: 'marco.bellini@example.mc' },
];

const monacoAddress = (a: { street: string; number: string }) => ({ street: a.street, number: a.number, zip_code: '98000', city: 'Monaco', country: 'MC' });

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const log = options.log ?? (() => undefined);
  const admin = client(options.baseUrl, options.adminToken);

  // country_code MC: the contacts' national numbers ("93 50 12 34") are read as Monaco's (contract §14).
  const area = (await admin('POST', '/api/admin/service_areas', { service_area: { name: 'Monaco', currency: 'EUR', time_zone: 'Europe/Monaco', country_code: 'MC' } })).service_area;
  const orgs = [];
  for (const name of ['Spree Kurier GmbH', 'Havel Logistik']) {
    orgs.push((await admin('POST', '/api/organizations', { organization: { name, service_area_ids: [area.id] } })).organization);
  }
  const tokens: Record<string, string> = {};
  const people: Record<string, { id: string; token: string }> = {};
  // The demo's people sign in to the console with this password (random per demo: never a known default).
  const password = `demo-${crypto.randomUUID().slice(0, 13)}`;
  const emails: Record<string, string> = {};
  const person = async (key: string, role: string, name: string, organizationIds: string[]) => {
    const email = `${key}.${Date.now().toString(36)}@demo.tourbook.dev`;
    emails[key] = email;
    const user = (await admin('POST', '/api/users', { user: { role, name, email, password, organization_ids: organizationIds } })).user;
    const token = (await admin('POST', '/api/admin/api_keys', { api_key: { name: `demo ${key}`, user_id: user.id } })).api_key.token as string;
    people[key] = { id: user.id, token };
    tokens[`${role} ${name}`] = token;
  };
  await person('anna', 'manager', 'Anna Schulz', [orgs[0].id]);
  await person('ben', 'manager', 'Ben Okafor', [orgs[1].id]);
  await person('carla', 'driver', 'Carla Weber', [orgs[0].id]);
  await person('deniz', 'driver', 'Deniz Yilmaz', [orgs[0].id]);
  await person('emil', 'driver', 'Emil Nowak', [orgs[1].id]);
  await person('frida', 'customer', 'Frida Lange', []);

  const places = [];
  for (const p of MONACO) {
    const body = {
      name: p.name,
      is_hub: p.hub ?? false,
      location: { lat: p.lat, lng: p.lng },
      address: monacoAddress(p),
      contact: { name: p.name, phone_number: p.phone },
      service_area_id: area.id,
    };
    places.push((await admin('POST', '/api/places', { place: body })).place);
  }
  const config = (await admin('POST', '/api/admin/hailing/scheduling_configs', { scheduling_config: { name: 'Same day', mode: 'instant' } })).scheduling_config;
  const service = (await admin('POST', '/api/admin/hailing/services', {
      // Tips go to the tour whose driver completed the booking's drop-offs (docs/api-guide.md "Tip distribution").
      service: { name: 'Same-day parcels', service_area_id: area.id, scheduling_config_id: config.id, tip_distribution_strategy: 'completed_dropoffs_on_tour' },
    })).service;

  // The drivers' shifts today: from an hour ago for eight hours, starting and ending at the depot.
  const now = Date.now();
  const shift = { starts_at: new Date(now - 3600_000).toISOString(), ends_at: new Date(now + 8 * 3600_000).toISOString(), start_place_id: places[0].id, end_place_id: places[0].id };
  for (const key of ['carla', 'deniz', 'emil']) await admin('POST', `/api/drivers/${people[key]!.id}/shifts`, { shift });

  const anna = client(options.baseUrl, people.anna!.token);
  const bookingIds: string[] = [];
  for (const [i, dropoff] of [1, 2, 3, 4].entries()) {
    const booking = (
      await anna('POST', '/api/hailing/bookings', {
        booking: {
          service_id: service.id,
          external_id: `DEMO-${1001 + i}`,
          customer_id: i === 3 ? people.frida!.id : null,
          managing_organization_ids: i === 2 ? [orgs[0].id, orgs[1].id] : [orgs[0].id],
          stops: [
            { type: 'pickup', place_id: places[0].id },
            { type: 'dropoff', place_id: places[dropoff].id, notes: i === 0 ? 'Leave at the bar.' : null },
          ],
          packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, description: 'Parcel', weight_grams: 800 + 350 * i, external_label: `DHL-DEMO-${1001 + i}` }],
          tip: i === 1 ? { amount: 300, currency: 'EUR' } : null,
        },
      })
    ).booking;
    bookingIds.push(booking.id);
  }

  // Two orders of a shop's export: recipients at street addresses, not places.
  for (const [i, r] of RECIPIENTS.entries()) {
    const booking = (
      await anna('POST', '/api/hailing/bookings', {
        booking: {
          service_id: service.id,
          external_id: `#${1041 + i}`,
          managing_organization_ids: [orgs[0].id],
          stops: [
            { type: 'pickup', place_id: places[0].id },
            { type: 'dropoff', location: { lat: r.lat, lng: r.lng }, address: monacoAddress(r), contact: { name: r.name, phone_number: r.phone, email: r.email } },
          ],
          packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, description: 'Parcel', weight_grams: 600 }],
        },
      })
    ).booking;
    bookingIds.push(booking.id);
  }

  // A tour in progress: two bookings merged, released, picked by Carla, the hub pickup done.
  const tour = (await anna('POST', '/api/hailing/bookings/merge', { booking_ids: bookingIds.slice(0, 2) })).tour;
  await anna('POST', `/api/hailing/tours/${tour.id}/ready_to_pick`);
  const carla = client(options.baseUrl, people.carla!.token);
  await carla('POST', `/api/hailing/tours/${tour.id}/pick`);
  await carla('POST', `/api/stops/${tour.stops[0].id}/arrive`);
  await carla('POST', `/api/stops/${tour.stops[0].id}/complete`);
  await carla('POST', `/api/stops/${tour.stops[1].id}/approach`);
  // A second tour waiting for a driver.
  const waiting = (await anna('POST', '/api/hailing/bookings/merge', { booking_ids: [bookingIds[2]] })).tour;
  await anna('POST', `/api/hailing/tours/${waiting.id}/schedule`);
  // What the drivers earn: base earnings and a bonus; the booking tipped 3 € adds its tip once the tour completes.
  await anna('PUT', `/api/tours/${tour.id}/compensation/base`, { amount: 4200, currency: 'EUR', label: 'Day rate' });
  await anna('PUT', `/api/tours/${tour.id}/compensation/bonus/rush_hour`, { amount: 500, currency: 'EUR', label: 'Rush hour' });
  await anna('PUT', `/api/tours/${waiting.id}/compensation/base`, { amount: 2500, currency: 'EUR', label: 'Half day' });

  const url = options.baseUrl.replace(/\/$/, '');
  log(`Loaded the demo into ${options.baseUrl}: service area Monaco, ${orgs.length} organizations, ${places.length} places,`);
  log(`${bookingIds.length} bookings, tour ${tour.id} en route with Carla Weber, tour ${waiting.id} waiting for a claim.`);
  log(`Compensations: GET /api/tours/${tour.id}/compensation (42 € + 5 € bonus, tips on completion), /api/tours/${waiting.id}/compensation.`);
  log('API keys (shown once):');
  for (const [who, token] of Object.entries(tokens)) log(`  ${who.padEnd(24)} ${token}`);
  const as = (token: string) => `-H "Authorization: Bearer ${token}"`;
  log('');
  log(`The console: ${url}/console — sign in as Anna (manager) with ${emails.anna} and the password ${password}`);
  log(`(every demo person has this password: ${Object.values(emails).join(', ')})`);
  log('');
  log('Try next (copy and paste):');
  log(`  # Anna (manager) lists her organization's bookings`);
  log(`  curl -s ${as(people.anna!.token)} ${url}/api/hailing/bookings`);
  log(`  # Carla (driver) reads her tour in progress`);
  log(`  curl -s ${as(people.carla!.token)} ${url}/api/hailing/tours/${tour.id}`);
  log(`  # Carla arrives at the stop she is approaching`);
  log(`  curl -s -X POST ${as(people.carla!.token)} ${url}/api/stops/${tour.stops[1].id}/arrive`);
  return { signIn: { emails, password }, serviceAreaId: area.id, organizationIds: orgs.map((o) => o.id), tokens, bookingIds, tourInProgressId: tour.id };
}
