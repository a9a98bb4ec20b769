// The driver app's offline queue (web/driver/queue/outbox.ts, the app's own rules and answer classification) against
// the real server across a sign-out and sign-in (issue 35, decision 1620): a step the server applied but whose answer
// the phone never got goes again with its key under the new session, and the server replays its first answer — the
// app does not tell the driver "not accepted" for a step that took effect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify, Outbox, type OutboxStore, type QueuedAction, type SendResult } from '../../web/driver/queue/outbox.ts';
import { buildTestApp, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../factories.ts';

let t: TestApp;
let tenant: TestTenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
});
afterAll(async () => t.close());

const PASSWORD = 'correct horse battery';
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

function memoryStore(): OutboxStore {
  const rows = new Map<string, QueuedAction>();
  return { all: async () => [...rows.values()], put: async (a) => void rows.set(a.key, structuredClone(a)), delete: async (k) => void rows.delete(k) };
}

async function signInBrowser(email: string): Promise<string> {
  const res = await t.anonymous.post('/api/session', { user: { email, password: PASSWORD } }, { headers: SAME_ORIGIN });
  expect(res.status).toBe(200);
  return /^tourbook_session=([^;]*)/.exec(String(res.headers['set-cookie']))![1]!;
}

describe('the offline queue across a sign-out', () => {
  it('replays a step applied before signing out as applied after signing in again, on the same key', async () => {
    const area = await createServiceArea(tenant.admin, {});
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const email = `queue-${Date.now()}@example.com`;
    const driver = await createUser(tenant.admin, { role: 'driver', email, password: PASSWORD });
    const booking = await createBooking(tenant.admin, { service_id: service.id, managing_organization_ids: driver.user.organization_ids });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const stopId: string = tour.stops.find((s: { tour_position: number }) => s.tour_position === 0).id;

    let cookie = await signInBrowser(email);
    // The first attempt reaches the server, which applies it; the phone loses the answer (the connection dropped).
    let loseAnswer = true;
    const statuses: number[] = [];
    const replayed: boolean[] = [];
    const send = async (action: QueuedAction): Promise<SendResult> => {
      const res = await t.anonymous.request(action.method, action.path, action.body, {
        headers: { ...SAME_ORIGIN, cookie: `tourbook_session=${cookie}`, 'idempotency-key': action.key },
      });
      statuses.push(res.status);
      replayed.push(res.headers['idempotent-replayed'] === 'true');
      if (loseAnswer) return { kind: 'retry' };
      return classify(res.status, res.body, typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null);
    };
    let n = 0;
    const outbox = new Outbox(memoryStore(), send, { now: () => t.clock.now().getTime(), newKey: () => `queue-${Date.now()}-${++n}` });
    await outbox.enqueue({ kind: 'approach', tourId: tour.id, stopId, path: `/api/stops/${stopId}/approach`, body: {} });
    expect((await outbox.flush()).sent).toBe(0);
    expect(statuses).toEqual([200]);

    // The driver signs out and in again: a new session, a new credential.
    expect((await t.anonymous.delete('/api/session', { headers: { ...SAME_ORIGIN, cookie: `tourbook_session=${cookie}` } })).status).toBeLessThan(300);
    cookie = await signInBrowser(email);
    loseAnswer = false;

    const result = await outbox.flush(true);
    expect(statuses).toEqual([200, 200]);
    expect(result).toEqual({ sent: 1, refused: 0, retryAt: null });
    expect(outbox.snapshot()).toEqual([]);
    // Applied once: the second request was the server's replay of the first answer.
    expect(replayed).toEqual([false, true]);
    const stops = (await expectOk(tenant.admin.get(`/api/hailing/tours/${tour.id}`))).tour.stops as { id: string; status: string }[];
    expect(stops.find((s) => s.id === stopId)!.status).toBe('approaching');
  });
});
