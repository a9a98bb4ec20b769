// The compensation endpoints through the HTTP API (docs/api-guide.md "Tour compensation, tips and legacy earnings"): reads, writes, limits, who may, history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestTenant } from '../../../test/app.ts';
import { compensationWorld, eur, managedTour, type CompensationWorld } from '../../../test/compensation.ts';
import { createBooking, createService, createUser, expectOk, mergeIntoTour, tourEnRoute, type CreatedUser } from '../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';

let t: TestApp;
let tenant: TestTenant;
let orgId: string;
let serviceId: string;
let manager: CreatedUser;
let driver: CreatedUser;
let world: CompensationWorld;

beforeAll(async () => {
  world = await compensationWorld();
  ({ t, tenant, orgId, serviceId, manager, driver } = world);
});
afterAll(async () => t.close());

/** A tour of one booking managed by `orgId` (so its manager sees it). */
const newTour = () => managedTour(world);

/**
 * Runs `requests` while every read of the compensation table waits: a PostgreSQL session holding the table, or an
 * open PGlite transaction (which runs alone), released once `waiting` requests have come to wait.
 */
async function whileHeld<T>(requests: () => Promise<T>, waiting: number): Promise<T> {
  const { pool, pglite } = t.deps.database;
  if (pool) {
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE tour_compensations IN ACCESS EXCLUSIVE MODE');
      const running = requests();
      await waitUntilSomeoneWaitsForALock(pool, waiting);
      await holder.query('COMMIT');
      return await running;
    } finally {
      holder.release();
    }
  }
  let release = () => {};
  const held = pglite!.transaction(() => new Promise<void>((resolve) => (release = resolve)));
  const running = requests();
  // PGlite cannot tell who waits: the requests get a moment to queue their reads behind the transaction.
  await new Promise((resolve) => setTimeout(resolve, 300));
  release();
  await held;
  return running;
}

const url = (tourId: string, rest = '') => `/api/tours/${tourId}/compensation${rest}`;

