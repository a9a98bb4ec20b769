// The outbox's rules: actions go in the order taken, a lost connection keeps them (with their keys) and backs off,
// a refusal stays until dismissed, and what was stored in IndexedDB comes back after a restart.
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { idbStore, openDatabase } from './idb-store.ts';
import { backoffDelay, classify, Outbox, type OutboxStore, type QueuedAction, type SendResult } from './outbox.ts';
import { projectTour, stopActions } from './project.ts';

function memoryStore(): OutboxStore & { rows: Map<string, QueuedAction> } {
  const rows = new Map<string, QueuedAction>();
  return { rows, all: async () => [...rows.values()], put: async (a) => void rows.set(a.key, structuredClone(a)), delete: async (k) => void rows.delete(k) };
}

function harness<S extends OutboxStore>(answers: (action: QueuedAction) => SendResult, store: S) {
  let now = 1_000_000;
  let n = 0;
  const sent: { key: string; path: string }[] = [];
  const outbox = new Outbox(store, async (action) => {
    sent.push({ key: action.key, path: action.path });
    return answers(action);
  }, { now: () => now, newKey: () => `key-${++n}`, baseDelayMs: 1000, maxDelayMs: 8000 });
  return { outbox, sent, store, advance: (ms: number) => (now += ms), now: () => now };
}

const take = (outbox: Outbox, path: string) => outbox.enqueue({ kind: 'approach', tourId: 't', stopId: 's', path, body: {} });
const done: SendResult = { kind: 'done', status: 200, body: {} };

