// Two retries over a key that may run again, which only a real PostgreSQL can race (PGlite has one session).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_TTL_MS } from '../../src/http/idempotency.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { createService } from '../factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../locks.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('Idempotency-Key on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('lets one of two retries over an expired key run; the other meets the running claim (409)', async () => {
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const key = `race-${crypto.randomUUID()}`;
    const body = {
      booking: {
        service_id: service.id,
        stops: [
          { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
          { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
        ],
        packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
      },
    };
    const send = () => tenant.admin.post('/api/hailing/bookings', body, { headers: { 'idempotency-key': key } });
    expect((await send()).status).toBe(201);
    t.clock.advance(KEY_TTL_MS + 1000);

    // Another session holds the key's row, so both retries reach it before either takes the key over. Each must
    // read the row under its lock: the second then finds the first one's fresh claim, not the expired outcome.
    const pool = t.deps.database.pool!;
    const holder = await pool.connect();
    let answers: { status: number; body: { error_code?: string } }[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT key FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 FOR UPDATE', [tenant.tenantId, key]);
      const retries = Promise.all([send(), send()]);
      await waitUntilSomeoneWaitsForALock(pool, 2);
      await holder.query('COMMIT');
      answers = await retries;
    } finally {
      holder.release();
    }
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error_code).toBe('idempotency_key_in_use');
    const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings WHERE tenant_id = $1', [tenant.tenantId]);
    expect(rows[0]!.n).toBe(2);
  });
});
