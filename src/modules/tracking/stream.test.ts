import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createPlace, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { openSse, type SseFrame, type SseStream } from '../../../test/sse-client.ts';
import { loadConfig } from '../../config.ts';

let t: TestApp;
let base: string;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    reportsMasterKey: randomBytes(32).toString('base64'),
    live: { ...loadConfig({}).live, stream: { pollMs: 25, heartbeatMs: 200, revalidateMs: 100 } },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of open) s.close();
  await t.close();
});

const stream = async (token: string) => {
  const s = await openSse(base, `/api/tracking/${token}/live`);
  open.push(s);
  return s;
};
const at = () => t.clock.now().toISOString();
const tokenOf = (url: string) => url.split('/').pop()!;
const tracking = (frames: SseFrame[]) => frames.filter((f) => f.event === 'tracking').map((f) => f.data.tracking);

/**
 * Counts the statements that read tracking links for any of `hashes` (a link's token hash is a parameter of each such
 * read), at the driver: the database handle's `query` (PGlite's instance or the PostgreSQL pool).
 */
function countLinkReads(hashes: string[]) {
  const target = (t.deps.database.pglite ?? t.deps.database.pool) as unknown as { query: (...args: unknown[]) => unknown };
  const original = target.query;
  let count = 0;
  target.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    const config = typeof first === 'object' && first !== null ? (first as { text?: string; values?: unknown[] }) : { text: String(first), values: second as unknown[] };
    const values = JSON.stringify(config.values ?? []);
    if (config.text?.includes('booking_tracking_links') && hashes.some((h) => values.includes(h))) count++;
    return original.apply(this, args);
  };
  return { count: () => count, stop: () => void (target.query = original) };
}

async function scene() {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { average_speed_kmh: 36 });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const places = await Promise.all([0, 1, 2, 3].map((i) => createPlace(tn.admin, { service_area_id: area.id, location: { lat: 52.5 + i * 0.01, lng: 13.4 } })));
  const b1 = await createBooking(tn.admin, { service_id: service.id, places: [places[0].id, places[1].id] });
  const b2 = await createBooking(tn.admin, { service_id: service.id, places: [places[2].id, places[3].id] });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  const tour = await tourEnRoute(tn.admin, [b1.id, b2.id], driver.id);
  const nearId: string = tour.stops[0].booking_id;
  const farId: string = tour.stops.find((s: { booking_id: string }) => s.booking_id !== nearId).booking_id;
  const token = async (id: string) => tokenOf((await expectOk(tn.admin.get(`/api/hailing/bookings/${id}`))).booking.tracking.url);
  const post = (lat: number, recordedAt = at()) => expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: recordedAt } }));
  return { tn, tour, driver, nearId, farId, token, post };
}

describe('GET /api/tracking/{token}/live', () => {
  it('gives every stream of one link each change, also when they share one read per change (decision 1104)', async () => {
    const { nearId, token, post } = await scene();
    const link = await token(nearId);
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => stream(link)));
    for (const s of streams) await s.waitFor((frames) => tracking(frames).length >= 1);
    for (const [i, lat] of [52.491, 52.4915, 52.492].entries()) {
      if (i) t.clock.advance(30_000);
      await post(lat);
      for (const s of streams) await s.waitFor((frames) => tracking(frames).some((o) => o.driver?.position?.lat === lat), 15_000);
    }
  });

  it('sends the tracking object at once and again when the driver heading here moves', async () => {
    const { nearId, token, post } = await scene();
    const s = await stream(await token(nearId));
    expect(s.status).toBe(200);
    await s.waitFor((frames) => tracking(frames).length >= 1);
    expect(tracking(s.frames)[0].driver).toEqual({ first_name: 'Erika', position: null });
    await post(52.491);
    await s.waitFor((frames) => tracking(frames).some((o) => o.driver?.position?.lat === 52.491), 15_000);
    t.clock.advance(30_000); // the next fix 111 m and 30 s later: a plausible move, not filtered as a jump
    await post(52.492);
    await s.waitFor((frames) => tracking(frames).some((o) => o.driver?.position?.lat === 52.492), 15_000);
  });

  it('never sends the position to a booking the driver is not heading to, but sends its changes', async () => {
    const { nearId, farId, token, post, tn, driver } = await scene();
    const s = await stream(await token(farId));
    await s.waitFor((frames) => tracking(frames).length >= 1);
    const before = tracking(s.frames)[0].stops_before_yours;
    await post(52.491);
    const near = (await expectOk(tn.admin.get(`/api/hailing/bookings/${nearId}`))).booking;
    await driveStop(driver.client, near.stops[0].id, 'completed');
    await s.waitFor((frames) => tracking(frames).some((o) => o.stops_before_yours === before - 1), 15_000);
    for (const o of tracking(s.frames)) expect(o.driver.position).toBeNull();
  });

  it('ends the stream of a rotated link at its next change, a driver position too, without showing it', async () => {
    const { tn, nearId, token, post } = await scene();
    const s = await stream(await token(nearId));
    await s.waitFor((frames) => tracking(frames).length >= 1);
    await expectOk(tn.admin.post(`/api/hailing/bookings/${nearId}/tracking/rotate`));
    await post(52.491);
    await Promise.race([s.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream stayed open')), 15_000))]);
    for (const o of tracking(s.frames)) expect(o.driver.position).toBeNull();
  });

  it('reads the database once per driver position for every stream of the tour, not once per stream or link (decision 1107)', { timeout: 90_000 }, async () => {
    const { nearId, farId, token, post } = await scene();
    const tokens = [await token(nearId), await token(farId)];
    const hashes = tokens.map((k) => createHash('sha256').update(k, 'utf8').digest('hex'));
    // The tour's first position (the locking path, with its events) before the streams open, 20 s before the next.
    await post(52.49, new Date(t.clock.now().getTime() - 20_000).toISOString());
    const streams = await Promise.all([0, 0, 0, 1, 1, 1].map((i) => stream(tokens[i]!)));
    for (const s of streams) await s.waitFor((frames) => tracking(frames).length >= 1);
    // The joins' own reads, and anything the first position's events cause, are over before counting.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const reads = countLinkReads(hashes);
    try {
      await post(52.491);
      for (const s of streams.slice(0, 3)) await s.waitFor((frames) => tracking(frames).some((o) => o.driver?.position?.lat === 52.491), 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      reads.stop();
    }
    // One statement told all six streams of both links the ETAs and that both links still stand.
    expect(reads.count()).toBe(1);
    for (const s of streams.slice(3)) for (const o of tracking(s.frames)) expect(o.driver.position).toBeNull();
  });

  it('answers an unknown token with 404 problem+json instead of a stream', async () => {
    const s = await stream('D'.repeat(43));
    expect(s.status).toBe(404);
  });
});
