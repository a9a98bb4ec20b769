import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createServiceArea, createUser, createWebhook, expectOk } from '../../../test/factories.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import type { EventType } from '../../events/catalog.ts';
import { recordEvent } from '../../events/outbox.ts';
import { newId } from '../../shared/ids.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { fanOutEvents } from './delivery.ts';
import { claimDueDeliveries } from './repository.ts';

let t: TestApp;
let receiver: WebhookReceiver;
let worker: Worker;

beforeAll(async () => {
  t = await buildTestApp();
  // The production deadline: a 300 ms one here made any slow answer on a busy machine a spurious timeout. Only the
  // timeout test uses a short deadline, on its own worker.
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());
// A receiver per test: earlier tests' retries, due once the clock moves on, land on a closed port, not here.
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(async () => receiver.close());

/** Records a domain event as a module's operation would: in a transaction, through the outbox writer. */
async function emit(tenantId: string, type: EventType, data: Record<string, unknown> = {}): Promise<string> {
  return t.deps.db.transaction((tx) => recordEvent(tx, { tenantId, actor: 'system', type, resourceId: null, data, at: t.clock.now() }));
}

const subscribe = (tenant: TestTenant, webhook: Record<string, unknown> = {}) => createWebhook(tenant.admin, receiver.url, webhook);

const deliveriesOf = async (tenant: TestTenant, id: string, query = '') =>
  (await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}/deliveries${query}`))).deliveries;

describe('webhook subscriptions', () => {
  it('creates a subscription, shows its whsec_ secret once, and lists, shows, changes and deletes it', async () => {
    const tenant = await t.createTenant();
    const created = await expectOk(
      tenant.admin.post('/api/admin/webhooks', {
        webhook: { url: 'https://hooks.example.com/tourbook', events: ['tour.created', 'booking.created'], description: 'ERP' },
      }),
      201,
    );
    expect(created.webhook).toMatchObject({ url: 'https://hooks.example.com/tourbook', active: true, description: 'ERP', filters: {}, disabled_reason: null });
    expect(created.webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.webhook.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const id = created.webhook.id;

    const shown = await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`));
    expect(shown.webhook).not.toHaveProperty('secret');
    const list = await expectOk(tenant.admin.get('/api/admin/webhooks'));
    expect(list.webhooks.map((w: { id: string }) => w.id)).toEqual([id]);
    expect(list.meta).toEqual({ next_cursor: null, has_more: false });

    const changed = await expectOk(tenant.admin.patch(`/api/admin/webhooks/${id}`, { webhook: { events: ['*'], active: false, description: null } }));
    expect(changed.webhook).toMatchObject({ events: ['*'], active: false, description: null, url: 'https://hooks.example.com/tourbook' });

    expect((await tenant.admin.delete(`/api/admin/webhooks/${id}`)).status).toBe(204);
    expect((await tenant.admin.get(`/api/admin/webhooks/${id}`)).status).toBe(404);
  });

  it('refuses unknown event types, including the removed hailing_booking.*, with a pointer to each', async () => {
    const tenant = await t.createTenant();
    const res = await tenant.admin.post('/api/admin/webhooks', {
      webhook: { url: 'https://hooks.example.com/x', events: ['tour.created', 'hailing_booking.created', 'tour.teleported'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      expect.objectContaining({ pointer: '/webhook/events/1', code: 'unknown_event_type' }),
      expect.objectContaining({ pointer: '/webhook/events/2', code: 'unknown_event_type' }),
    ]);
    expect((await tenant.admin.get('/api/admin/webhooks')).body.webhooks).toEqual([]);
  });

  it('accepts only http and https URLs', async () => {
    const tenant = await t.createTenant();
    for (const url of ['ftp://hooks.example.com/x', 'not a url', 'https://user:pw@hooks.example.com/']) {
      const res = await tenant.admin.post('/api/admin/webhooks', { webhook: { url, events: ['*'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: '/webhook/url', code: 'invalid_url' });
    }
  });

  it('refuses "*" combined with event types, and unknown body fields', async () => {
    const tenant = await t.createTenant();
    const mixed = await tenant.admin.post('/api/admin/webhooks', { webhook: { url: 'https://hooks.example.com/x', events: ['*', 'tour.created'] } });
    expect(mixed.status).toBe(422);
    expect(mixed.body.errors[0].pointer).toBe('/webhook/events');
    const extra = await tenant.admin.post('/api/admin/webhooks', { webhook: { url: 'https://hooks.example.com/x', events: ['*'], secret: 'mine' } });
    expect(extra.status).toBe(422);
    expect(extra.body.errors[0]).toMatchObject({ pointer: '/webhook/secret', code: 'unknown_field' });
  });

  it('is for admins only: a manager is refused with 403', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    const manager = await createUser(tenant.admin, { role: 'manager' });
    expect((await manager.client.get('/api/admin/webhooks')).status).toBe(403);
    expect((await manager.client.post('/api/admin/webhooks', { webhook: { url: receiver.url, events: ['*'] } })).status).toBe(403);
    expect((await manager.client.post(`/api/admin/webhooks/${id}/rotate_secret`)).status).toBe(403);
    expect((await manager.client.get(`/api/admin/webhooks/${id}/deliveries`)).status).toBe(403);
  });

  it("answers 404 for another tenant's subscription", async () => {
    const owner = await t.createTenant();
    const other = await t.createTenant();
    const { id } = await subscribe(owner);
    expect((await other.admin.get(`/api/admin/webhooks/${id}`)).status).toBe(404);
    expect((await other.admin.patch(`/api/admin/webhooks/${id}`, { webhook: { active: false } })).status).toBe(404);
    expect((await other.admin.delete(`/api/admin/webhooks/${id}`)).status).toBe(404);
    expect((await other.admin.get(`/api/admin/webhooks/${id}/deliveries`)).status).toBe(404);
  });
});

describe('webhook delivery', () => {
  it('POSTs the signed envelope with Standard Webhooks headers that the standardwebhooks library verifies', async () => {
    const tenant = await t.createTenant();
    const { secret } = await subscribe(tenant);
    const eventId = await emit(tenant.tenantId, 'tour.created', { tour_id: newId(), service_area_id: newId() });
    await worker.drain();

    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook!.headers['webhook-id']).toBe(eventId);
    expect(hook!.headers['webhook-timestamp']).toBe(String(Math.floor(t.clock.now().getTime() / 1000)));
    expect(hook!.json).toMatchObject({ id: eventId, type: 'tour.created', resource_type: 'tour', event: 'created', timestamp: t.clock.now().toISOString() });
    expect(Object.keys(hook!.json)).toEqual(['id', 'type', 'resource_type', 'event', 'timestamp', 'data', 'actor']);
    expect(hook!.json.actor).toEqual({ type: 'system', id: null, api_key_id: null });
    expect(verifyWebhook(secret, hook!, t.clock.now())).toEqual(hook!.json);
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, hook!, t.clock.now())).toThrow(/signature/i);
  });

  it("delivers a tenant's events only to its own subscriptions, by type and filters", async () => {
    const tenant = await t.createTenant();
    const stranger = await t.createTenant();
    // A filter must name one of the tenant's own service areas (issue 11: unknown_reference otherwise).
    const area = (await createServiceArea(tenant.admin)).id;
    const all = await subscribe(tenant);
    const tours = await subscribe(tenant, { events: ['tour.created'] });
    const areaOnly = await subscribe(tenant, { filters: { service_area_id: area } });
    const strangers = await subscribe(stranger);

    await emit(tenant.tenantId, 'tour.created', { tour_id: newId(), service_area_id: area });
    await emit(tenant.tenantId, 'booking.created', { booking_id: newId(), service_area_id: newId(), customer_id: newId() });
    await worker.drain();

    expect((await deliveriesOf(tenant, all.id)).map((d: { event_type: string }) => d.event_type).sort()).toEqual(['booking.created', 'tour.created']);
    expect((await deliveriesOf(tenant, tours.id)).map((d: { event_type: string }) => d.event_type)).toEqual(['tour.created']);
    expect((await deliveriesOf(tenant, areaOnly.id)).map((d: { event_type: string }) => d.event_type)).toEqual(['tour.created']);
    expect(await deliveriesOf(stranger, strangers.id)).toEqual([]);
    expect(receiver.received).toHaveLength(4);
  });

  it('delivers busyness.place_changed only to tenants with the busyness extension', async () => {
    const paying = await t.createTenant({ extensions: ['busyness'] });
    const plain = await t.createTenant();
    const payingHook = await subscribe(paying, { events: ['busyness.place_changed'] });
    const plainHook = await subscribe(plain, { events: ['busyness.place_changed'] });
    await emit(paying.tenantId, 'busyness.place_changed', { place_id: newId(), busyness: 40 });
    await emit(plain.tenantId, 'busyness.place_changed', { place_id: newId(), busyness: 40 });
    await worker.drain();
    expect(await deliveriesOf(paying, payingHook.id)).toHaveLength(1);
    expect(await deliveriesOf(plain, plainHook.id)).toHaveLength(0);
  });

  it('retries a failed delivery on the schedule with jitter, with the same webhook-id, and logs every attempt', async () => {
    const tenant = await t.createTenant();
    const { id, secret } = await subscribe(tenant);
    receiver.script({ status: 500 }, { status: 503 });
    const eventId = await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    const start = t.clock.now().getTime();
    await worker.drain();

    let [delivery] = await deliveriesOf(tenant, id);
    expect(delivery).toMatchObject({ event_id: eventId, status: 'failed', attempts: [{ status_code: 500, error: 'HTTP 500' }] });
    const firstRetryIn = Date.parse(delivery.next_attempt_at) - start;
    expect(firstRetryIn).toBeGreaterThanOrEqual(4_500);
    expect(firstRetryIn).toBeLessThanOrEqual(5_500);

    t.clock.advance(4_000);
    await worker.drain();
    expect(receiver.received).toHaveLength(1); // not due yet

    t.clock.advance(2_000);
    await worker.drain();
    [delivery] = await deliveriesOf(tenant, id);
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 503]);
    const secondRetryIn = Date.parse(delivery.next_attempt_at) - t.clock.now().getTime();
    expect(secondRetryIn).toBeGreaterThanOrEqual(270_000);
    expect(secondRetryIn).toBeLessThanOrEqual(330_000);

    t.clock.advance(330_000);
    await worker.drain();
    [delivery] = await deliveriesOf(tenant, id);
    expect(delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null });
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[2]).toMatchObject({ status_code: 200, error: null });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect(verifyWebhook(secret, receiver.received[2]!, t.clock.now())).toMatchObject({ id: eventId });
  });

  it('honours Retry-After in seconds and as an HTTP-date', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.script({ status: 429, headers: { 'retry-after': '120' } });
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    let [delivery] = await deliveriesOf(tenant, id);
    expect(Date.parse(delivery.next_attempt_at) - t.clock.now().getTime()).toBe(120_000);

    t.clock.advance(119_000);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);

    const inOneHour = new Date(t.clock.now().getTime() + 1_000 + 3_600_000);
    receiver.script({ status: 503, headers: { 'retry-after': inOneHour.toUTCString() } });
    t.clock.advance(1_000);
    await worker.drain();
    [delivery] = await deliveriesOf(tenant, id);
    expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([429, 503]);
    expect(Math.abs(Date.parse(delivery.next_attempt_at) - inOneHour.getTime())).toBeLessThan(1_000);
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.script('hang');
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    // The deadline is real time by nature (a socket timer); it is the one real wait in this file.
    await createWorker(t.deps, { deliveryTimeoutMs: 200 }).drain();
    const [delivery] = await deliveriesOf(tenant, id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/timeout/) });
  });

  it('marks a delivery exhausted after the eighth failed attempt', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.fallback = { status: 500 };
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    for (let i = 0; i < 10; i++) {
      await worker.drain();
      t.clock.advance(11 * 3600 * 1000);
    }
    const [delivery] = await deliveriesOf(tenant, id);
    expect(delivery).toMatchObject({ status: 'exhausted', next_attempt_at: null });
    expect(delivery.attempts).toHaveLength(8);
    // 27.6 h of retries is less than the 5 days that disable a subscription.
    expect((await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`))).webhook.active).toBe(true);
  });

  it('counts every attempt outcome in the tourbook_webhook_deliveries_total metric', async () => {
    const count = async (outcome: string) => {
      const text = (await t.anonymous.get('/metrics')).text;
      const match = new RegExp(`^tourbook_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec(text);
      return match ? Number(match[1]) : 0;
    };
    // The metric counts every tenant's deliveries, and the order of the tests is shuffled: run out the retries earlier
    // tests left (their whole schedule is under 28 h) so that none falls due inside this test's window.
    for (let i = 0; i < 10; i++) {
      await worker.drain();
      t.clock.advance(11 * 3600 * 1000);
    }
    await worker.drain();
    const before = { succeeded: await count('succeeded'), failed: await count('failed') };
    const tenant = await t.createTenant();
    await subscribe(tenant);
    receiver.fallback = { status: 500 };
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    expect(await count('failed')).toBe(before.failed + 1);
    receiver.fallback = { status: 204 };
    t.clock.advance(6_000);
    await worker.drain();
    expect(await count('succeeded')).toBe(before.succeeded + 1);
  });

  it('disables a subscription whose endpoint answers 410 and e-mails the admins', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.script({ status: 410 });
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    const { webhook } = await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`));
    expect(webhook).toMatchObject({ active: false, disabled_reason: 'gone' });

    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    expect(receiver.received).toHaveLength(1);

    const mails = fs.readdirSync(path.join(t.config.dataDir, 'mail')).map((f) => fs.readFileSync(path.join(t.config.dataDir, 'mail', f), 'utf8'));
    const notice = mails.find((m) => m.includes(`To: admin@${tenant.tenantId}.tourbook.local`));
    expect(notice).toBeDefined();
    expect(notice).toContain(`Subject: Webhook disabled: ${receiver.url}`);
    expect(notice!.replace(/=\n/g, '')).toContain(`subscription ${id}`);
  });

  it('disables a subscription that has only failed for 5 days, and not before', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.fallback = { status: 500 };
    for (let day = 0; day < 5; day++) {
      await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
      await worker.drain();
      expect((await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`))).webhook.active, `day ${day}`).toBe(true);
      t.clock.advance(24 * 3600 * 1000);
    }
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    expect((await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`))).webhook).toMatchObject({ active: false, disabled_reason: 'failing' });
  });

  it('starts the 5-day failure clock afresh after a success', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant, { events: ['tour.modified'] });
    receiver.fallback = { status: 500 };
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    t.clock.advance(4 * 24 * 3600 * 1000);
    receiver.script({ status: 200 });
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    t.clock.advance(2 * 24 * 3600 * 1000);
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    expect((await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}`))).webhook.active).toBe(true);
  });

  it('signs with the old and the new secret for 24 hours after a rotation', async () => {
    const tenant = await t.createTenant();
    const { id, secret: oldSecret } = await subscribe(tenant);
    const rotated = await expectOk(tenant.admin.post(`/api/admin/webhooks/${id}/rotate_secret`));
    const newSecret = rotated.webhook.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);

    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    const during = receiver.received[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(oldSecret, during, t.clock.now())).toBeTruthy();
    expect(verifyWebhook(newSecret, during, t.clock.now())).toBeTruthy();

    t.clock.advance(24 * 3600 * 1000 + 1_000);
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWebhook(newSecret, after, t.clock.now())).toBeTruthy();
    expect(() => verifyWebhook(oldSecret, after, t.clock.now())).toThrow();
  });

  it('loses nothing when a worker dies holding a delivery: it is sent once its lease ends', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain(); // fan-out and delivery
    expect(receiver.received).toHaveLength(1);
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    // Fan out, then let a worker that is about to die lease the delivery and never report back.
    await fanOutEvents(t.deps);
    const leased = await claimDueDeliveries(t.deps.db, t.clock.now(), 'dead-worker', 60_000, 10);
    expect(leased).toHaveLength(1);

    await worker.drain();
    expect(receiver.received).toHaveLength(1); // still leased by the dead worker
    t.clock.advance(61_000);
    await worker.drain();
    expect(receiver.received).toHaveLength(2);
    expect((await deliveriesOf(tenant, id)).map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded']);
  });
});