describe('tour compensation', () => {
  it('renders an untouched tour as zeros in its service area currency', async () => {
    const tour = await newTour();
    const body = await expectOk(tenant.admin.get(url(tour.id)));
    expect(body).toEqual({
      compensation: {
        tour_id: tour.id,
        currency: 'EUR',
        total_amount: 0,
        breakdown: { base_earnings: { amount: 0, label: null }, bonuses: [], tips: { amount: 0 } },
        tip_distribution: { status: 'active', paused_reason: null },
        compensation_updated_at: null,
      },
    });
  });

  it('sets base and bonuses, answers the whole compensation after each write, and recomputes the total', async () => {
    const tour = await newTour();
    const base = await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(4200, 'Base rate')));
    expect(base.compensation).toMatchObject({ total_amount: 4200, breakdown: { base_earnings: { amount: 4200, label: 'Base rate' } }, compensation_updated_at: t.clock.now().toISOString() });
    await expectOk(tenant.admin.put(url(tour.id, '/bonus/night'), eur(500, 'Night')));
    const both = await expectOk(tenant.admin.put(url(tour.id, '/bonus/bulky'), eur(250)));
    expect(both.compensation.total_amount).toBe(4950);
    expect(both.compensation.breakdown.bonuses).toEqual([
      { key: 'bulky', amount: 250, label: null },
      { key: 'night', amount: 500, label: 'Night' },
    ]);
    const replaced = await expectOk(tenant.admin.put(url(tour.id, '/bonus/night'), eur(800, 'Night shift')));
    expect(replaced.compensation.breakdown.bonuses).toEqual([
      { key: 'bulky', amount: 250, label: null },
      { key: 'night', amount: 800, label: 'Night shift' },
    ]);
    expect(replaced.compensation.total_amount).toBe(5250);
    const withoutBonus = await expectOk(tenant.admin.delete(url(tour.id, '/bonus/bulky')));
    expect(withoutBonus.compensation.total_amount).toBe(5000);
    const withoutBase = await expectOk(tenant.admin.delete(url(tour.id, '/base')));
    expect(withoutBase.compensation).toMatchObject({ total_amount: 800, breakdown: { base_earnings: { amount: 0, label: null } } });
    expect((await expectOk(tenant.admin.get(url(tour.id)))).compensation).toEqual(withoutBase.compensation);
  });

  it('answers 404 for deleting a base or bonus that is not there', async () => {
    const tour = await newTour();
    expect((await tenant.admin.delete(url(tour.id, '/base'))).body).toMatchObject({ status: 404, error_code: 'not_found' });
    expect((await tenant.admin.delete(url(tour.id, '/bonus/none'))).status).toBe(404);
    await expectOk(tenant.admin.put(url(tour.id, '/bonus/a'), eur(1)));
    await expectOk(tenant.admin.delete(url(tour.id, '/bonus/a')));
    expect((await tenant.admin.delete(url(tour.id, '/bonus/a'))).status).toBe(404);
  });

  it('refuses a sixth bonus with 422 too_many_bonuses and keeps the five', async () => {
    const tour = await newTour();
    for (const key of ['a', 'b', 'c', 'd', 'e']) await expectOk(tenant.admin.put(url(tour.id, `/bonus/${key}`), eur(10)));
    const sixth = await tenant.admin.put(url(tour.id, '/bonus/f'), eur(10));
    expect(sixth.status).toBe(422);
    expect(sixth.body.error_code).toBe('too_many_bonuses');
    expect((await expectOk(tenant.admin.put(url(tour.id, '/bonus/e'), eur(20)))).compensation.total_amount).toBe(60);
  });

  it.each([
    ['a fraction', { amount: 10.5, currency: 'EUR' }, '/amount'],
    ['a negative amount', { amount: -1, currency: 'EUR' }, '/amount'],
    ['a string amount', { amount: '100', currency: 'EUR' }, '/amount'],
    ['more than 100,000,000', { amount: 100_000_001, currency: 'EUR' }, '/amount'],
    ['no currency', { amount: 1 }, '/currency'],
    ['a lower-case currency', { amount: 1, currency: 'eur' }, '/currency'],
    ['an unknown field', { amount: 1, currency: 'EUR', extra: true }, '/extra'],
  ])('refuses %s with 422 and the field pointer, writing nothing', async (_name, body, pointer) => {
    const tour = await newTour();
    for (const path of ['/base', '/bonus/x']) {
      const res = await tenant.admin.put(url(tour.id, path), body);
      expect(res.status).toBe(422);
      expect(res.body.error_code).toBe('validation_failed');
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
    }
    expect((await expectOk(tenant.admin.get(url(tour.id, '/history')))).history).toEqual([]);
  });

  it('accepts the limits 0 and 100,000,000', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(100_000_000)));
    expect((await expectOk(tenant.admin.put(url(tour.id, '/bonus/zero'), eur(0)))).compensation.total_amount).toBe(100_000_000);
  });

  it('refuses a bonus key outside [a-z0-9_-]{1,64} (422 on PUT, 404 on DELETE: no such bonus can exist)', async () => {
    const tour = await newTour();
    for (const key of ['Night', 'a.b', 'x'.repeat(65), 'a%20b']) {
      const res = await tenant.admin.put(url(tour.id, `/bonus/${key}`), eur(1));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ pointer: '/key', code: 'invalid_format' })]);
      expect((await tenant.admin.delete(url(tour.id, `/bonus/${key}`))).status).toBe(404);
    }
    await expectOk(tenant.admin.put(url(tour.id, `/bonus/${'x'.repeat(64)}`), eur(1)));
  });

  it('refuses another currency than the service area’s with 422 currency_mismatch', async () => {
    const tour = await newTour();
    const res = await tenant.admin.put(url(tour.id, '/base'), { amount: 100, currency: 'USD' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'currency_mismatch', errors: [{ pointer: '/currency', code: 'currency_mismatch' }] });
    const usdArea = await expectOk(tenant.admin.post('/api/admin/service_areas', { service_area: { name: 'NYC', currency: 'USD', time_zone: 'America/New_York' } }), 201);
    const usdService = await createService(tenant.admin, { service_area_id: usdArea.service_area.id });
    const usdTour = await mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: usdService.id })).id]);
    expect((await tenant.admin.put(url(usdTour.id, '/base'), eur(100))).body.error_code).toBe('currency_mismatch');
    expect((await expectOk(tenant.admin.put(url(usdTour.id, '/base'), { amount: 100, currency: 'USD' }))).compensation.currency).toBe('USD');
  });

  it('keeps every change when writes to one tour overlap: a write that lost the compare is made again under the row lock', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(1000)));
    // Held back until all five have asked to read the row, so each reads it before any has written it; only one
    // compare can succeed per state (decision 0606). PostgreSQL: a session holds the table; PGlite: a transaction.
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const answers = await whileHeld(() => Promise.all(keys.map((key, i) => tenant.admin.put(url(tour.id, `/bonus/${key}`), eur(10 * (i + 1))))), keys.length);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const { compensation } = await expectOk(tenant.admin.get(url(tour.id)));
    expect(compensation.breakdown.bonuses.map((b: { key: string }) => b.key)).toEqual(keys);
    expect(compensation.total_amount).toBe(1150);
    const { history } = await expectOk(tenant.admin.get(url(tour.id, '/history')));
    expect(history.map((h: { key: string | null }) => h.key).sort()).toEqual([null, ...keys].sort());
    // Every answer showed its own bonus in the compensation as it was right after that write.
    answers.forEach((a, i) => expect(a.body.compensation.breakdown.bonuses).toContainEqual({ key: keys[i], amount: 10 * (i + 1), label: null }));
  });

  it('allows writes on a cancelled tour (drivers are paid for cancelled work too)', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.post(`/api/hailing/tours/${tour.id}/cancel`));
    expect((await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(1500)))).compensation.total_amount).toBe(1500);
  });

  it('never embeds the compensation in tour or booking responses', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(1500)));
    const shown = await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`));
    expect(JSON.stringify(shown)).not.toContain('1500');
    expect(shown.tour).not.toHaveProperty('compensation');
  });
});

describe('who may read and write a compensation', () => {
  it('lets a manager who sees the tour write and read the history; others get 404', async () => {
    const tour = await newTour();
    await expectOk(manager.client.put(url(tour.id, '/base'), eur(900)));
    expect((await expectOk(manager.client.get(url(tour.id, '/history')))).history).toHaveLength(1);
    const stranger = await createUser(tenant.admin, { role: 'manager' });
    for (const [method, path] of [['GET', ''], ['PUT', '/base'], ['DELETE', '/base'], ['PUT', '/bonus/a'], ['GET', '/history'], ['POST', '/tips/resume']] as const) {
      const res = await stranger.client.request(method, url(tour.id, path), method === 'PUT' ? eur(1) : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // 404 before any state check: a currency the tour would refuse is still a 404 to whom cannot see it.
    expect((await stranger.client.put(url(tour.id, '/base'), { amount: 1, currency: 'USD' })).status).toBe(404);
  });

  it('lets the tour’s driver read its own compensation, refuses its writes (403) and hides other tours (404)', async () => {
    const own = await tourEnRoute(tenant.admin, [(await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId] })).id], driver.id);
    await expectOk(tenant.admin.put(url(own.id, '/base'), eur(700)));
    expect((await expectOk(driver.client.get(url(own.id)))).compensation.total_amount).toBe(700);
    expect((await driver.client.put(url(own.id, '/base'), eur(1))).status).toBe(403);
    expect((await driver.client.get(url(own.id, '/history'))).status).toBe(403);
    // A tour the driver sees (it could claim it) but does not drive.
    const other = await newTour();
    await expectOk(tenant.admin.post(`/api/hailing/tours/${other.id}/schedule`));
    expect((await driver.client.get(`/api/hailing/tours/${other.id}`)).status).toBe(200);
    expect((await driver.client.get(url(other.id))).status).toBe(404);
  });

  it('answers 404 to customers and to other tenants', async () => {
    const tour = await newTour();
    const customer = await createUser(tenant.admin, { role: 'customer' });
    expect((await customer.client.get(url(tour.id))).status).toBe(404);
    const other = await t.createTenant();
    expect((await other.admin.get(url(tour.id))).status).toBe(404);
    expect((await other.admin.put(url(tour.id, '/base'), eur(1))).status).toBe(404);
    expect((await tenant.admin.get(url('0190c000-0000-7000-8000-000000000000'))).status).toBe(404);
  });
});

describe('compensation history', () => {
  it('lists every write and delete oldest first with actor, component, key, from and to; a no-op write adds nothing', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(100, 'B')));
    t.clock.advanceSeconds(1);
    await expectOk(manager.client.put(url(tour.id, '/bonus/night'), eur(50)));
    t.clock.advanceSeconds(1);
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(120, 'B')));
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(120, 'B')));
    await expectOk(tenant.admin.delete(url(tour.id, '/bonus/night')));
    const { history } = await expectOk(tenant.admin.get(url(tour.id, '/history')));
    expect(history.map((h: Record<string, unknown>) => ({ ...h, at: undefined }))).toEqual([
      { at: undefined, actor_id: tenant.adminUserId, component: 'base', key: null, from: null, to: { amount: 100, label: 'B' } },
      { at: undefined, actor_id: manager.id, component: 'bonus', key: 'night', from: null, to: { amount: 50, label: null } },
      { at: undefined, actor_id: tenant.adminUserId, component: 'base', key: null, from: { amount: 100, label: 'B' }, to: { amount: 120, label: 'B' } },
      { at: undefined, actor_id: tenant.adminUserId, component: 'bonus', key: 'night', from: { amount: 50, label: null }, to: null },
    ]);
    expect(history[0].at < history[1].at && history[1].at < history[2].at).toBe(true);
  });

  it('records a label-only change, refuses deleting a missing bonus while others exist, and names the base when it is deleted', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(100, 'Day rate')));
    await expectOk(tenant.admin.put(url(tour.id, '/bonus/bulky'), eur(20)));
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(100, 'Night rate')));
    expect((await tenant.admin.delete(url(tour.id, '/bonus/night'))).status).toBe(404);
    await expectOk(tenant.admin.delete(url(tour.id, '/base')));
    const { history } = await expectOk(tenant.admin.get(url(tour.id, '/history')));
    expect(history.map((h: Record<string, unknown>) => [h.component, h.key, h.from, h.to])).toEqual([
      ['base', null, null, { amount: 100, label: 'Day rate' }],
      ['bonus', 'bulky', null, { amount: 20, label: null }],
      ['base', null, { amount: 100, label: 'Day rate' }, { amount: 100, label: 'Night rate' }],
      ['base', null, { amount: 100, label: 'Night rate' }, null],
    ]);
    const { compensation } = await expectOk(tenant.admin.get(url(tour.id)));
    expect(compensation).toMatchObject({ total_amount: 20, breakdown: { bonuses: [{ key: 'bulky', amount: 20, label: null }] } });
  });
});
