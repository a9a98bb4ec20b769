// No timing oracle (issue 24): a token no link ever had and a token that was rotated away take the same path — hash,
// one indexed lookup by the hash, 404 — so they must answer alike in shape and, statistically, in time. Never an
// absolute timing: the samples are interleaved and compared by rank, and a positive control (a live token, which
// does more work) shows the statistic would notice a real difference.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { AppError } from '../../http/errors.ts';
import { readTracking } from './operations.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ publicUrl: 'https://track.example', reportsMasterKey: randomBytes(32).toString('base64'), rateLimit: { perSecond: 100_000, burst: 100_000 } });
});
afterAll(async () => t.close());

const tokenOf = (url: string) => url.split('/').pop()!;

/** A live token, one rotated away from the same booking, and a token no link ever had (same length and alphabet). */
async function tokens() {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin);
  const service = await createService(tn.admin, { service_area_id: area.id });
  const booking = await createBooking(tn.admin, { service_id: service.id });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  await tourEnRoute(tn.admin, [booking.id], driver.id);
  const link = async () => (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url as string;
  const rotated = tokenOf(await link());
  await expectOk(tn.admin.post(`/api/hailing/bookings/${booking.id}/tracking/rotate`));
  const live = tokenOf(await link());
  const unknown = randomBytes(32).toString('base64url');
  expect([rotated.length, live.length, unknown.length]).toEqual([43, 43, 43]);
  return { live, rotated, unknown };
}

/** Elapsed time of one read of `token` (whatever it answers). */
async function timeRead(token: string): Promise<number> {
  const started = performance.now();
  try {
    await readTracking(t.deps, token, 'en');
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
  return performance.now() - started;
}

/**
 * Samples of two tokens in a random interleaved order (drift and load spikes fall on both alike), after a warm-up.
 * Answers the Mann–Whitney z: near 0 when neither tends to be faster, large when one does.
 */
async function rankZ(a: string, b: string, n: number): Promise<number> {
  for (let i = 0; i < 20; i++) {
    await timeRead(a);
    await timeRead(b);
  }
  const order = [...Array<string>(n).fill(a), ...Array<string>(n).fill(b)];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const samples: { of: 'a' | 'b'; ms: number }[] = [];
  for (const token of order) samples.push({ of: token === a ? 'a' : 'b', ms: await timeRead(token) });
  const ranked = [...samples].sort((x, y) => x.ms - y.ms);
  let rankSumA = 0;
  ranked.forEach((s, i) => {
    if (s.of === 'a') rankSumA += i + 1;
  });
  const u = rankSumA - (n * (n + 1)) / 2;
  return (u - (n * n) / 2) / Math.sqrt((n * n * (2 * n + 1)) / 12);
}

describe('no timing oracle on the public read', () => {
  it('answers an unknown and a rotated token with the same status, headers and body', async () => {
    const { rotated, unknown } = await tokens();
    const [r1, r2] = [await t.anonymous.get(`/api/tracking/${rotated}`), await t.anonymous.get(`/api/tracking/${unknown}`)];
    expect([r1.status, r2.status]).toEqual([404, 404]);
    const shape = (r: typeof r1) => ({ ...r.body, instance: undefined, request_id: undefined });
    expect(shape(r1)).toEqual(shape(r2));
    const headerNames = (r: typeof r1) => Object.keys(r.headers).sort();
    expect(headerNames(r1)).toEqual(headerNames(r2));
    expect(r1.headers['content-length']).toBe(r2.headers['content-length']);
    for (const header of ['content-type', 'cache-control', 'access-control-allow-origin', 'x-robots-tag']) expect(r1.headers[header]).toBe(r2.headers[header]);
  });

  it('takes statistically the same time for an unknown and a rotated token, while a live token is told apart', async () => {
    const { live, rotated, unknown } = await tokens();
    // |z| < 4.5 fails by chance about once in 150,000 runs when both take the same path.
    const same = await rankZ(rotated, unknown, 150);
    expect(Math.abs(same)).toBeLessThan(4.5);
    // Positive control: a live token reads the booking, its stops and its tour (several statements more), and the
    // same statistic sees that — so the check above could fail if a rotated token took a different path.
    const differs = await rankZ(live, unknown, 150);
    expect(differs).toBeGreaterThan(4.5);
  });
});
