// tour.compensation_updated through the debounce: one delivery after a 120 s quiet window, built at send time.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createWebhook, expectOk, mergeIntoTour } from '../../../test/factories.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';

let t: TestApp;
let worker: Worker;
let tenant: TestTenant;
let receiver: WebhookReceiver;
let secret: string;
let service: { id: string; service_area_id: string };

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  tenant = await t.createTenant();
  secret = (await createWebhook(tenant.admin, receiver.url, { events: ['tour.compensation_updated'] })).secret;
  service = await createService(tenant.admin);
});
afterEach(async () => receiver.close());

const url = (tourId: string, rest: string) => `/api/tours/${tourId}/compensation${rest}`;
const eur = (amount: number, label = 'label') => ({ amount, currency: 'EUR', label });

async function newTour() {
  return mergeIntoTour(tenant.admin, [(await createBooking(tenant.admin, { service_id: service.id })).id]);
}

describe('tour.compensation_updated', () => {
  it('collapses a burst of changes into one delivery 120 s after the last, with exactly the payload of that moment (docs/api-guide.md "tour.compensation_updated")', async () => {
    const tour = await newTour();
    await expectOk(tenant.admin.put(url(tour.id, '/base'), eur(4000)));
    t.clock.advanceSeconds(60);
    await worker.drain();
    await expectOk(tenant.admin.put(url(tour.id, '/bonus/night'), eur(300)));
    await expectOk(tenant.admin.put(url(tour.id, '/bonus/bulky'), eur(200)));
    t.clock.advanceSeconds(100);
    await worker.drain();
    const lastChange = t.clock.now().toISOString();
    await expectOk(tenant.admin.delete(url(tour.id, '/bonus/bulky')));
    t.clock.advanceSeconds(119);
    await worker.drain();
    expect(receiver.received).toHaveLength(0);

    t.clock.advanceSeconds(1);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    const webhook = receiver.received[0]!;
    verifyWebhook(secret, webhook, t.clock.now());
    expect(webhook.json.type).toBe('tour.compensation_updated');
    expect(webhook.json.data).toEqual({
      tour_id: tour.id,
      service_area_id: service.service_area_id,
      currency: 'EUR',
      total_amount: 4300,
      breakdown: { base_earnings: { amount: 4000 }, bonuses: [{ key: 'night', amount: 300 }], tips: { amount: 0 } },
      compensation_updated_at: lastChange,
    });

    t.clock.advanceSeconds(3600);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps one window per tour and sends nothing for a write that changes nothing', async () => {
    const [a, b] = [await newTour(), await newTour()];
    await expectOk(tenant.admin.put(url(a.id, '/base'), eur(1)));
    t.clock.advanceSeconds(100);
    await expectOk(tenant.admin.put(url(b.id, '/base'), eur(2)));
    // Same value again: no change, so a's window is not moved.
    await expectOk(tenant.admin.put(url(a.id, '/base'), eur(1)));
    t.clock.advanceSeconds(20);
    await worker.drain();
    expect(receiver.received.map((r) => r.json.data.tour_id)).toEqual([a.id]);
    t.clock.advanceSeconds(100);
    await worker.drain();
    expect(receiver.received.map((r) => r.json.data.tour_id)).toEqual([a.id, b.id]);
  });
});
