import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../test/app.ts';
import { createWebhook } from '../../test/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { newId } from '../shared/ids.ts';
import { debouncedEventJob, scheduleDebouncedEvent, type DebouncedPayloadBuilder } from './debounce.ts';
import { createWorker, type Worker } from './loop.ts';

// A test-only resource: a counter per id, held in memory, sent under a real debounced type by a builder of the test's
// own (the worker's handler for `event.debounced` replaced), so the mechanism is tested without a domain's state.
const counters = new Map<string, { value: number }>();
const counterBuilder: DebouncedPayloadBuilder = async (_q, _tenantId, resourceId) => {
  const counter = counters.get(resourceId);
  return counter ? { counter_id: resourceId, value: counter.value } : null;
};

let t: TestApp;
let worker: Worker;
let receiver: WebhookReceiver;
let tenant: TestTenant;

beforeAll(async () => {
  t = await buildTestApp();
  worker = createWorker(t.deps, { handlers: { 'event.debounced': debouncedEventJob({ 'tour.compensation_updated': counterBuilder }) } });
});
afterAll(async () => t.close());
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  tenant = await t.createTenant();
  await createWebhook(tenant.admin, receiver.url);
});
afterEach(async () => receiver.close());

/** A change to the counter, and its debounced event scheduled in the same transaction, as an operation would. */
async function change(counterId: string, value: number): Promise<void> {
  counters.set(counterId, { value });
  await t.deps.db.transaction((tx) =>
    scheduleDebouncedEvent(tx, { tenantId: tenant.tenantId, type: 'tour.compensation_updated', resourceId: counterId, windowSeconds: 120, now: t.clock.now() }),
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
    expect(receiver.received[0]!.json.data).toEqual({ counter_id: counterId, value: 6 });
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
