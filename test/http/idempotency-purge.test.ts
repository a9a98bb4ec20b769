import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpiredKeys } from '../../src/http/idempotency-purge.ts';
import { KEY_TTL_MS } from '../../src/http/idempotency.ts';
import { idempotencyKeys } from '../../src/http/tables.ts';
import { createWorker } from '../../src/worker/loop.ts';
import { buildTestApp, type TestApp } from '../app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const HOUR = 3600 * 1000;
const stored = async (key: string) => (await t.deps.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).length;
let made = 0;
// Each request its own door: places are unique by normalized address (contract §14), and a retry after the purge is a new place.
const createPlace = (client: Awaited<ReturnType<TestApp['createTenant']>>['admin'], key: string) =>
  client.post('/api/places', { place: { name: key, location: { lat: 52.5, lng: 13.4 }, address: { street: 'Main', number: String(++made), city: 'Berlin' } } }, { headers: { 'idempotency-key': key } });

describe('idempotency key purge', () => {
  it('deletes keys once their 24 hours are over, by the worker’s hourly job, and keeps younger ones', async () => {
    const tenant = await t.createTenant();
    const worker = createWorker(t.deps);
    expect((await createPlace(tenant.admin, 'purge-old')).status).toBe(201);
    await worker.drain();
    t.clock.advance(23 * HOUR);
    expect((await createPlace(tenant.admin, 'purge-young')).status).toBe(201);
    await worker.drain();
    expect(await stored('purge-old')).toBe(1);
    t.clock.advance(2 * HOUR);
    await worker.drain();
    expect(await stored('purge-old')).toBe(0);
    expect(await stored('purge-young')).toBe(1);
    // Gone from the table, the key is simply new again: the same request runs once more.
    const again = await createPlace(tenant.admin, 'purge-old');
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('deletes in bounded batches, oldest first', async () => {
    const tenant = await t.createTenant();
    for (const key of ['batch-1', 'batch-2', 'batch-3']) {
      expect((await createPlace(tenant.admin, key)).status).toBe(201);
      t.clock.advance(1000);
    }
    const cutoff = new Date(t.clock.now().getTime() - KEY_TTL_MS + 10 * HOUR);
    await t.deps.db.execute(sql`UPDATE idempotency_keys SET created_at = created_at - interval '2 days' WHERE key LIKE 'batch-%'`);
    expect(await deleteExpiredKeys(t.deps.db, cutoff, 2)).toBe(2);
    expect(await stored('batch-1')).toBe(0);
    expect(await stored('batch-2')).toBe(0);
    expect(await stored('batch-3')).toBe(1);
    expect(await deleteExpiredKeys(t.deps.db, cutoff, 2)).toBe(1);
    expect(await deleteExpiredKeys(t.deps.db, cutoff, 2)).toBe(0);
  });
});
