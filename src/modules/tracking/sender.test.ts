// The sender identity (decision 1784): the admin sets it, managers read it; the e-mails go out from its name, address
// and Reply-To through a real SMTP server, the SMS from its sender id, and the tracking read names it with its logo —
// beside the recipient's own address, the day and, once the driver heads here, an ETA window of at most 30 minutes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, driveStop, expectOk } from '../../../test/factories.ts';
import { pngImage } from '../../../test/proof-images.ts';
import { phoneNumbers, smsScene } from '../../../test/sms-scene.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';
import { notifyRecipients } from './notify.ts';

let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;
let gateway: http.Server;
/** Each sendsms request the Kannel-like peer took (sms.test.ts tests that adapter; here only the sender matters). */
const texted: URLSearchParams[] = [];

beforeAll(async () => {
  gateway = http.createServer((req, res) => {
    texted.push(new URL(req.url ?? '/', 'http://peer').searchParams);
    res.writeHead(202).end('0: Accepted for delivery');
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  smtp = await startSmtpPeer();
  t = await buildTestApp({
    publicUrl: 'https://track.example',
    reportsMasterKey: randomBytes(32).toString('base64'),
    smtpUrl: smtp.url,
    mailFrom: 'Tourbook <no-reply@tourbook.test>',
    mailSenderDomains: ['spree-kurier.de'],
    rateLimit: { perSecond: 1000, burst: 1000 },
    sms: { provider: 'kannel', url: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/cgi-bin/sendsms`, username: null, password: null, from: 'Tourbook', callbackSecret: randomBytes(18).toString('base64url'), timeoutMs: 5000 },
  });
  worker = createWorker(t.deps);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  gateway.closeAllConnections();
  await new Promise((resolve) => gateway.close(resolve));
});

const nextNumber = phoneNumbers('151', 20_000_000);
let mails = 0;

async function scene() {
  const email = `ada.${++mails}.${process.pid}@example.com`;
  const s = await smsScene(t, { phone_number: nextNumber(), email }, ['dispatched'], { average_speed_kmh: 36 });
  const { name } = (await expectOk(s.tn.admin.get('/api/admin/tenant'))).tenant as { name: string };
  return { ...s, name, email, token: s.trackingUrl.split('/').pop()! };
}

describe('the sender identity', () => {
  it("answers the defaults until set: the tenant's name, MAIL_FROM's address, SMS_FROM", async () => {
    const tn = await t.createTenant();
    const { name } = (await expectOk(tn.admin.get('/api/admin/tenant'))).tenant;
    const { sender } = await expectOk(tn.admin.get('/api/admin/sender'));
    expect(sender).toMatchObject({ name: null, color: null, reply_to: null, email_from: null, sms_sender_id: null, logo_url: null, updated_at: null });
    expect(sender.effective).toEqual({ name, email_from: `${JSON.stringify(name)} <no-reply@tourbook.test>`, sms_from: 'Tourbook' });
  });

  it('is the admin’s to change; managers read it, drivers get 403', async () => {
    const tn = await t.createTenant();
    const manager = await createUser(tn.admin, { role: 'manager' });
    const driver = await createUser(tn.admin, { role: 'driver' });
    expect((await manager.client.get('/api/admin/sender')).status).toBe(200);
    expect((await manager.client.patch('/api/admin/sender', { sender: { name: 'X' } })).status).toBe(403);
    expect((await manager.client.put('/api/admin/sender/logo', { logo: { image: pngImage(2, 2, [0, 0, 0]).toString('base64') } })).status).toBe(403);
    expect((await driver.client.get('/api/admin/sender')).status).toBe(403);
  });

  it('refuses what it cannot send as, with the pointer, and changes nothing', async () => {
    const tn = await t.createTenant();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email_from: 'versand@elsewhere.example' }, '/sender/email_from', 'sender_domain_not_allowed'],
      [{ color: 'blue' }, '/sender/color', ''],
      [{ sms_sender_id: 'Spree Kurier GmbH' }, '/sender/sms_sender_id', ''],
      [{ reply_to: 'not an address' }, '/sender/reply_to', ''],
      [{ name: '   ' }, '/sender/name', ''],
    ];
    for (const [body, pointer, code] of cases) {
      const res = await tn.admin.patch('/api/admin/sender', { sender: body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      if (code) expect(res.body.errors[0].code).toBe(code);
    }
    const logo = await tn.admin.put('/api/admin/sender/logo', { logo: { image: Buffer.from('<svg onload="alert(1)"/>').toString('base64') } });
    expect([logo.status, logo.body.errors?.[0]]).toEqual([422, expect.objectContaining({ pointer: '/logo/image', code: 'not_an_image' })]);
    const big = await tn.admin.put('/api/admin/sender/logo', { logo: { image: Buffer.concat([pngImage(2, 2, [0, 0, 0]), Buffer.alloc(280 * 1024)]).toString('base64') } });
    expect([big.status, big.body.errors?.[0]?.code]).toEqual([422, 'too_large']);
    expect((await expectOk(tn.admin.get('/api/admin/sender'))).sender.updated_at).toBeNull();
  });

  it('sends the e-mail from its name and address with its Reply-To, and the SMS from its sender id', async () => {
    const s = await scene();
    const patched = await expectOk(s.tn.admin.patch('/api/admin/sender', { sender: { name: 'Spree Kurier', email_from: 'Versand@Spree-Kurier.de', reply_to: 'kundenservice@spree-kurier.de', sms_sender_id: 'SpreeKurier' } }));
    expect(patched.sender.effective).toEqual({ name: 'Spree Kurier', email_from: '"Spree Kurier" <versand@spree-kurier.de>', sms_from: 'SpreeKurier' });
    await notifyRecipients(t.deps);
    await worker.drain();
    const mail = smtp.messages.find((m) => m.to.includes(s.email));
    expect(mail?.from).toBe('versand@spree-kurier.de');
    expect(mail?.raw).toMatch(/^From: Spree Kurier <versand@spree-kurier\.de>\r?$/m);
    expect(mail?.raw).toMatch(/^Reply-To: kundenservice@spree-kurier\.de\r?$/m);
    const sms = texted.filter((q) => q.get('to') === s.phone);
    expect(sms.map((q) => q.get('from'))).toEqual(['SpreeKurier']);
  });

  it('shows its name and logo on the tracking read, the logo served through the token alone', async () => {
    const s = await scene();
    const png = pngImage(4, 2, [11, 95, 255]);
    const { sender } = await expectOk(s.tn.admin.put('/api/admin/sender/logo', { logo: { image: png.toString('base64') } }));
    expect(sender.logo_url).toMatch(/^\/api\/admin\/sender\/logo\?v=[0-9a-f]{12}$/);
    const own = await s.tn.admin.get(sender.logo_url);
    expect([own.status, own.headers['content-type'], own.headers['cache-control']]).toEqual([200, 'image/png', 'private, max-age=31536000, immutable']);
    const { tracking } = await expectOk(t.anonymous.get(`/api/tracking/${s.token}`));
    expect(tracking.sender.name).toBe(s.name);
    const url = new URL(tracking.sender.logo_url);
    expect(url.origin + url.pathname).toBe(`https://track.example/api/tracking/${s.token}/logo`);
    const served = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect([served.statusCode, served.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(served.rawPayload.equals(png)).toBe(true);
    // Another tenant's logo is not reachable by a token of this one, nor by no token; removing it removes it.
    expect((await t.anonymous.get(`/api/tracking/${'x'.repeat(43)}/logo`)).status).toBe(404);
    await expectOk(s.tn.admin.delete('/api/admin/sender/logo'));
    expect((await t.anonymous.get(url.pathname)).status).toBe(404);
    expect((await expectOk(t.anonymous.get(`/api/tracking/${s.token}`))).tracking.sender).toEqual({ name: s.name, logo_url: null });
    await expectOk(s.tn.admin.patch('/api/admin/sender', { sender: { name: 'Spree Kurier' } }));
    expect((await expectOk(t.anonymous.get(`/api/tracking/${s.token}`))).tracking.sender.name).toBe('Spree Kurier');
  });
});

describe("the recipient's own stop on the tracking read", () => {
  it('has the address and the day; the pickup has neither', async () => {
    const s = await scene();
    await expectOk(s.driver.client.post(`/api/hailing/tours/${s.tour.id}/driver_location`, { location: { lat: 52.49, lng: 13.4, recorded_at: t.clock.now().toISOString() } }));
    const { tracking } = await expectOk(t.anonymous.get(`/api/tracking/${s.token}`));
    const [pickup, dropoff] = tracking.stops;
    expect(pickup).not.toHaveProperty('address');
    expect(pickup).not.toHaveProperty('date');
    expect(dropoff.address).toEqual({ street: 'Torstraße', number: '2', zip_code: '10119', city: 'Berlin' });
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(dropoff.eta));
    expect(dropoff.date).toBe(day);
  });

  it('narrows the ETA window to at most 30 minutes once the driver heads here, narrower as it comes near', async () => {
    const s = await scene();
    const widths: number[] = [];
    const width = async () => {
      const { tracking } = await expectOk(t.anonymous.get(`/api/tracking/${s.token}`));
      const w = tracking.stops.find((x: { kind: string }) => x.kind === 'dropoff').eta_window;
      return (Date.parse(w.latest) - Date.parse(w.earliest)) / 60_000;
    };
    // Before the pickup the drop-off is not next: the queue's wider window.
    const far = { lat: 51.9, lng: 13.4 };
    await expectOk(s.driver.client.post(`/api/hailing/tours/${s.tour.id}/driver_location`, { location: { ...far, recorded_at: t.clock.now().toISOString() } }));
    const before = await width();
    const pickup = s.booking.stops[0] as { id: string };
    await driveStop(s.driver.client, pickup.id, 'completed');
    // Heading here from 60 km away (a queue's window would be 40 minutes wide), then at a driver's pace (a jump would
    // be refused as implausible): 7 km, 3.5 km, 0.5 km.
    for (const [lat, minutes] of [[51.9, 1], [52.45, 120], [52.48, 6], [52.505, 6]] as const) {
      t.clock.advance(minutes * 60_000);
      await expectOk(s.driver.client.post(`/api/hailing/tours/${s.tour.id}/driver_location`, { location: { lat, lng: 13.41, recorded_at: t.clock.now().toISOString() } }));
      widths.push(await width());
    }
    expect(before).toBeGreaterThan(30);
    for (const w of widths) expect(w).toBeLessThanOrEqual(30);
    expect(widths[0]).toBe(30);
    expect(widths[3]!).toBeLessThan(widths[1]!);
    expect(widths[3]!).toBeGreaterThan(0);
  });
});
