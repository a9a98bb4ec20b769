import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../test/app.ts';
import { createWebhook } from '../../test/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { newId } from '../shared/ids.ts';
import { registerDebouncedEvent, scheduleDebouncedEvent } from './debounce.ts';
import { createWorker, type Worker } from './loop.ts';

// A test-only resource: a counter per id, held in memory. `webhook.test` carries it because that type goes to the one
// subscription named in its data, so the mechanism is tested without borrowing a domain event's builder.
const counters = new Map<string, { subscriptionId: string; value: number }>();
registerDebouncedEvent('webhook.test', async (_q, _tenantId, resourceId) => {
  const counter = counters.get(resourceId);
  return counter ? { subscription_id: counter.subscriptionId, counter_id: resourceId, value: counter.value } : null;
});

let t: TestApp;
let worker: Worker;
let receiver: WebhookReceiver;
let tenant: TestTenant;
let subscriptionId: string;

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps);
});
afterAll(async () => t.close());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  tenant = await t.createTenant();
  subscriptionId = (await createWebhook(tenant.admin, receiver.url)).id;
});
afterEach(async () => receiver.close());

/** A change to the counter, and its debounced event scheduled in the same transaction, as an operation would. */
async function change(counterId: string, value: number): Promise<void> {
  counters.set(counterId, { subscriptionId, value });
  await t.deps.db.transaction((tx) =>
    scheduleDebouncedEvent(tx, { tenantId: tenant.tenantId, type: 'webhook.test', resourceId: counterId, windowSeconds: 120, now: t.clock.now() }),
  );
}

describe('debounced events', () => {
  it('collapses a burst within the quiet window into one delivery, 120 s after the last change, with the state at send time', async () => {
    const counterId = newId();
    for (let value = 1; value <= 5; value++) {
      await change(counterId, value);
      await worker.drain();
      t.clock.advanceSeconds(30);
    }
    // The last change was 30 s ago: the window has 90 s to run.
    t.clock.advanceSeconds(89);
    await worker.drain();
    expect(receiver.received).toHaveLength(0);

    // State that changes without a new schedule is still what goes out: the payload is built at send time.
    counters.get(counterId)!.value = 6;
    t.clock.advanceSeconds(1);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.json.data).toEqual({ subscription_id: subscriptionId, counter_id: counterId, value: 6 });
    expect(receiver.received[0]!.json.timestamp).toBe(t.clock.now().toISOString());

    t.clock.advanceSeconds(600);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
  });

  it('sends one event per change when changes are more than 120 s apart', async () => {
    const counterId = newId();
    for (let value = 1; value <= 3; value++) {
      await change(counterId, value);
      t.clock.advanceSeconds(121);
      await worker.drain();
    }
    expect(receiver.received.map((r) => r.json.data.value)).toEqual([1, 2, 3]);
  });

  it('keeps separate windows per resource', async () => {
    const a = newId();
    const b = newId();
    await change(a, 1);
    t.clock.advanceSeconds(60);
    await change(b, 1);
    t.clock.advanceSeconds(60);
    await worker.drain();
    expect(receiver.received.map((r) => r.json.data.counter_id)).toEqual([a]);
    t.clock.advanceSeconds(60);
    await worker.drain();
    expect(receiver.received.map((r) => r.json.data.counter_id)).toEqual([a, b]);
  });
});
