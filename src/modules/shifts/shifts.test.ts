import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createOrganization, createPlace, createUser, expectOk, type CreatedUser } from '../../../test/factories.ts';

let t: TestApp;
let tenant: TestTenant;
let org: string;
let driver: CreatedUser;
let otherDriver: CreatedUser;
let manager: CreatedUser;
let otherManager: CreatedUser;
let customer: CreatedUser;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  org = (await createOrganization(tenant.admin)).id;
  driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
  otherDriver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
  manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [org] });
  otherManager = await createUser(tenant.admin, { role: 'manager' });
  customer = await createUser(tenant.admin, { role: 'customer' });
});
afterAll(async () => t?.close());

const day = (hour: number, date = '2026-12-01') => `${date}T${String(hour).padStart(2, '0')}:00:00.000Z`;
const shift = (from: number, to: number, extra: Record<string, unknown> = {}) => ({ shift: { starts_at: day(from), ends_at: day(to), start_location: { lat: 52.5, lng: 13.4 }, ...extra } });

describe('shifts', () => {
  it('creates a shift from a place with a vehicle, and shows it to the driver', async () => {
    const depot = await createPlace(tenant.admin, { location: { lat: 52.53, lng: 13.38 } });
    const body = { shift: { starts_at: day(6), ends_at: day(14), start_place_id: depot.id, end_location: { lat: 52.4, lng: 13.5 }, vehicle: { capacity: { packages: 80, weight_kg: 500 }, skills: ['cooling'] } } };
    const created = (await expectOk(manager.client.post(`/api/drivers/${driver.id}/shifts`, body), 201)).shift;
    expect(created).toMatchObject({
      driver_id: driver.id,
      starts_at: day(6),
      ends_at: day(14),
      start_place_id: depot.id,
      start_location: { lat: 52.53, lng: 13.38 },
      end_place_id: null,
      end_location: { lat: 52.4, lng: 13.5 },
      vehicle: { capacity: { packages: 80, weight_kg: 500 }, skills: ['cooling'] },
    });
    expect((await expectOk(driver.client.get(`/api/shifts/${created.id}`))).shift.id).toBe(created.id);
    const list = await expectOk(driver.client.get(`/api/drivers/${driver.id}/shifts`));
    expect(list.shifts.map((s: { id: string }) => s.id)).toContain(created.id);
  });

  it('lets admins and the managers of the driver write; the driver reads only; others get 404, customers 403', async () => {
    const mine = (await expectOk(tenant.admin.post(`/api/drivers/${driver.id}/shifts`, shift(15, 16)), 201)).shift;
    expect((await driver.client.post(`/api/drivers/${driver.id}/shifts`, shift(17, 18))).status).toBe(403);
    expect((await driver.client.patch(`/api/shifts/${mine.id}`, { shift: { ends_at: day(17) } })).status).toBe(403);
    expect((await driver.client.delete(`/api/shifts/${mine.id}`)).status).toBe(403);
    for (const other of [otherDriver, otherManager]) {
      expect((await other.client.get(`/api/drivers/${driver.id}/shifts`)).status).toBe(404);
      expect((await other.client.get(`/api/shifts/${mine.id}`)).status).toBe(404);
      expect((await other.client.patch(`/api/shifts/${mine.id}`, { shift: { ends_at: day(17) } })).status).toBe(404);
      expect((await other.client.delete(`/api/shifts/${mine.id}`)).status).toBe(404);
      expect((await other.client.post(`/api/drivers/${driver.id}/shifts`, shift(19, 20))).status).toBe(404);
    }
    expect((await customer.client.get(`/api/drivers/${driver.id}/shifts`)).status).toBe(403);
    const stranger = await t.createTenant();
    expect((await stranger.admin.get(`/api/shifts/${mine.id}`)).status).toBe(404);
    expect((await stranger.admin.get(`/api/drivers/${driver.id}/shifts`)).status).toBe(404);
    // Not a driver: no shifts.
    expect((await tenant.admin.post(`/api/drivers/${manager.id}/shifts`, shift(1, 2))).status).toBe(404);
    const patched = await expectOk(manager.client.patch(`/api/shifts/${mine.id}`, { shift: { ends_at: day(17), vehicle: { skills: ['ramp'] } } }));
    expect(patched.shift).toMatchObject({ starts_at: day(15), ends_at: day(17), vehicle: { capacity: {}, skills: ['ramp'] } });
    expect((await manager.client.delete(`/api/shifts/${mine.id}`)).status).toBe(204);
    expect((await manager.client.get(`/api/shifts/${mine.id}`)).status).toBe(404);
  });

  it('refuses bad times, both or neither of place and location, unknown places, and overlapping shifts', async () => {
    const d = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
    const url = `/api/drivers/${d.id}/shifts`;
    const bad = async (body: unknown, code: string, pointer: string) => {
      const res = await tenant.admin.post(url, body);
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error_code).toBe(code);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      return res;
    };
    await bad(shift(10, 10), 'validation_failed', '/shift/ends_at');
    await bad(shift(10, 9), 'validation_failed', '/shift/ends_at');
    await bad({ shift: { starts_at: day(8), ends_at: day(9) } }, 'validation_failed', '/shift/start_location');
    const place = await createPlace(tenant.admin);
    await bad(shift(8, 9, { start_place_id: place.id }), 'validation_failed', '/shift/start_location');
    await bad({ shift: { starts_at: day(8), ends_at: day(9), start_place_id: '0193b2e4-0c1d-7a2e-8f30-00000000ffff' } }, 'validation_failed', '/shift/start_place_id');
    await bad(shift(8, 9, { vehicle: { capacity: { packages: -1 } } }), 'validation_failed', '/shift/vehicle/capacity/packages');
    const first = (await expectOk(tenant.admin.post(url, shift(8, 12)), 201)).shift;
    const overlap = await bad(shift(11, 13), 'shift_overlap', '/shift/starts_at');
    expect(overlap.body.conflicting_shift_id).toBe(first.id);
    await bad(shift(7, 13), 'shift_overlap', '/shift/starts_at');
    // Touching is not overlapping; another driver's shifts never conflict.
    const next = (await expectOk(tenant.admin.post(url, shift(12, 14)), 201)).shift;
    await expectOk(tenant.admin.post(`/api/drivers/${otherDriver.id}/shifts`, shift(8, 12)), 201);
    // Moving a shift onto another is refused; moving it within its own time is not an overlap with itself.
    const moved = await tenant.admin.patch(`/api/shifts/${next.id}`, { shift: { starts_at: day(11) } });
    expect(moved.status).toBe(422);
    expect(moved.body.error_code).toBe('shift_overlap');
    await expectOk(tenant.admin.patch(`/api/shifts/${next.id}`, { shift: { ends_at: day(15) } }));
    const inverted = await tenant.admin.patch(`/api/shifts/${next.id}`, { shift: { ends_at: day(11) } });
    expect(inverted.status).toBe(422);
    expect(inverted.body.errors[0].pointer).toBe('/shift/ends_at');
  });

  it('lists earliest first, filtered to [from, to), a page at a time', async () => {
    const d = await createUser(tenant.admin, { role: 'driver', organization_ids: [org] });
    const url = `/api/drivers/${d.id}/shifts`;
    for (const date of ['2026-12-03', '2026-12-01', '2026-12-02']) {
      await expectOk(tenant.admin.post(url, { shift: { starts_at: day(8, date), ends_at: day(16, date), start_location: { lat: 52.5, lng: 13.4 } } }), 201);
    }
    const first = await expectOk(tenant.admin.get(`${url}?limit=2`));
    expect(first.shifts.map((s: { starts_at: string }) => s.starts_at)).toEqual([day(8, '2026-12-01'), day(8, '2026-12-02')]);
    expect(first.meta.has_more).toBe(true);
    const second = await expectOk(tenant.admin.get(`${url}?limit=2&cursor=${first.meta.next_cursor}`));
    expect(second.shifts.map((s: { starts_at: string }) => s.starts_at)).toEqual([day(8, '2026-12-03')]);
    const filtered = await expectOk(tenant.admin.get(`${url}?filters[from]=${day(15, '2026-12-01')}&filters[to]=${day(8, '2026-12-03')}`));
    expect(filtered.shifts.map((s: { starts_at: string }) => s.starts_at)).toEqual([day(8, '2026-12-01'), day(8, '2026-12-02')]);
    expect((await tenant.admin.get(`${url}?filters[shift]=x`)).status).toBe(400);
    expect((await tenant.admin.get(`${url}?cursor=nonsense`)).status).toBe(400);
  });
});
