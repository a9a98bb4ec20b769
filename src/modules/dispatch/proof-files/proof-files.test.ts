// Proof images kept as files (decision 1250): sealed at rest, read back by whoever sees the stop or package, linked
// from the tracking read, refused when they are no image, deleted past retention.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, tourEnRoute, type CreatedUser } from '../../../../test/factories.ts';
import { jpegLike, pngImage } from '../../../../test/proof-images.ts';
import { proofFiles } from '../tables.ts';
import { proofRetentionJob } from './jobs.ts';
import { masterKeyOf } from '../../../crypto/key-wrap.ts';
import { masterKeyRingFor } from '../../../crypto/master-key.ts';
import { rotateMasterKey } from '../../../keys-command.ts';
import { openProof } from './sealed-proof.ts';

let t: TestApp;
let tenant: TestTenant;
let orgA: string;
let managerA: CreatedUser;
let managerB: CreatedUser;
let service: { id: string };

beforeAll(async () => {
  t = await buildTestApp({ publicUrl: 'https://track.example', reportsMasterKey: randomBytes(32).toString('base64') });
  tenant = await t.createTenant();
  orgA = (await createOrganization(tenant.admin)).id;
  const orgB = (await createOrganization(tenant.admin)).id;
  managerA = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgA] });
  managerB = await createUser(tenant.admin, { role: 'manager', organization_ids: [orgB] });
  service = await createService(tenant.admin);
});
afterAll(async () => t.close());

const MARKER = 'PLAINTEXT-PROOF-MARKER';
const photo = pngImage(4, 3, [200, 30, 30], MARKER);
const signature = pngImage(8, 2, [0, 0, 0], `${MARKER}-signature`);
const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A booking of organization A on an en-route tour of a new driver, its pickup arrived. */
async function arrivedPickup() {
  const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgA] });
  const booking = await createBooking(managerA.client, { service_id: service.id, managing_organization_ids: [orgA] });
  await tourEnRoute(tenant.admin, [booking.id], driver.id);
  const stopId: string = booking.stops[0].id;
  await driveStop(driver.client, stopId, 'arrived');
  return { driver, booking, stopId };
}

/** A GET whose body is bytes (the test client reads text). */
async function getBytes(url: string, token: string | null) {
  const res = await t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, bytes: res.rawPayload, headers: res.headers, json: /json/.test(String(res.headers['content-type'])) ? (res.json() as { error_code?: string }) : null };
}

/** Every file under DATA_DIR/blobs/proofs/<tenant> (the encrypted images). */
function proofBlobs(tenantId: string): string[] {
  const dir = path.join(t.config.dataDir, 'blobs', 'proofs', tenantId);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => path.join(dir, name));
}

const proofRows = async (ownerId: string) =>
  (await t.deps.db.select().from(proofFiles).where(eq(proofFiles.ownerId, ownerId)).orderBy(proofFiles.kind)).map((r) => ({ kind: r.kind, deleted_at: r.deletedAt, key_kept: r.wrappedKey !== null }));

