// A position whose commit wrote outbox events names them in its notice, and the hub reads them at once (decision 1776):
// with a poll interval far longer than the test, the ETA events still reach the stream, by the transactional path (a
// tour's first position) and by the fast path (the next ones).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { openSse, type SseStream } from '../../../test/sse-client.ts';
import { MAX_NOTICE_EVENT_IDS, positionNotice } from './views.ts';

let t: TestApp;
let base: string;
const open: SseStream[] = [];

beforeAll(async () => {
  // Ten minutes between polls: only a wake-up brings an outbox event within the test's seconds.
  t = await buildTestApp({ live: { ...loadConfig({}).live, stream: { pollMs: 600_000, heartbeatMs: 60_000, revalidateMs: 60_000 } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of open) s.close();
  await t.close();
});

describe('the outbox read woken by a position', () => {
  it('names the events in the notice, up to what fits a NOTIFY payload; past that, an empty list asks for a poll', () => {
    const row = { id: '0190a0c0-0000-7000-8000-000000000001', tenantId: 't', tourId: 'tour', driverId: 'd', lat: 1, lng: 2, heading: null, speed: null, accuracy: null, recordedAt: new Date(0), receivedAt: new Date(0), filtered: null, becameCurrent: true };
    const tour = { id: 'tour', serviceAreaId: 'area' };
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `0190a0c0-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(positionNotice(tour, null, row, []).outbox).toBeUndefined();
    expect(positionNotice(tour, null, row, ids(MAX_NOTICE_EVENT_IDS)).outbox).toEqual(ids(MAX_NOTICE_EVENT_IDS));
    expect(positionNotice(tour, null, row, ids(MAX_NOTICE_EVENT_IDS + 1)).outbox).toEqual([]);
    // What PostgreSQL accepts as a NOTIFY payload: fewer than 8,000 bytes.
    expect(JSON.stringify(positionNotice(tour, 'org', row, ids(MAX_NOTICE_EVENT_IDS))).length).toBeLessThan(8_000);
  });

  it('brings the ETAs a position moved to the stream at once, on the first position and on later ones', async () => {
    const tenant = await t.createTenant();
    const area = await createServiceArea(tenant.admin);
    const service = await createService(tenant.admin, { service_area_id: area.id });
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const stream = await openSse(base, '/api/live', { authorization: `Bearer ${tenant.adminToken}` });
    open.push(stream);
    const etaFrames = () => stream.frames.filter((f) => f.event === 'tour.etas_recalculated').length;
    // A fix five minutes after the last, the clock with it (a plausible speed for the distances below).
    const post = (lat: number) => {
      t.clock.advanceSeconds(300);
      return expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: { lat, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    };

    await post(52.49);
    await stream.waitFor(() => etaFrames() === 1, 5_000);
    // 4.4 km on: the ETAs move by more than what is told again (60 s), through the fast path.
    await post(52.45);
    await stream.waitFor(() => etaFrames() === 2, 5_000);
    // Standing still five minutes moves every ETA by five minutes: told again. The wake-up is what brought each.
    await post(52.45);
    await stream.waitFor(() => etaFrames() === 3, 5_000);
    expect(stream.frames.filter((f) => f.event === 'tour.driver_location_updated')).toHaveLength(3);
  });
});