describe('delivery log and recovery', () => {
  it('filters the delivery log by status and event type and pages through it', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.script({ status: 500 });
    await emit(tenant.tenantId, 'tour.created', { tour_id: newId() });
    await worker.drain();
    await emit(tenant.tenantId, 'booking.created', { booking_id: newId() });
    await emit(tenant.tenantId, 'booking.modified', { booking_id: newId() });
    await worker.drain();

    expect((await deliveriesOf(tenant, id, '?filters[status]=failed')).map((d: { event_type: string }) => d.event_type)).toEqual(['tour.created']);
    expect((await deliveriesOf(tenant, id, '?filters[event_type]=booking.created'))).toHaveLength(1);
    const first = await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}/deliveries?limit=2`));
    expect(first.deliveries).toHaveLength(2);
    expect(first.meta.has_more).toBe(true);
    const second = await expectOk(tenant.admin.get(`/api/admin/webhooks/${id}/deliveries?limit=2&cursor=${first.meta.next_cursor}`));
    expect(second.deliveries).toHaveLength(1);
    expect(second.meta).toEqual({ next_cursor: null, has_more: false });
    expect((await tenant.admin.get(`/api/admin/webhooks/${id}/deliveries?filters[colour]=red`)).status).toBe(400);
  });

  it('redelivers one delivery now, with the same event id', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    const eventId = await emit(tenant.tenantId, 'tour.created', { tour_id: newId() });
    await worker.drain();
    const [delivery] = await deliveriesOf(tenant, id);
    const res = await tenant.admin.post(`/api/admin/webhooks/${id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({ id: delivery.id, status: 'pending' });
    await worker.drain();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect((await deliveriesOf(tenant, id))[0].attempts).toHaveLength(2);
    expect((await tenant.admin.post(`/api/admin/webhooks/${id}/deliveries/${newId()}/redeliver`)).status).toBe(404);
  });

  it('refuses to redeliver while an attempt is in flight, so one delivery is never attempted twice at once', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    await emit(tenant.tenantId, 'tour.created', { tour_id: newId() });
    await fanOutEvents(t.deps);
    const [leased] = await claimDueDeliveries(t.deps.db, t.clock.now(), 'busy-worker', 60_000, 10);
    const url = `/api/admin/webhooks/${id}/deliveries/${leased!.id}/redeliver`;
    const res = await tenant.admin.post(url);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('delivery_in_flight');
    t.clock.advance(61_000);
    expect((await tenant.admin.post(url)).status).toBe(202);
  });

  it('recovers every failed or exhausted delivery since a time, and no other', async () => {
    const tenant = await t.createTenant();
    const { id } = await subscribe(tenant);
    receiver.fallback = { status: 500 };
    await emit(tenant.tenantId, 'tour.created', { tour_id: newId() });
    await worker.drain();
    t.clock.advance(3600_000);
    const since = t.clock.now().toISOString();
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await emit(tenant.tenantId, 'tour.modified', { tour_id: newId() });
    await worker.drain();
    receiver.fallback = { status: 200 };
    receiver.received.length = 0;

    const res = await tenant.admin.post(`/api/admin/webhooks/${id}/recover`, { since });
    expect(res.status).toBe(202);
    expect(res.body.recovery).toEqual({ since, requeued: 2 });
    await worker.drain();
    expect(receiver.received.map((r) => r.json.type)).toEqual(['tour.modified', 'tour.modified']);
    expect((await deliveriesOf(tenant, id, '?filters[status]=failed')).map((d: { event_type: string }) => d.event_type)).toEqual(['tour.created']);
  });

  it('refuses a stray body on its bodiless actions (rotate_secret, test, redeliver) and changes nothing', async () => {
    const tenant = await t.createTenant();
    const { id, secret } = await subscribe(tenant);
    for (const action of ['rotate_secret', 'test', `deliveries/${newId()}/redeliver`]) {
      const res = await tenant.admin.post(`/api/admin/webhooks/${id}/${action}`, { secret: 'whsec_mine' });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ error_code: 'validation_failed', errors: [{ pointer: '/secret', code: 'unknown_field' }] });
    }
    await worker.drain();
    expect(receiver.received).toHaveLength(0);
    expect(await deliveriesOf(tenant, id)).toEqual([]);
    // The secret did not change: a test ping still verifies with the one the create answered.
    expect((await tenant.admin.post(`/api/admin/webhooks/${id}/test`, {})).status).toBe(202);
    await worker.drain();
    expect(verifyWebhook(secret, receiver.received[0]!, t.clock.now())).toBeTruthy();
  });

  it('sends a webhook.test event to the one subscription it was asked for', async () => {
    const tenant = await t.createTenant();
    const target = await subscribe(tenant, { events: ['tour.created'] });
    const bystander = await subscribe(tenant);
    const res = await tenant.admin.post(`/api/admin/webhooks/${target.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.json).toMatchObject({ type: 'webhook.test', resource_type: 'webhook', event: 'test', data: { subscription_id: target.id } });
    expect(verifyWebhook(target.secret, receiver.received[0]!, t.clock.now())).toBeTruthy();
    expect(await deliveriesOf(tenant, bystander.id)).toEqual([]);
  });
});

describe('webhook targets when private addresses are not allowed', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await buildTestApp({ webhooksAllowPrivateTargets: false });
  });
  afterAll(async () => strict.close());

  it('refuses loopback, private and link-local targets, also behind a host name', async () => {
    const tenant = await strict.createTenant();
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'https://[::1]/x', 'http://10.0.0.8/x', 'http://192.168.1.1/x', 'http://169.254.169.254/latest']) {
      const res = await tenant.admin.post('/api/admin/webhooks', { webhook: { url, events: ['*'] } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ pointer: '/webhook/url', code: 'private_target' });
    }
    const update = await tenant.admin.post('/api/admin/webhooks', { webhook: { url: 'https://93.184.215.14/hooks', events: ['*'] } });
    expect(update.status).toBe(201);
    const patched = await tenant.admin.patch(`/api/admin/webhooks/${update.body.webhook.id}`, { webhook: { url: 'http://127.0.0.1/x' } });
    expect(patched.status).toBe(422);
  });
});
