// Contract §14 on the booking create: external ids unique among open bookings per tenant and customer, contacts
// checked and phone numbers stored in E.164, hostile input answered without a 5xx or a half-write.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createOrganization, createPlace, createService, createServiceArea, createUser, expectOk, type Client } from '../../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

interface World {
  tenant: TestTenant;
  serviceId: string;
  areaId: string;
  places: string[];
}

async function world(area: Record<string, unknown> = {}): Promise<World> {
  const tenant = await t.createTenant();
  const areaId = (await createServiceArea(tenant.admin, area)).id;
  const serviceId = (await createService(tenant.admin, { service_area_id: areaId })).id;
  const places = [(await createPlace(tenant.admin)).id, (await createPlace(tenant.admin)).id];
  return { tenant, serviceId, areaId, places };
}

const booking = (w: World, overrides: Record<string, unknown> = {}) => ({
  service_id: w.serviceId,
  stops: [
    { type: 'pickup', place_id: w.places[0] },
    { type: 'dropoff', place_id: w.places[1] },
  ],
  ...overrides,
});

const dropoff = (contact: Record<string, unknown>) => ({
  type: 'dropoff',
  location: { lat: 43.7384, lng: 7.4246 },
  address: { street: 'Boulevard des Moulins', number: '12', zip_code: '98000', city: 'Monaco', country: 'MC' },
  contact,
});

async function count(admin: Client, query = ''): Promise<number> {
  return (await expectOk(admin.get(`/api/hailing/bookings?limit=100&view=compact${query}`))).bookings.length;
}