describe('a stop completed with a photo and a signature', () => {
  it('keeps both as encrypted files, links them from the stop and serves them to who may see the stop', async () => {
    const { driver, stopId } = await arrivedPickup();
    const before = proofBlobs(tenant.tenantId).length;
    const { stop } = await expectOk(driver.client.post(`/api/stops/${stopId}/complete`, { proof: { photo: b64(photo), signature: b64(signature), recipient_name: 'Ada', note: 'At the door' } }));
    expect(stop.proof).toEqual({
      recipient_name: 'Ada',
      note: 'At the door',
      photo: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      signature: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      photo_url: `/api/stops/${stopId}/proof/photo`,
      signature_url: `/api/stops/${stopId}/proof/signature`,
      deleted_at: null,
    });
    expect(stop.proof.photo).toBe(`sha256:${(await import('node:crypto')).createHash('sha256').update(photo).digest('hex')}`);
    expect((await expectOk(managerA.client.get(`/api/stops/${stopId}`))).stop.proof).toEqual(stop.proof);

    // At rest: two new blobs, neither holding the images' bytes.
    const blobs = proofBlobs(tenant.tenantId);
    expect(blobs.length).toBe(before + 2);
    for (const file of blobs) expect(fs.readFileSync(file).includes(MARKER)).toBe(false);

    for (const token of [tenant.adminToken, managerA.token, driver.token]) {
      const res = await getBytes(stop.proof.photo_url, token);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(photo)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': 'image/png',
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline',
        'content-length': String(photo.length),
      });
    }
    const sig = await getBytes(stop.proof.signature_url, driver.token);
    expect(sig.status).toBe(200);
    expect(sig.bytes.equals(signature)).toBe(true);
  });

  it('answers 404 to a manager of another organization, another tenant, and for a kind the proof lacks', async () => {
    const { driver, stopId, booking } = await arrivedPickup();
    await expectOk(driver.client.post(`/api/stops/${stopId}/complete`, { proof: { photo: b64(photo) } }));
    const other = await t.createTenant();
    for (const token of [managerB.token, other.adminToken]) {
      const res = await getBytes(`/api/stops/${stopId}/proof/photo`, token);
      expect(res.status).toBe(404);
      expect(res.json?.error_code).toBe('not_found');
    }
    expect((await getBytes(`/api/stops/${stopId}/proof/signature`, tenant.adminToken)).status).toBe(404);
    expect((await getBytes(`/api/stops/${booking.stops[1].id}/proof/photo`, tenant.adminToken)).status).toBe(404);
    expect((await getBytes(`/api/stops/${stopId}/proof/video`, tenant.adminToken)).status).toBe(404);
    expect((await getBytes(`/api/stops/${stopId}/proof/photo`, null)).status).toBe(401);
  });

  it('a group completed together links the same photo from each of its stops', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgA] });
    const stops = [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, group: 'door-7' },
    ];
    const [one, two] = await Promise.all([0, 1].map(() => createBooking(managerA.client, { service_id: service.id, managing_organization_ids: [orgA], stops })));
    const tour = await tourEnRoute(tenant.admin, [one.id, two.id], driver.id);
    for (const s of tour.stops.filter((s: { type: string }) => s.type === 'pickup')) await driveStop(driver.client, s.id, 'completed');
    const first: string = one.stops[1].id;
    await driveStop(driver.client, first, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${first}/complete`, { proof: { photo: b64(photo) } }));
    for (const id of [one.stops[1].id, two.stops[1].id]) {
      const res = await getBytes(`/api/stops/${id}/proof/photo`, managerA.token);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(photo)).toBe(true);
    }
  });
});

describe('a proof image that is not acceptable', () => {
  it.each([
    ['a photo over 5 MiB', { photo: b64(jpegLike(5 * 1024 * 1024 + 1)) }, '/proof/photo', 'too_large'],
    ['an SVG signature', { signature: b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')) }, '/proof/signature', 'not_an_image'],
    ['a text called photo', { photo: b64(Buffer.from('a photo')) }, '/proof/photo', 'not_an_image'],
    ['a photo that is not base64', { photo: 'not*base64!' }, '/proof/photo', 'invalid_base64'],
  ])('%s is 422 with its pointer, and nothing is written', async (_name, proof, pointer, code) => {
    const { driver, stopId } = await arrivedPickup();
    const before = proofBlobs(tenant.tenantId).length;
    const res = await driver.client.post(`/api/stops/${stopId}/complete`, { proof: { ...proof, recipient_name: 'Ada' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer, code })]);
    expect((await expectOk(tenant.admin.get(`/api/stops/${stopId}`))).stop).toMatchObject({ status: 'arrived', proof: null });
    expect(proofBlobs(tenant.tenantId).length).toBe(before);
    expect(await proofRows(stopId)).toEqual([]);
  });

  it('a photo of exactly 5 MiB is accepted', async () => {
    const { driver, stopId } = await arrivedPickup();
    const big = jpegLike(5 * 1024 * 1024);
    const { stop } = await expectOk(driver.client.post(`/api/stops/${stopId}/complete`, { proof: { photo: b64(big) } }));
    const res = await getBytes(stop.proof.photo_url, driver.token);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.bytes.equals(big)).toBe(true);
  });

  it('a completion refused after the photo was sealed leaves no blob behind', async () => {
    const driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [orgA] });
    const booking = await createBooking(managerA.client, { service_id: service.id, managing_organization_ids: [orgA] });
    await tourEnRoute(tenant.admin, [booking.id], driver.id);
    const before = proofBlobs(tenant.tenantId).length;
    // A scheduled stop cannot be completed: 409 after the image was checked and sealed.
    const res = await driver.client.post(`/api/stops/${booking.stops[0].id}/complete`, { proof: { photo: b64(photo) } });
    expect(res.status).toBe(409);
    expect(proofBlobs(tenant.tenantId).length).toBe(before);
    expect(await proofRows(booking.stops[0].id)).toEqual([]);
  });
});

describe('a forced delivery with a photo', () => {
  it('keeps it per package, linked from forced_delivery.proof, readable by who sees the booking', async () => {
    const booking = await createBooking(managerA.client, { service_id: service.id, managing_organization_ids: [orgA] });
    const packageId: string = booking.packages[0].id;
    const delivered = await expectOk(managerA.client.post(`/api/hailing/packages/${packageId}/force_delivery`, { proof: { photo: b64(photo), recipient_name: 'Reception' } }));
    expect(delivered.package.forced_delivery.proof).toEqual({
      recipient_name: 'Reception',
      photo: expect.stringMatching(/^sha256:/),
      photo_url: `/api/hailing/packages/${packageId}/proof/photo`,
      signature_url: null,
      deleted_at: null,
    });
    const res = await getBytes(delivered.package.forced_delivery.proof.photo_url, tenant.adminToken);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(photo)).toBe(true);
    expect((await getBytes(`/api/hailing/packages/${packageId}/proof/photo`, managerB.token)).status).toBe(404);
    expect((await getBytes(`/api/hailing/packages/${packageId}/proof/signature`, tenant.adminToken)).status).toBe(404);
  });
});

describe('retention', () => {
  it('deletes files older than PROOF_RETENTION_DAYS, and the stop says so; younger files stay', async () => {
    const tn = await t.createTenant();
    const driver = await createUser(tn.admin, { role: 'driver' });
    const svc = await createService(tn.admin);
    const [old, young] = await Promise.all([0, 1].map(() => createBooking(tn.admin, { service_id: svc.id })));
    await tourEnRoute(tn.admin, [old.id, young.id], driver.id);
    const oldStop: string = old.stops[0].id;
    await driveStop(driver.client, oldStop, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${oldStop}/complete`, { proof: { photo: b64(photo), recipient_name: 'Ada' } }));
    // A forced delivery of the same day, with a signature: its package proof is deleted too.
    const forced = await createBooking(tn.admin, { service_id: svc.id });
    const packageId: string = forced.packages[0].id;
    await expectOk(tn.admin.post(`/api/hailing/packages/${packageId}/force_delivery`, { proof: { signature: b64(signature), note: 'Signed on paper' } }));
    t.clock.advance(60 * 86_400_000);
    const youngStop: string = young.stops[0].id;
    await driveStop(driver.client, youngStop, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${youngStop}/complete`, { proof: { photo: b64(photo) } }));
    expect(proofBlobs(tn.tenantId)).toHaveLength(3);

    t.clock.advance(30 * 86_400_000 + 1000); // the old one is 90 days and a second old
    await proofRetentionJob(t.deps, { tenantId: tn.tenantId, jobId: 'test', attempt: 1, maxAttempts: 10, payload: {} });

    const { stop } = await expectOk(tn.admin.get(`/api/stops/${oldStop}`));
    expect(stop.proof).toEqual({ recipient_name: 'Ada', photo: expect.stringMatching(/^sha256:/), photo_url: null, signature_url: null, deleted_at: t.clock.now().toISOString() });
    expect((await getBytes(`/api/stops/${oldStop}/proof/photo`, tn.adminToken)).status).toBe(404);
    expect(proofBlobs(tn.tenantId)).toHaveLength(1);
    expect(await proofRows(oldStop)).toEqual([{ kind: 'photo', deleted_at: t.clock.now(), key_kept: false }]);
    const pkg = (await expectOk(tn.admin.get(`/api/hailing/bookings/${forced.id}`))).booking.packages[0];
    expect(pkg.forced_delivery.proof).toEqual({ note: 'Signed on paper', signature: expect.stringMatching(/^sha256:/), photo_url: null, signature_url: null, deleted_at: t.clock.now().toISOString() });
    expect((await getBytes(`/api/hailing/packages/${packageId}/proof/signature`, tn.adminToken)).status).toBe(404);

    const kept = await getBytes(`/api/stops/${youngStop}/proof/photo`, tn.adminToken);
    expect(kept.status).toBe(200);
    expect((await expectOk(tn.admin.get(`/api/stops/${youngStop}`))).stop.proof.deleted_at).toBeNull();
  });
});

describe('the recipient’s tracking read', () => {
  it('links the photo of its own completed stop by the token alone; a rotated link answers 404', async () => {
    const tn = await t.createTenant();
    const driver = await createUser(tn.admin, { role: 'driver' });
    const svc = await createService(tn.admin);
    const booking = await createBooking(tn.admin, { service_id: svc.id });
    await tourEnRoute(tn.admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    const dropoff: string = booking.stops[1].id;
    await driveStop(driver.client, dropoff, 'arrived');
    await expectOk(driver.client.post(`/api/stops/${dropoff}/complete`, { proof: { photo: b64(photo), signature: b64(signature), recipient_name: 'Ada' } }));
    const link = (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url as string;
    const token = link.split('/').pop()!;
    const { tracking } = await expectOk(t.anonymous.get(`/api/tracking/${token}`));
    expect(tracking.stops[0].proof).toBeNull();
    expect(tracking.stops[1].proof).toEqual({ recipient_name: 'Ada', photo_url: `https://track.example/api/tracking/${token}/stops/1/proof/photo` });

    const res = await getBytes(new URL(tracking.stops[1].proof.photo_url).pathname, null);
    expect(res.status).toBe(200);
    expect(res.bytes.equals(photo)).toBe(true);
    expect(res.headers).toMatchObject({ 'content-type': 'image/png', 'cache-control': 'private, no-store', 'x-content-type-options': 'nosniff' });
    // The other stop has no photo; an index past the list is nothing either.
    expect((await getBytes(`/api/tracking/${token}/stops/0/proof/photo`, null)).status).toBe(404);
    expect((await getBytes(`/api/tracking/${token}/stops/2/proof/photo`, null)).status).toBe(404);
    // Only the canonical integer names the stop: no alias of 1 answers like it (issue 35, decision 1623).
    for (const alias of ['1.0', '01', '1e0', '+1', '0x1', ' 1', '1 ', '-0', '1.']) {
      const aliased = await getBytes(`/api/tracking/${token}/stops/${encodeURIComponent(alias)}/proof/photo`, null);
      expect(aliased.status, alias).toBe(404);
      expect(aliased.json?.error_code, alias).toBe('not_found');
    }

    await expectOk(tn.admin.post(`/api/hailing/bookings/${booking.id}/tracking/rotate`));
    const gone = await getBytes(`/api/tracking/${token}/stops/1/proof/photo`, null);
    expect(gone.status).toBe(404);
    expect(gone.json?.error_code).toBe('not_found');
  });
});