describe('the outbox', () => {
  it('sends actions once each, in the order taken', async () => {
    const h = harness(() => done, memoryStore());
    await take(h.outbox, '/a');
    await take(h.outbox, '/b');
    await take(h.outbox, '/c');
    const result = await h.outbox.flush();
    expect(h.sent.map((s) => s.path)).toEqual(['/a', '/b', '/c']);
    expect(result).toEqual({ sent: 3, refused: 0, retryAt: null });
    expect(h.outbox.snapshot()).toEqual([]);
    await h.outbox.flush();
    expect(h.sent).toHaveLength(3);
  });

  it('says which tap the device could not store, sends nothing for it, and forgets the notice once dismissed', async () => {
    const store = memoryStore();
    const h = harness(() => done, { ...store, put: async () => Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError')) });
    let notified = 0;
    h.outbox.subscribe(() => notified++);
    await expect(h.outbox.enqueue({ kind: 'complete', tourId: 't', stopId: 's', path: '/c', body: {} })).rejects.toThrow('quota');
    expect(h.outbox.snapshot()).toEqual([]);
    expect(h.outbox.notKeptSnapshot()).toEqual([{ id: 1, kind: 'complete', message: 'The quota has been exceeded.' }]);
    expect(notified).toBeGreaterThan(0);
    expect(await h.outbox.flush()).toEqual({ sent: 0, refused: 0, retryAt: null });
    expect(h.sent).toEqual([]);
    h.outbox.dismissNotKept(1);
    expect(h.outbox.notKeptSnapshot()).toEqual([]);
  });

  it('keeps the order and the keys when the connection is lost, and retries with growing delays', async () => {
    let online = false;
    const h = harness(() => (online ? done : { kind: 'retry' }), memoryStore());
    const first = await take(h.outbox, '/a');
    await take(h.outbox, '/b');
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await h.outbox.flush();
      delays.push(result.retryAt! - h.now());
      h.advance(result.retryAt! - h.now());
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 8000]);
    // Only the first was tried: what follows may depend on it.
    expect(new Set(h.sent.map((s) => s.path))).toEqual(new Set(['/a']));
    expect(new Set(h.sent.map((s) => s.key))).toEqual(new Set([first.key]));
    online = true;
    const result = await h.outbox.flush();
    expect(result.sent).toBe(2);
    expect(h.sent.slice(-2).map((s) => s.path)).toEqual(['/a', '/b']);
    expect(h.sent.at(-2)!.key).toBe(first.key);
  });

  it('waits out the backoff unless forced (the connection came back)', async () => {
    let online = false;
    const h = harness(() => (online ? done : { kind: 'retry' }), memoryStore());
    await take(h.outbox, '/a');
    await h.outbox.flush();
    online = true;
    expect((await h.outbox.flush()).sent).toBe(0);
    expect((await h.outbox.flush(true)).sent).toBe(1);
  });

  it('honours Retry-After when it is longer than the backoff', async () => {
    const h = harness(() => ({ kind: 'retry', retryAfterMs: 30_000 }), memoryStore());
    await take(h.outbox, '/a');
    expect((await h.outbox.flush()).retryAt! - h.now()).toBe(30_000);
  });

  it('keeps a refused action with its problem until the driver dismisses it, and goes on with the rest', async () => {
    const h = harness((a) => (a.path === '/a' ? { kind: 'refused', status: 409, problem: { status: 409, error_code: 'invalid_transition', detail: 'no' } } : done), memoryStore());
    await take(h.outbox, '/a');
    await take(h.outbox, '/b');
    expect(await h.outbox.flush()).toEqual({ sent: 1, refused: 1, retryAt: null });
    expect(h.outbox.snapshot()).toHaveLength(1);
    expect(h.outbox.snapshot()[0]).toMatchObject({ path: '/a', state: 'refused', problem: { error_code: 'invalid_transition' } });
    await h.outbox.flush();
    expect(h.sent).toHaveLength(2);
    await h.outbox.dismiss(h.outbox.snapshot()[0]!.key);
    expect(h.outbox.snapshot()).toEqual([]);
    expect(h.store.rows.size).toBe(0);
  });

  it('never dismisses an action still waiting to be sent', async () => {
    const h = harness(() => ({ kind: 'retry' }), memoryStore());
    const action = await take(h.outbox, '/a');
    await h.outbox.dismiss(action.key);
    expect(h.outbox.snapshot()).toHaveLength(1);
  });

  it('treats a thrown sender as a lost connection', async () => {
    const h = harness(() => {
      throw new Error('offline');
    }, memoryStore());
    await take(h.outbox, '/a');
    expect((await h.outbox.flush()).retryAt).not.toBeNull();
    expect(h.outbox.snapshot()[0]!.state).toBe('waiting');
  });

  it('runs one flush at a time: a second call while sending sends nothing twice', async () => {
    const h = harness(() => done, memoryStore());
    await take(h.outbox, '/a');
    await Promise.all([h.outbox.flush(), h.outbox.flush()]);
    expect(h.sent).toHaveLength(1);
  });

  it('sends the next action while the previous one is being removed from the store, and ends the flush after every removal', async () => {
    const store = memoryStore();
    const pending: (() => void)[] = [];
    const slow: OutboxStore = {
      ...store,
      delete: (key) =>
        new Promise<void>((resolve) => {
          pending.push(() => {
            store.rows.delete(key);
            resolve();
          });
        }),
    };
    const h = harness(() => done, slow);
    await take(h.outbox, '/a');
    await take(h.outbox, '/b');
    let ended = false;
    const flushed = h.outbox.flush().then((result) => {
      ended = true;
      return result;
    });
    await expect.poll(() => h.sent.length).toBe(2);
    expect(store.rows.size).toBe(2);
    expect(h.outbox.snapshot()).toEqual([]);
    expect(ended).toBe(false);
    for (const resolve of pending) resolve();
    expect(await flushed).toEqual({ sent: 2, refused: 0, retryAt: null });
    expect(store.rows.size).toBe(0);
  });

  it('sends an action again with its key when the app closed before its removal was stored', async () => {
    const factory = new IDBFactory();
    const first = harness(() => done, idbStore(openDatabase('outbox-unremoved', factory)));
    const a = await take(first.outbox, '/a');
    // The removal never reached the store: as if the app closed right after the answer.
    const lost = harness(() => done, { ...idbStore(openDatabase('outbox-unremoved', factory)), delete: () => new Promise<void>(() => undefined) });
    await lost.outbox.load();
    void lost.outbox.flush(true);
    await expect.poll(() => lost.sent.length).toBe(1);
    const again = harness(() => done, idbStore(openDatabase('outbox-unremoved', factory)));
    await again.outbox.flush(true);
    expect(again.sent).toEqual([{ key: a.key, path: '/a' }]);
  });

  it('keeps actions and their keys in IndexedDB across a restart', async () => {
    const factory = new IDBFactory();
    const first = harness(() => ({ kind: 'retry' }), idbStore(openDatabase('outbox-test', factory)));
    const a = await take(first.outbox, '/a');
    const b = await take(first.outbox, '/b');
    await first.outbox.flush();
    // A new page: a new outbox over the same database.
    const second = harness(() => done, idbStore(openDatabase('outbox-test', factory)));
    await second.outbox.load();
    expect(second.outbox.snapshot().map((x) => [x.key, x.path])).toEqual([
      [a.key, '/a'],
      [b.key, '/b'],
    ]);
    await second.outbox.flush(true);
    expect(second.sent).toEqual([
      { key: a.key, path: '/a' },
      { key: b.key, path: '/b' },
    ]);
    const third = harness(() => done, idbStore(openDatabase('outbox-test', factory)));
    await third.outbox.load();
    expect(third.outbox.snapshot()).toEqual([]);
  });
});

