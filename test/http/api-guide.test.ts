// Every `curl` example of docs/api-guide.md runs as written — real bash, real curl — against a live service with the
// demo loaded, and answers 2xx. The shell variables the examples use ($TOKEN, $BOOKING, …) are set per example from
// fresh resources, as the guide's "Getting a token" section describes.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDemo, type DemoResult } from '../../src/demo.ts';
import { buildTestApp, OPERATOR_TOKEN, type TestApp, type TestTenant } from '../app.ts';
import { createBooking, createPlace, createService, createUser, createWebhook, driveStop, expectOk, mergeIntoTour, tourEnRoute } from '../factories.ts';

const PNG_1x1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const GUIDE = path.resolve(import.meta.dirname, '../../docs/api-guide.md');

/** The `curl` commands of every ```sh block, continuation lines joined, comment lines dropped. */
export function guideCommands(markdown: string): { line: number; command: string }[] {
  const commands: { line: number; command: string }[] = [];
  const lines = markdown.split('\n');
  let inShell = false;
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.startsWith('```')) {
      inShell = !inShell && text.trim() === '```sh';
      continue;
    }
    if (!inShell || !text.startsWith('curl ')) continue;
    let command = text;
    const start = i + 1;
    while (command.endsWith('\\') || (command.split("'").length - 1) % 2 === 1) command = `${command}\n${lines[++i] ?? ''}`;
    commands.push({ line: start, command });
  }
  return commands;
}

let t: TestApp;
let tenant: TestTenant;
let demo: DemoResult;
let port: number;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-guide-'));

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
  demo = await runDemo({ baseUrl: `http://127.0.0.1:${port}`, adminToken: tenant.adminToken });
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await t.close();
});

/** Fresh resources for the variables one example uses, coherent with each other (the stop is the driver's). */
async function variablesFor(command: string): Promise<Record<string, string>> {
  const admin = tenant.admin;
  const uses = (name: string) => new RegExp(`\\$${name}\\b`).test(command);
  const organization = demo.organizationIds[0] ?? '';
  const env: Record<string, string> = { TOKEN: tenant.adminToken, OPERATOR_TOKEN, ORGANIZATION: organization, SERVICE_AREA: demo.serviceAreaId };
  const service = await createService(admin, { service_area_id: demo.serviceAreaId });
  env.SERVICE = service.id;
  const driver = await createUser(admin, { role: 'driver', organization_ids: [organization] });
  Object.assign(env, { DRIVER: driver.id, DRIVER_TOKEN: driver.token });
  if (uses('USER_ID')) env.USER_ID = (await createUser(admin, { role: 'manager', organization_ids: [organization] })).id;
  if (uses('PLACE')) env.PLACE = (await createPlace(admin, { service_area_id: demo.serviceAreaId })).id;
  if (uses('CUSTOMER')) env.CUSTOMER = (await createUser(admin, { role: 'customer' })).id;
  const twoPackages = [{ pickup_stop_index: 0, dropoff_stop_index: 1 }, { pickup_stop_index: 0, dropoff_stop_index: 1 }];
  const booking = await createBooking(admin, { service_id: service.id, managing_organization_ids: [organization], packages: twoPackages });
  Object.assign(env, { BOOKING: booking.id, STOP_A: booking.stops[0].id, STOP_B: booking.stops[1].id, PACKAGE: booking.packages[0].id, PACKAGE_2: booking.packages[1].id, SHORTCODE: booking.packages[0].shortcode });
  if (uses('BOOKING_2')) env.BOOKING_2 = (await createBooking(admin, { service_id: service.id })).id;
  if (uses('SHIFT')) {
    // A shift of the driver around the test clock's now, for planning with named shifts.
    const now = t.clock.now().getTime();
    const shift = { starts_at: new Date(now - 3600_000).toISOString(), ends_at: new Date(now + 8 * 3600_000).toISOString(), start_location: { lat: 52.52, lng: 13.405 } };
    env.SHIFT = (await expectOk(admin.post(`/api/drivers/${driver.id}/shifts`, { shift }), 201)).shift.id;
  }
  if (uses('TOUR')) {
    const tour = await mergeIntoTour(admin, [booking.id]);
    await expectOk(admin.post(`/api/hailing/tours/${tour.id}/schedule`));
    // Reporting a position needs the driver on the tour; claiming it needs it free.
    if (uses('TOUR') && /driver_location/.test(command)) await expectOk(admin.post(`/api/hailing/tours/${tour.id}/force_assign`, { driver_id: driver.id }));
    env.TOUR = tour.id;
  } else if (uses('STOP')) {
    // An arrived drop-off on the driver's en_route tour, its pickup done: ready to complete or fail.
    await tourEnRoute(admin, [booking.id], driver.id);
    await driveStop(driver.client, booking.stops[0].id, 'completed');
    await driveStop(driver.client, booking.stops[1].id, 'arrived');
    env.STOP = booking.stops[1].id;
    // Reading a proof needs one: the drop-off completed with a photo (a 1×1 PNG), as a driver's app sends it.
    if (/\/proof\//.test(command)) await expectOk(driver.client.post(`/api/stops/${env.STOP}/complete`, { proof: { photo: PNG_1x1, recipient_name: 'A. Lovelace' } }));
  }
  if (uses('WH')) env.WH = (await createWebhook(admin, 'https://example.com/hooks')).id;
  if (uses('REFRESH_TOKEN')) {
    const email = `guide-${Date.now()}@example.com`;
    await createUser(admin, { role: 'manager', organization_ids: [organization], email, password: 'correct horse' });
    env.REFRESH_TOKEN = (await expectOk(t.anonymous.post('/api/signin', { user: { email, password: 'correct horse' } }))).refresh_token;
  }
  return env;
}

/**
 * Runs the example in bash with curl aimed at the test server; the status and body of each curl call it makes.
 * Asynchronously: the server answering curl lives in this process.
 */
async function run(command: string, env: Record<string, string>): Promise<{ status: string; body: string }[]> {
  const out = path.join(dir, 'answer');
  const wrapper = `curl() { command curl --connect-to localhost:3000:127.0.0.1:${port} -sS -o "${out}.$((n+=1))" -w '%{http_code}\\n' "$@"; }; n=0\n`;
  const shellEnv = { PATH: process.env.PATH, HOME: dir, ...env };
  const result = await promisify(execFile)('bash', ['--noprofile', '--norc', '-c', wrapper + command], { encoding: 'utf8', env: shellEnv, timeout: 30_000 });
  expect(result.stderr, command).not.toMatch(/curl:/);
  return result.stdout
    .trim()
    .split('\n')
    .map((status, i) => ({ status, body: fs.readFileSync(`${out}.${i + 1}`, 'utf8') }));
}

const commands = guideCommands(fs.readFileSync(GUIDE, 'utf8'));

// In the guide's order: an example may use what an earlier one created (Ana signs in after she was created).
describe('the API guide', { shuffle: false }, () => {
  it('has curl examples to run', () => {
    expect(commands.length).toBeGreaterThan(20);
  });

  it.each(commands.map((c) => [c.line, c.command] as const))('runs the example at docs/api-guide.md:%i as written', async (_line, command) => {
    const answers = await run(command, await variablesFor(command));
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer.status, `${command}\n→ ${answer.status} ${answer.body}`).toMatch(/^2\d\d$/);
  });
});