describe('rotating the master key', () => {
  it('seals kept proof file keys again under the new key; the image opens with the new key alone', async () => {
    const { driver, stopId } = await arrivedPickup();
    await expectOk(driver.client.post(`/api/stops/${stopId}/complete`, { proof: { photo: b64(photo) } }));
    const [before] = await t.deps.db.select().from(proofFiles).where(eq(proofFiles.ownerId, stopId));
    const next = masterKeyOf(randomBytes(32));
    await expect(openProof(t.config, [next], { blobKey: before!.blobKey!, wrappedKey: before!.wrappedKey! })).rejects.toThrow();

    const result = await rotateMasterKey(t.deps, next);
    expect(result.proofs).toBeGreaterThanOrEqual(1);
    const [after] = await t.deps.db.select().from(proofFiles).where(eq(proofFiles.ownerId, stopId));
    expect(after!.wrappedKey).toMatch(new RegExp(`^tbk1\\.${next.id}\\.`));
    expect(after!.blobKey).toBe(before!.blobKey);
    expect((await openProof(t.config, [next], { blobKey: after!.blobKey!, wrappedKey: after!.wrappedKey! })).equals(photo)).toBe(true);
    expect(masterKeyRingFor(t.config)).toHaveLength(1);
    expect((await rotateMasterKey(t.deps, next)).proofs).toBe(0);
  });
});