describe('classify', () => {
  it('retries what may succeed later and refuses what will not', () => {
    expect(classify(200, { stop: {} }, null).kind).toBe('done');
    expect(classify(503, null, '5')).toEqual({ kind: 'retry', retryAfterMs: 5000 });
    expect(classify(429, { error_code: 'rate_limited' }, null).kind).toBe('retry');
    expect(classify(409, { error_code: 'idempotency_key_in_use' }, null).kind).toBe('retry');
    expect(classify(401, { error_code: 'unauthenticated' }, null).kind).toBe('retry');
    expect(classify(404, { error_code: 'not_found', detail: 'Stop not found.' }, null)).toEqual({ kind: 'refused', status: 404, problem: { status: 404, error_code: 'not_found', detail: 'Stop not found.' } });
    expect(classify(409, { error_code: 'invalid_transition', detail: 'x' }, null).kind).toBe('refused');
  });

  it('keeps why a failure outcome was not available, so the app can say the tour was taken off the driver', () => {
    expect(classify(422, { error_code: 'outcome_not_available', detail: 'Only …', reason_key: 'not_permitted' }, null)).toEqual({
      kind: 'refused',
      status: 422,
      problem: { status: 422, error_code: 'outcome_not_available', detail: 'Only …', reason_key: 'not_permitted' },
    });
  });

  it('doubles the delay up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, 500, 10_000))).toEqual([500, 1000, 2000, 4000, 8000, 10_000]);
  });
});

describe('projectTour', () => {
  const stop = (id: string, position: number, status = 'scheduled', group: string | null = null) =>
    ({ id, tour_position: position, status, group }) as unknown as NonNullable<Parameters<typeof projectTour>[0]['stops']>[number];
  const tour = (status: string, stops: ReturnType<typeof stop>[]) => ({ id: 't', status, driver_id: 'd', stops }) as unknown as Parameters<typeof projectTour>[0];
  const action = (kind: QueuedAction['kind'], stopId: string | null, state: QueuedAction['state'] = 'waiting') => ({ kind, tourId: 't', stopId, state }) as QueuedAction;

  it('applies waiting actions in order and completes the tour when every stop is final', () => {
    const projected = projectTour(tour('claimed', [stop('a', 1), stop('b', 0)]), [action('start', null), action('arrive', 'b'), action('complete', 'b'), action('approach', 'a'), action('fail', 'a')], 'd');
    expect(projected.stops.map((s) => [s.id, s.status, s.waiting])).toEqual([
      ['b', 'completed', true],
      ['a', 'failed', true],
    ]);
    expect(projected.status).toBe('completed');
  });

  it('ignores refused actions and other tours', () => {
    const projected = projectTour(tour('en_route', [stop('a', 0)]), [action('complete', 'a', 'refused'), { ...action('approach', 'a'), tourId: 'other' }], 'd');
    expect(projected.stops[0]!.status).toBe('scheduled');
  });

  it('offers only the steps the state allows, one stop under way at a time', () => {
    const projected = projectTour(tour('en_route', [stop('a', 0, 'approaching'), stop('b', 1)]), [], 'd');
    expect(stopActions(projected, projected.stops[0]!)).toEqual({ approach: false, arrive: true, complete: true, fail: true });
    expect(stopActions(projected, projected.stops[1]!)).toEqual({ approach: false, arrive: false, complete: false, fail: false });
    const claimed = projectTour(tour('claimed', [stop('a', 0)]), [], 'd');
    expect(stopActions(claimed, claimed.stops[0]!)).toEqual({ approach: false, arrive: false, complete: false, fail: false });
  });
});
