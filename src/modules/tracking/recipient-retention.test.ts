// Recipient-data retention (contract §18, decision 1773) with the manual clock: a booking's messages and its stops'
// phone numbers are kept RECIPIENT_DATA_RETENTION_DAYS after its last stop and erased then — not a day before, not
// for a booking still open — and the rest of the contact, the opt-outs and other bookings stay.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createBooking, createService, createServiceArea, createUser, driveStop, expectOk, tourEnRoute } from '../../../test/factories.ts';
import { queryRows } from '../../db/sql.ts';
import { notifyRecipients } from './notify.ts';
import { optOutPhone } from './messages-repository.ts';
import { eraseRecipientData } from './recipient-retention.ts';

const DAY = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    publicUrl: 'https://track.example',
    reportsMasterKey: randomBytes(32).toString('base64'),
    recipientDataRetentionDays: 90,
    // Messages are written by the sweep; nobody sends them here (no worker runs).
    sms: { provider: 'kannel', url: 'http://127.0.0.1:9/cgi-bin/sendsms', username: null, password: null, from: 'Tourbook', callbackSecret: null, timeoutMs: 1000 },
  });
});
afterAll(async () => t.close());

let numbers = 0;
const nextNumber = () => `+49153${String(30_000_000 + (process.pid % 1000) * 10_000 + ++numbers).padStart(8, '0')}`;

/** A booking whose recipient was told `dispatched` by e-mail and SMS; finished (both stops completed) unless `open`. */
async function scene(options: { open?: boolean } = {}) {
  const tn = await t.createTenant();
  const area = await createServiceArea(tn.admin, { recipient_notifications: ['dispatched'] });
  const service = await createService(tn.admin, { service_area_id: area.id });
  const phone = nextNumber();
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' }, contact: { name: 'Sender', phone_number: nextNumber() } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' }, contact: { name: 'Ada', email: `ada-${numbers}@example.com`, phone_number: phone } },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver' });
  await tourEnRoute(tn.admin, [booking.id], driver.id);
  await notifyRecipients(t.deps);
  const [pickup, dropoff] = booking.stops as { id: string }[];
  if (!options.open) {
    await driveStop(driver.client, pickup!.id, 'completed');
    await driveStop(driver.client, dropoff!.id, 'completed');
  }
  return { tn, booking, phone };
}
type Scene = Awaited<ReturnType<typeof scene>>;

const messagesOf = async (s: Scene) => (await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}/messages`))).messages as unknown[];
const contactsOf = async (s: Scene) =>
  ((await expectOk(s.tn.admin.get(`/api/hailing/bookings/${s.booking.id}`))).booking.stops as { contact: Record<string, unknown> | null }[]).map((stop) => stop.contact);
const toldEmails = async (s: Scene) =>
  (await queryRows<{ email: string | null }>(t.deps.db, sql`SELECT email FROM recipient_notifications WHERE tenant_id = ${s.tn.tenantId} AND booking_id = ${s.booking.id}`)).map((r) => r.email);

describe('recipient data retention', () => {
  it("erases a finished booking's messages and phone numbers 90 days after its last stop, not before; an open booking's stay", async () => {
    t.clock.set('2026-06-01T08:00:00Z');
    const done = await scene();
    const open = await scene({ open: true });
    const lastStop = t.clock.now().getTime();
    expect((await messagesOf(done)).length).toBe(2); // the e-mail and the SMS
    await optOutPhone(t.deps.db, done.tn.tenantId, done.phone, t.clock.now());

    t.clock.set(new Date(lastStop + 90 * DAY - 60_000)); // a minute before
    await eraseRecipientData(t.deps);
    expect((await messagesOf(done)).length).toBe(2);
    expect((await contactsOf(done)).map((c) => c?.phone_number)).toEqual([expect.any(String), done.phone]);

    t.clock.set(new Date(lastStop + 90 * DAY + 60_000));
    const erased = await eraseRecipientData(t.deps);
    expect(erased.messages).toBeGreaterThanOrEqual(2);
    expect(await messagesOf(done)).toEqual([]);
    const contacts = await contactsOf(done);
    expect(contacts.map((c) => c?.phone_number)).toEqual([null, null]);
    expect(contacts[1]).toMatchObject({ name: 'Ada', email: expect.stringMatching(/@example\.com$/) });
    expect(await toldEmails(done)).toEqual([null]);
    // The opt-out is the recipient's own wish: it is kept.
    expect((await queryRows(t.deps.db, sql`SELECT 1 FROM recipient_phones WHERE tenant_id = ${done.tn.tenantId}`)).length).toBe(1);

    // The open booking keeps everything, however old its messages are.
    expect((await messagesOf(open)).length).toBe(2);
    expect((await contactsOf(open)).map((c) => c?.phone_number)).toEqual([expect.any(String), open.phone]);
    expect(await eraseRecipientData(t.deps)).toEqual({ bookings: 0, messages: 0 });
  });

  it('counts from the last stop, not from the message: a booking finished later is kept longer', async () => {
    t.clock.set('2026-09-01T08:00:00Z');
    const s = await scene({ open: true });
    const told = t.clock.now().getTime();
    // Its drop-off is completed 30 days after the message went out.
    t.clock.set(new Date(told + 30 * DAY));
    await t.deps.db.execute(sql`UPDATE stops SET status = 'completed', completed_at = ${t.clock.now()}, updated_at = ${t.clock.now()} WHERE tenant_id = ${s.tn.tenantId} AND booking_id = ${s.booking.id}`);
    await t.deps.db.execute(sql`UPDATE bookings SET status = 'completed' WHERE tenant_id = ${s.tn.tenantId} AND id = ${s.booking.id}`);
    t.clock.set(new Date(told + 100 * DAY)); // 100 days after the message, 70 after the last stop
    await eraseRecipientData(t.deps);
    expect((await messagesOf(s)).length).toBe(2);
    t.clock.set(new Date(told + 121 * DAY));
    await eraseRecipientData(t.deps);
    expect(await messagesOf(s)).toEqual([]);
    expect((await contactsOf(s)).map((c) => c?.phone_number)).toEqual([null, null]);
  });
});