/** The tenant's outbox rows: a refused create writes none. */
async function eventCount(tenant: TestTenant): Promise<number> {
  const result = await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM events WHERE tenant_id = ${tenant.tenantId}`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
}

describe('external ids (contract §14)', () => {
  it('refuses a second open booking with the same external id: 409 external_id_exists naming it, at its pointer', async () => {
    const w = await world();
    const first = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) }), 201);
    const second = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) });
    expect(second.status).toBe(409);
    expect(second.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(second.body).toMatchObject({
      error_code: 'external_id_exists',
      booking_id: first.booking.id,
      errors: [{ pointer: '/booking/external_id', code: 'external_id_exists' }],
    });
    expect(second.body.detail).toContain('#1001');
    const german = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) }, { headers: { 'accept-language': 'de' } });
    expect(german.body.detail).toContain('externen ID');
    expect(await count(w.tenant.admin, '&filters[external_id]=%231001')).toBe(1);
  });

  it('frees the id when its booking is cancelled, and keeps other tenants and customers apart', async () => {
    const w = await world();
    const first = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'A-1' }) }), 201);
    await expectOk(w.tenant.admin.post(`/api/hailing/bookings/${first.booking.id}/cancel`, {}));
    const again = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'A-1' }) }), 201);
    expect(again.booking.id).not.toBe(first.booking.id);
    // Both are found by the filter: the cancelled one and the open one.
    const listed = await expectOk(w.tenant.admin.get('/api/hailing/bookings?filters[external_id]=A-1'));
    expect(listed.bookings.map((b: { id: string }) => b.id).sort()).toEqual([first.booking.id, again.booking.id].sort());

    // Two shops (customers) both numbering from #1001, and the tenant's own booking without a customer: no collision.
    const shopA = await createUser(w.tenant.admin, { role: 'customer' });
    const shopB = await createUser(w.tenant.admin, { role: 'customer' });
    const a = await expectOk(shopA.client.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) }), 201);
    await expectOk(shopB.client.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) }), 201);
    await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001' }) }), 201);
    // The admin booking for shop A meets shop A's own.
    const forA = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '#1001', customer_id: shopA.id }) });
    expect(forA.status).toBe(409);
    expect(forA.body.booking_id).toBe(a.booking.id);

    const other = await world();
    await expectOk(other.tenant.admin.post('/api/hailing/bookings', { booking: booking(other, { external_id: 'A-1' }) }), 201);
  });

  it('names the holder only to a caller who may see it', async () => {
    const w = await world();
    const north = await createOrganization(w.tenant.admin);
    const south = await createOrganization(w.tenant.admin);
    const northManager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [north.id] });
    const southManager = await createUser(w.tenant.admin, { role: 'manager', organization_ids: [south.id] });
    const held = await expectOk(northManager.client.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'ORDER-7' }) }), 201);
    const unseen = await southManager.client.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'ORDER-7' }) });
    expect(unseen.status).toBe(409);
    expect(unseen.body.error_code).toBe('external_id_exists');
    expect(unseen.body).not.toHaveProperty('booking_id');
    const seen = await northManager.client.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'ORDER-7' }) });
    expect(seen.body.booking_id).toBe(held.booking.id);
  });

  it('reports an id taken per bulk item, in a dry run as in a create, and within one call', async () => {
    const w = await world();
    const held = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'CSV-1' }) }), 201);
    const items = [
      { idempotency_key: 'k1', booking: booking(w, { external_id: 'CSV-1' }) },
      { idempotency_key: 'k2', booking: booking(w, { external_id: 'CSV-2' }) },
      { idempotency_key: 'k3', booking: booking(w, { external_id: 'CSV-2' }) },
    ];
    const dry = await expectOk(w.tenant.admin.post('/api/hailing/bookings/bulk', { dry_run: true, bookings: items }));
    expect(dry.results.map((r: { status: number }) => r.status)).toEqual([409, 201, 201]);
    expect(dry.results[0].error).toMatchObject({ error_code: 'external_id_exists', booking_id: held.booking.id, errors: [{ full_pointer: '/bookings/0/booking/external_id' }] });
    const created = await expectOk(w.tenant.admin.post('/api/hailing/bookings/bulk', { bookings: items }));
    expect(created.results.map((r: { status: number }) => r.status)).toEqual([409, 201, 409]);
    expect(created.results[2].error.booking_id).toBe(created.results[1].booking.id);
    expect(await count(w.tenant.admin)).toBe(2);
  });

  it('refuses the id on an auto-dispatch service too, leaving no tour behind', async () => {
    const w = await world();
    const auto = (await createService(w.tenant.admin, { service_area_id: w.areaId, dispatch_mode: 'auto' })).id;
    await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { service_id: auto, external_id: 'AUTO-1' }) }), 201);
    const tours = (await expectOk(w.tenant.admin.get('/api/hailing/tours?limit=100&view=compact'))).tours.length;
    const second = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { service_id: auto, external_id: 'AUTO-1' }) });
    expect(second.status).toBe(409);
    expect((await expectOk(w.tenant.admin.get('/api/hailing/tours?limit=100&view=compact'))).tours.length).toBe(tours);
  });
});

describe('contacts (contract §14)', () => {
  it('stores phone numbers in E.164, read in the service area’s country when they have no "+"', async () => {
    const w = await world({ country_code: 'MC', time_zone: 'Europe/Monaco' });
    const area = await expectOk(w.tenant.admin.get(`/api/admin/service_areas/${w.areaId}`));
    expect(area.service_area.country_code).toBe('MC');
    const created = await expectOk(
      w.tenant.admin.post('/api/hailing/bookings', {
        booking: booking(w, {
          stops: [
            { type: 'pickup', place_id: w.places[0] },
            dropoff({ name: 'Léa', phone_number: '93 15 80 00', email: ' lea@example.mc ' }),
            dropoff({ name: 'Max', phone_number: '+49 30 1234567' }),
            dropoff({ name: 'Ugo', phone_number: '0039 06 698 1' }),
          ],
        }),
      }),
      201,
    );
    const contacts = created.booking.stops.map((s: { contact: unknown }) => s.contact);
    expect(contacts[1]).toEqual({ name: 'Léa', phone_number: '+37793158000', email: 'lea@example.mc', locale: null });
    expect(contacts[2].phone_number).toBe('+49301234567');
    expect(contacts[3].phone_number).toBe('+39066981');
    const read = await expectOk(w.tenant.admin.get(`/api/hailing/bookings/${created.booking.id}`));
    expect(read.booking.stops[1].contact.phone_number).toBe('+37793158000');
  });

  it('refuses a bad e-mail or phone number at its pointer, every one at once, writing nothing', async () => {
    const w = await world({ country_code: 'MC' });
    const events = await eventCount(w.tenant);
    const res = await w.tenant.admin.post('/api/hailing/bookings', {
      booking: booking(w, {
        external_id: 'BAD-1',
        stops: [{ type: 'pickup', place_id: w.places[0] }, dropoff({ email: 'bob@' }), dropoff({ phone_number: 'call me' }), dropoff({ email: 'a b@example.com', phone_number: '12' })],
      }),
    });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: '/booking/stops/1/contact/email', code: 'invalid_email' }),
        expect.objectContaining({ pointer: '/booking/stops/2/contact/phone_number', code: 'invalid_phone_number' }),
        expect.objectContaining({ pointer: '/booking/stops/3/contact/email', code: 'invalid_email' }),
        expect.objectContaining({ pointer: '/booking/stops/3/contact/phone_number', code: 'invalid_phone_number' }),
      ]),
    );
    expect(res.body.errors).toHaveLength(4);
    expect(await count(w.tenant.admin)).toBe(0);
    expect(await eventCount(w.tenant)).toBe(events);
    // The external id was not taken by the refused create.
    await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: 'BAD-1' }) }), 201);
  });

  it('refuses a national number when the service area has no country, and says so (in German too)', async () => {
    const w = await world();
    const res = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { stops: [{ type: 'pickup', place_id: w.places[0] }, dropoff({ phone_number: '030 1234567' })] }) }, { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/booking/stops/1/contact/phone_number', code: 'invalid_phone_number', detail: expect.stringContaining('Ländervorwahl') })]);
    // After the area gets its country, the same number is read in it.
    await expectOk(w.tenant.admin.patch(`/api/admin/service_areas/${w.areaId}`, { service_area: { country_code: 'DE' } }));
    const ok = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { stops: [{ type: 'pickup', place_id: w.places[0] }, dropoff({ phone_number: '030 1234567' })] }) }), 201);
    expect(ok.booking.stops[1].contact.phone_number).toBe('+49301234567');
  });

  it('checks a stop added to a booking the same way', async () => {
    const w = await world({ country_code: 'MC' });
    const created = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w) }), 201);
    const bad = await w.tenant.admin.post(`/api/hailing/bookings/${created.booking.id}/stops`, { stop: dropoff({ email: 'nobody' }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: '/stop/contact/email', code: 'invalid_email' })]);
    const good = await expectOk(w.tenant.admin.post(`/api/hailing/bookings/${created.booking.id}/stops`, { stop: dropoff({ phone_number: '93 15 80 00' }) }), 201);
    expect(good.stop.contact.phone_number).toBe('+37793158000');
  });

  it('checks places’ contacts with their service area’s country', async () => {
    const w = await world({ country_code: 'MC' });
    const place = await createPlace(w.tenant.admin, { service_area_id: w.areaId, contact: { name: 'Desk', phone_number: '93 15 80 00', email: 'desk@example.mc' } });
    expect(place.contact).toMatchObject({ phone_number: '+37793158000', email: 'desk@example.mc' });
    const bad = await w.tenant.admin.post('/api/places', {
      place: { name: 'Bad', location: { lat: 43.73, lng: 7.42 }, address: { street: 'Rue Grimaldi', city: 'Monaco' }, contact: { email: 'x@', phone_number: '+1 2' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/place/contact/email', '/place/contact/phone_number']);
    const patched = await w.tenant.admin.patch(`/api/places/${place.id}`, { place: { contact: { phone_number: 'nope' } } });
    expect(patched.status).toBe(422);
    expect(patched.body.errors).toEqual([expect.objectContaining({ pointer: '/place/contact/phone_number' })]);
    const unchanged = await expectOk(w.tenant.admin.get(`/api/places/${place.id}`));
    expect(unchanged.place.contact.phone_number).toBe('+37793158000');
  });

  it('refuses a country_code that is no ISO 3166-1 alpha-2 country on a service area', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'X', currency: 'EUR', time_zone: 'Europe/Monaco', country_code: 'XX' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/service_area/country_code', code: 'invalid_value' })]);
    const lower = await tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'X', currency: 'EUR', time_zone: 'Europe/Monaco', country_code: 'mc' } });
    expect(lower.status).toBe(422);
    expect(lower.body.errors[0].pointer).toBe('/service_area/country_code');
  });

  it('leaves a contact stored before the rule readable as it was', async () => {
    const w = await world();
    const created = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { stops: [{ type: 'pickup', place_id: w.places[0] }, dropoff({ name: 'Old' })] }) }), 201);
    const stopId = created.booking.stops[1].id;
    // What an older version stored, written as it would have been.
    const old = JSON.stringify({ name: 'Old', phone_number: 'ring the bell', email: 'bob@', locale: null });
    await t.deps.db.execute(sql`UPDATE stops SET contact = ${old}::jsonb WHERE tenant_id = ${w.tenant.tenantId} AND id = ${stopId}`);
    const read = await expectOk(w.tenant.admin.get(`/api/hailing/bookings/${created.booking.id}`));
    expect(read.booking.stops[1].contact).toEqual({ name: 'Old', phone_number: 'ring the bell', email: 'bob@', locale: null });
  });
});

describe('hostile input', () => {
  it('stores addresses and names in every script as given, and answers one 5 MB field with the body limit', async () => {
    const w = await world({ country_code: 'MC' });
    const scripts = [
      { street: 'شارع الملك فيصل', city: 'الرياض', name: 'سارة' },
      { street: '銀座四丁目', city: '東京都中央区', name: '山田太郎' },
      { street: 'Тверская улица', city: 'Москва', name: 'Ольга' },
      { street: 'רחוב הרצל', city: 'תל אביב', name: 'דנה' },
      { street: 'महात्मा गांधी मार्ग', city: 'नई दिल्ली', name: 'प्रिया' },
      { street: 'Οδός Ερμού', city: 'Αθήνα', name: 'Ελένη' },
      { street: '강남대로', city: '서울', name: '김민준' },
      { street: 'ถนนสุขุมวิท', city: 'กรุงเทพ', name: 'สมชาย' },
      { street: 'Rue 🏠 \u200f\u202e mixed', city: 'Zürich', name: 'Zoë' },
    ];
    const stops = [
      { type: 'pickup', place_id: w.places[0] },
      ...scripts.map((s) => ({ type: 'dropoff', location: { lat: 43.73, lng: 7.42 }, address: { street: s.street, city: s.city }, contact: { name: s.name } })),
    ];
    const created = await expectOk(w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { external_id: '注文-١٠٠١', stops }) }), 201);
    const read = await expectOk(w.tenant.admin.get(`/api/hailing/bookings/${created.booking.id}`));
    expect(read.booking.external_id).toBe('注文-١٠٠١');
    scripts.forEach((s, i) => {
      expect(read.booking.stops[i + 1].address).toMatchObject({ street: s.street, city: s.city });
      expect(read.booking.stops[i + 1].contact.name).toBe(s.name);
    });

    const events = await eventCount(w.tenant);
    const huge = 'x'.repeat(5 * 1024 * 1024);
    for (const field of [{ notes: huge }, { contact: { name: huge } }, { address: { street: huge, city: 'Monaco' } }]) {
      const res = await w.tenant.admin.post('/api/hailing/bookings', { booking: booking(w, { stops: [{ type: 'pickup', place_id: w.places[0] }, { ...dropoff({}), ...field }] }) });
      expect(res.status).toBe(413);
      expect(res.body.error_code).toBe('payload_too_large');
    }
    const bulk = await w.tenant.admin.post('/api/hailing/bookings/bulk', { bookings: [{ idempotency_key: 'huge', booking: booking(w, { external_id: huge }) }] });
    // The bulk body may be 8 times larger (100 items): there the item meets the single create's body limit.
    expect(bulk.status).toBe(200);
    expect(bulk.body.results[0]).toMatchObject({ status: 413, error: { error_code: 'payload_too_large' } });
    expect(await count(w.tenant.admin)).toBe(1);
    expect(await eventCount(w.tenant)).toBe(events);
  });

  it('answers a NUL character or a lone surrogate in a contact with 4xx, never 5xx', async () => {
    const w = await world();
    for (const raw of [
      `{"booking":{"service_id":"${w.serviceId}","stops":[{"type":"pickup","place_id":"${w.places[0]}"},{"type":"dropoff","location":{"lat":43.7,"lng":7.4},"address":{"street":"a\\u0000b","city":"Monaco"},"contact":{"email":"a\\u0000@example.com"}}]}}`,
      `{"booking":{"service_id":"${w.serviceId}","stops":[{"type":"pickup","place_id":"${w.places[0]}"},{"type":"dropoff","location":{"lat":43.7,"lng":7.4},"address":{"street":"\\ud800","city":"Monaco"},"contact":{"phone_number":"\\udfff"}}]}}`,
    ]) {
      const res = await w.tenant.admin.post('/api/hailing/bookings', undefined, { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await count(w.tenant.admin)).toBe(0);
  });
});
