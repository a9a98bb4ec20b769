// The recipient's delivery instructions through the tracking link (decision 1788): read and replaced by the token's
// holder while its own stop is open, shown to the driver on that stop, audited, erased with the recipient's data.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { waitUntilSomeoneWaitsForALock } from '../../../test/locks.ts';
import { eraseRecipientData } from './recipient-retention.ts';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ publicUrl: 'https://track.example', reportsMasterKey: randomBytes(32).toString('base64'), rateLimit: { perSecond: 1000, burst: 1000 }, recipientDataRetentionDays: 90 });
});
afterAll(async () => t.close());

const DAY = 86_400_000;
const tokenOf = (url: string) => url.split('/').pop()!;

/** One booking (a pickup, a drop-off) on an en-route tour, its recipient's token and the driver. */
async function scene() {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin);
  const service = await createService(tn.admin, { service_area_id: area.id });
  const booking = await createBooking(tn.admin, { service_id: service.id });
  const driver = await createUser(tn.admin, { role: 'driver' });
  const tour = await tourEnRoute(tn.admin, [booking.id], driver.id);
  const token = tokenOf((await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url);
  const [pickup, dropoff] = booking.stops as { id: string }[];
  const url = `/api/tracking/${token}/instructions`;
  /** The booking's stops as the driver reads them on its tour. */
  const driversStops = async () =>
    ((await expectOk(driver.client.get(`/api/hailing/tours/${tour.id}`))).tour.stops as { id: string; recipient_instructions?: unknown }[]).sort(
      (a, b) => Number(a.id !== pickup!.id) - Number(b.id !== pickup!.id),
    );
  return { tn, booking, driver, tour, token, url, pickup: pickup!, dropoff: dropoff!, driversStops };
}

