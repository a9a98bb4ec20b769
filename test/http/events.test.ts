import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent, type EventInput } from '../../src/events/outbox.ts';
import { newId } from '../../src/shared/ids.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { createUser } from '../factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

/** Until every module emits through the API, the outbox writer itself seeds the log, as an operation would. */
async function record(tenantId: string, inputs: Omit<EventInput, 'tenantId' | 'at' | 'actor'>[]): Promise<string[]> {
  const ids: string[] = [];
  for (const input of inputs) {
    t.clock.advanceSeconds(1);
    ids.push(await t.deps.db.transaction((tx) => recordEvent(tx, { ...input, tenantId, actor: 'system', at: t.clock.now() })));
  }
  return ids;
}

describe('GET /api/admin/events', () => {
  it('lists the tenant’s events newest first as envelopes, paginated by cursor with a Link header', async () => {
    const tenant = await t.createTenant();
    const tour = newId();
    const ids = await record(tenant.tenantId, [
      { type: 'tour.created', resourceId: tour, data: { tour_id: tour } },
      { type: 'tour.modified', resourceId: tour, data: { tour_id: tour } },
      { type: 'tour.earnings_updated', resourceId: tour, data: { tour_id: tour, amount: 100, currency: 'EUR' } },
    ]);
    const first = await tenant.admin.get('/api/admin/events?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.events.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.events[0]).toEqual({
      id: ids[2],
      type: 'tour.earnings_updated',
      resource_type: 'tour',
      event: 'earnings_updated',
      timestamp: expect.stringMatching(/Z$/),
      data: { tour_id: tour, amount: 100, currency: 'EUR' },
      actor: { type: 'system', id: null, api_key_id: null },
    });
    expect(first.body.meta.has_more).toBe(true);
    expect(first.headers.link).toContain('rel="next"');
    const second = await tenant.admin.get(`/api/admin/events?limit=2&cursor=${first.body.meta.next_cursor}`);
    expect(second.body.events.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expect(second.body.meta).toEqual({ next_cursor: null, has_more: false });
  });

  it('filters by type (one or several), resource_id and since', async () => {
    const tenant = await t.createTenant();
    const [a, b] = [newId(), newId()];
    const before = t.clock.now().toISOString();
    const ids = await record(tenant.tenantId, [
      { type: 'booking.created', resourceId: a, data: { booking_id: a } },
      { type: 'booking.modified', resourceId: a, data: { booking_id: a } },
      { type: 'booking.created', resourceId: b, data: { booking_id: b } },
    ]);
    const list = async (query: string) =>
      (await tenant.admin.get(`/api/admin/events?${query}`)).body.events.map((e: { id: string }) => e.id);
    expect(await list('filters[type]=booking.created')).toEqual([ids[2], ids[0]]);
    expect(await list('filters[type][]=booking.created&filters[type][]=booking.modified')).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list(`filters[resource_id]=${a}`)).toEqual([ids[1], ids[0]]);
    expect(await list(`filters[since]=${before}`)).toHaveLength(3);
    const third = new Date(Date.parse(before) + 3000).toISOString();
    expect(await list(`filters[since]=${third}`)).toEqual([ids[2]]);
  });

  it('shows only the caller’s tenant and only to admins', async () => {
    const mine = await t.createTenant();
    const other = await t.createTenant();
    const resource = newId();
    await record(other.tenantId, [{ type: 'tour.created', resourceId: resource, data: {} }]);
    expect((await mine.admin.get(`/api/admin/events?filters[resource_id]=${resource}`)).body.events).toEqual([]);
    expect((await t.anonymous.get('/api/admin/events')).status).toBe(401);
    for (const role of ['manager', 'driver', 'customer'] as const) {
      const user = await createUser(mine.admin, { role });
      const res = await user.client.get('/api/admin/events');
      expect(res.status, role).toBe(403);
      expect(res.body.error_code).toBe('forbidden');
    }
  });

  it.each([
    ['filters[type]=hailing_booking.created', 'parameter_invalid'],
    ['filters[colour]=red', 'parameter_unknown'],
    ['filters[resource_id]=not-a-uuid', 'parameter_invalid'],
    ['filters[actor_id]=not-a-uuid', 'parameter_invalid'],
    ['filters[since]=yesterday', 'parameter_invalid'],
    ['cursor=%%%', 'parameter_invalid'],
    [`cursor=${Buffer.from('["x"]').toString('base64url')}`, 'parameter_invalid'],
    ['limit=101', 'parameter_invalid'],
  ])('answers 400 to %s', async (query, code) => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.get(`/api/admin/events?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe(code);
  });
});
