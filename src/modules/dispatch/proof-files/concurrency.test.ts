// Two completions of one stop with a photo at once, on PostgreSQL (PGlite has one session): the tour's lock lets one
// win; the loser's photo, sealed before it waited, is removed, so the stop keeps one file and the store one blob.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { createBooking, createService, createUser, driveStop, tourEnRoute } from '../../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../../test/locks.ts';
import { pngImage } from '../../../../test/proof-images.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('proof files on PostgreSQL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('keeps one photo file when two completions with photos race for the tour', async () => {
    const tenant = await t.createTenant();
    const service = await createService(tenant.admin);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    const booking = await createBooking(tenant.admin, { service_id: service.id });
    const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const stopId: string = booking.stops[0].id;
    await driveStop(driver.client, stopId, 'arrived');
    const photos = [pngImage(2, 2, [255, 0, 0]), pngImage(2, 2, [0, 0, 255])];

    const pool = t.deps.database.pool!;
    const holder = await pool.connect();
    let answers: number[];
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM tours WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenant.tenantId, tour.id]);
      const both = photos.map((photo) => driver.client.post(`/api/stops/${stopId}/complete`, { proof: { photo: photo.toString('base64') } }));
      await waitUntilSomeoneWaitsForALock(pool, 2);
      await holder.query('COMMIT');
      answers = (await Promise.all(both)).map((res) => res.status);
    } finally {
      holder.release();
    }
    expect(answers.sort()).toEqual([200, 409]);
    const { rows } = await pool.query('SELECT kind, blob_key FROM proof_files WHERE tenant_id = $1 AND owner_id = $2', [tenant.tenantId, stopId]);
    expect(rows).toHaveLength(1);
    const dir = path.join(t.config.dataDir, 'blobs', 'proofs', tenant.tenantId);
    expect(fs.readdirSync(dir)).toEqual([(rows[0] as { blob_key: string }).blob_key.split('/').pop()]);
  });
});