describe('GET/PUT /api/tracking/{token}/instructions', () => {
  it("keeps them on the recipient's drop-off for the driver, replaces them, and records booking.recipient_instructions_updated", async () => {
    const s = await scene();
    expect((await expectOk(t.anonymous.get(s.url))).instructions).toEqual({ kind: 'none', neighbour: null, note: null, updated_at: null, editable: true });

    const given = await expectOk(t.anonymous.put(s.url, { instructions: { kind: 'neighbour', neighbour: '  Mme Rossi, 2nd floor ', note: 'Code 4711' } }));
    expect(given.instructions).toEqual({ kind: 'neighbour', neighbour: 'Mme Rossi, 2nd floor', note: 'Code 4711', updated_at: t.clock.now().toISOString(), editable: true });
    const [pickup, dropoff] = await s.driversStops();
    expect(pickup).not.toHaveProperty('recipient_instructions');
    expect(dropoff!.recipient_instructions).toEqual({ kind: 'neighbour', neighbour: 'Mme Rossi, 2nd floor', note: 'Code 4711', updated_at: t.clock.now().toISOString() });
    // The dispatcher sees them on the booking too, beside its own notes.
    const stops = (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}`))).booking.stops as { recipient_instructions?: { kind: string } }[];
    expect(stops.map((stop) => stop.recipient_instructions?.kind ?? null)).toEqual([null, 'neighbour']);

    t.clock.advance(60_000);
    const replaced = await expectOk(t.anonymous.put(s.url, { instructions: { kind: 'leave_at_door', note: '   ' } }));
    expect(replaced.instructions).toMatchObject({ kind: 'leave_at_door', neighbour: null, note: null, updated_at: t.clock.now().toISOString() });
    expect((await s.driversStops())[1]!.recipient_instructions).toMatchObject({ kind: 'leave_at_door', neighbour: null, note: null });

    const events = (await expectOk(s.tn.admin.get(`/api/admin/events?filters[type]=booking.recipient_instructions_updated&filters[resource_id]=${s.booking.id}`))).events as {
      actor: unknown;
      data: Record<string, unknown>;
    }[];
    expect(events.map((e) => e.data.instructions)).toEqual(
      expect.arrayContaining([
        { kind: 'neighbour', neighbour: 'Mme Rossi, 2nd floor', note: 'Code 4711' },
        { kind: 'leave_at_door', neighbour: null, note: null },
      ]),
    );
    expect(events).toHaveLength(2);
    expect(events[0]!.data).toMatchObject({ booking_id: s.booking.id, stop_ids: [s.dropoff.id] });
    // The recipient holds no identity: the system wrote it (decision 1100).
    expect(events[0]!.actor).toEqual({ type: 'system', id: null, api_key_id: null });
  });

  it.each([
    ['a neighbour without a name', { instructions: { kind: 'neighbour', neighbour: '  ' } }, '/instructions/neighbour', 'required'],
    ['a neighbour named with another kind', { instructions: { kind: 'leave_at_door', neighbour: 'Mme Rossi' } }, '/instructions/neighbour', 'not_allowed'],
    ['an unknown kind', { instructions: { kind: 'mailbox' } }, '/instructions/kind', null],
    ['a note over 500 characters', { instructions: { kind: 'none', note: 'x'.repeat(501) } }, '/instructions/note', null],
    ['an unknown field', { instructions: { kind: 'none', door_code: '1234' } }, '/instructions/door_code', null],
    ['no instructions', {}, '/instructions', null],
  ])('refuses %s with 422 at its pointer, and keeps what was there', async (_name, body, pointer, code) => {
    const s = await scene();
    await expectOk(t.anonymous.put(s.url, { instructions: { kind: 'leave_at_door', note: 'Behind the gate' } }));
    const res = await t.anonymous.put(s.url, body, { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const error = (res.body.errors as { pointer: string; code: string; detail: string }[]).find((e) => e.pointer === pointer);
    expect(error).toBeDefined();
    if (code) expect(error!.code).toBe(code);
    // Every detail in words, in the caller's language (src/http/field-details.ts).
    expect(error!.detail).not.toMatch(/^(Name the|A neighbour is)/);
    expect((await expectOk(t.anonymous.get(s.url))).instructions).toMatchObject({ kind: 'leave_at_door', note: 'Behind the gate' });
  });

  it('closes once the drop-off is done (409 instructions_closed), keeping what the driver read', async () => {
    const s = await scene();
    await expectOk(t.anonymous.put(s.url, { instructions: { kind: 'leave_at_door', note: null } }));
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    // The pickup is done but the drop-off is still open: the recipient may still change them.
    expect((await expectOk(t.anonymous.get(s.url))).instructions.editable).toBe(true);
    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    expect((await expectOk(t.anonymous.get(s.url))).instructions).toMatchObject({ kind: 'leave_at_door', editable: false });
    const late = await t.anonymous.put(s.url, { instructions: { kind: 'neighbour', neighbour: 'Mme Rossi' } });
    expect(late.status).toBe(409);
    expect(late.body.error_code).toBe('instructions_closed');
    expect((await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}`))).booking.stops[1].recipient_instructions).toMatchObject({ kind: 'leave_at_door' });
  });

  it('answers an unknown token with 404 for both, a link past its time to live with 410', async () => {
    const unknown = `/api/tracking/${'C'.repeat(43)}/instructions`;
    expect((await t.anonymous.get(unknown)).status).toBe(404);
    const put = await t.anonymous.put(unknown, { instructions: { kind: 'none' } });
    expect(put.status).toBe(404);
    expect(put.body.error_code).toBe('not_found');

    const s = await scene();
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    t.clock.advance(8 * DAY);
    expect((await t.anonymous.get(s.url)).status).toBe(410);
    expect((await t.anonymous.put(s.url, { instructions: { kind: 'none' } })).status).toBe(410);
  });

  it("are erased with the recipient's data RECIPIENT_DATA_RETENTION_DAYS after the booking's last stop", async () => {
    const s = await scene();
    await expectOk(t.anonymous.put(s.url, { instructions: { kind: 'neighbour', neighbour: 'Mme Rossi', note: 'Code 4711' } }));
    await driveStop(s.driver.client, s.pickup.id, 'completed');
    await driveStop(s.driver.client, s.dropoff.id, 'completed');
    const instructionsOf = async () => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}`))).booking.stops[1].recipient_instructions ?? null;
    t.clock.advance(90 * DAY - 60_000);
    await eraseRecipientData(t.deps);
    expect(await instructionsOf()).toMatchObject({ neighbour: 'Mme Rossi' });
    t.clock.advance(120_000);
    expect((await eraseRecipientData(t.deps)).bookings).toBeGreaterThanOrEqual(1);
    expect(await instructionsOf()).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('instructions racing the drop-off on PostgreSQL', () => {
  it('a write waiting on the completing drop-off answers 409 and leaves the completed stop as its driver read it', async () => {
    const s = await scene();
    const pool = t.deps.database.pool!;
    const other = await pool.connect();
    try {
      // The driver's completion holds the drop-off's row; the recipient's write comes while it does.
      await other.query('BEGIN');
      await other.query(`UPDATE stops SET status = 'completed', completed_at = now() WHERE tenant_id = $1 AND id = $2`, [s.tn.tenantId, s.dropoff.id]);
      const writing = t.anonymous.put(s.url, { instructions: { kind: 'leave_at_door' } });
      await waitUntilSomeoneWaitsForALock(pool);
      await other.query('COMMIT');
      const res = await writing;
      expect(res.status).toBe(409);
      expect(res.body.error_code).toBe('instructions_closed');
    } finally {
      other.release();
    }
    const { rows } = await pool.query('SELECT recipient_instructions FROM stops WHERE tenant_id = $1 AND id = $2', [s.tn.tenantId, s.dropoff.id]);
    expect(rows[0].recipient_instructions).toBeNull();
  });
});
