// The console's Reports and Settings pages in Chromium through the real server: a webhook endpoint pointed at a real
// receiver on loopback (test event in the delivery log, secret rotated and shown once, redelivery); a user and an API
// key (token shown once, then revoked); a place; a report uploaded with grants, listed by tag, downloaded, its
// activity and a grant revoked; a manager offered only what it may do. Every page axe-clean and photographed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createService, createServiceArea, createUser, expectOk, type Client } from '../factories.ts';
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from '../webhook-receiver.ts';
import { createWorker, type Worker } from '../../src/worker/loop.ts';
import { axeViolations, downloadedText, LAPTOP, openPage, PHONE, screenshot, signIn, startBrowserApp, type BrowserApp } from './harness.ts';

const PASSWORD = 'correct horse battery staple';

describe('the console\'s reports and settings in a browser', () => {
  let app: BrowserApp;
  let admin: Client;
  let receiver: WebhookReceiver;
  let worker: Worker;
  let orgId: string;
  const people: Record<'admin' | 'manager', { email: string; id: string; name: string }> = {} as never;

  beforeAll(async () => {
    // A small file limit, so a refused upload is cheap to provoke.
    app = await startBrowserApp({ reportMaxBytes: 1024 * 1024 });
    receiver = await startWebhookReceiver();
    worker = createWorker(app.t.deps);
    const tenant = await app.t.createTenant();
    admin = tenant.admin;
    const area = await createServiceArea(admin, { name: 'Berlin' });
    await createService(admin, { service_area_id: area.id, name: 'Same day' });
    const org = await createOrganization(admin, { name: 'Kurier Nord', service_area_ids: [area.id] });
    orgId = org.id;
    for (const role of ['admin', 'manager'] as const) {
      const email = `settings-${role}-${Date.now()}@example.com`;
      const name = `${role === 'admin' ? 'Ada' : 'Max'} ${role}`;
      const created = await createUser(admin, { role, email, name, password: PASSWORD, organization_ids: role === 'manager' ? [org.id] : [] });
      people[role] = { email, id: created.id, name };
    }
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await app?.close();
  });

  it('creates a webhook endpoint, shows its secret once, sends a test event into the delivery log, rotates the secret and redelivers', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Webhooks' }).count()).toBe(1);
    await page.getByRole('button', { name: 'New webhook endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'New webhook endpoint' });
    // A path of its own: other tests point endpoints at the same receiver.
    const url = `${receiver.url}/console-${Date.now()}`;
    const before = receiver.received.length;
    await form.getByLabel('URL').fill(url);
    await form.getByLabel('Description (optional)').fill('ops board');
    await form.getByRole('button', { name: 'Create' }).click();

    const shown = page.getByRole('dialog', { name: `The signing secret of ${url}` });
    await expect.poll(() => shown.getByText('Shown once').count()).toBe(1);
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-settings-webhook-secret-en-GB-1366');
    await shown.getByRole('button', { name: 'Done, I have stored it' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('link', { name: `Open ${url}` }).click();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => page.getByText('A test event is on its way.').count()).toBe(1);
    await worker.drain();
    await receiver.waitFor(before + 1);
    expect(receiver.received[before]!.path).toBe(new URL(url).pathname);
    expect(verifyWebhook(secret, receiver.received[before]!, app.t.clock.now())).toBeTruthy();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'webhook.test' }).filter({ hasText: 'Succeeded' }).count()).toBe(1);
    expect(await log.getByRole('row').filter({ hasText: 'webhook.test' }).textContent()).toContain('HTTP 200');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog', { name: 'Rotate the signing secret?' }).getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: `The signing secret of ${url}` });
    await expect.poll(() => rotated.getByText('Shown once').count()).toBe(1);
    const next = await rotated.getByLabel('Signing secret').inputValue();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    // Escape closes it as "Done" does, and the secret goes with it.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // The native dialog closes at once; React then drops its content.
    await expect.poll(async () => (await page.content()).includes(next)).toBe(false);

    // The worker runs once the service has accepted the redelivery, not when the button was merely clicked.
    await Promise.all([page.waitForResponse((r) => r.url().endsWith('/redeliver') && r.status() === 202), log.getByRole('button', { name: /^Redeliver webhook\.test/ }).click()]);
    await worker.drain();
    await receiver.waitFor(before + 2);
    expect(receiver.received[before + 1]!.path).toBe(new URL(url).pathname);
    expect(verifyWebhook(next, receiver.received[before + 1]!, app.t.clock.now())).toBeTruthy();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => log.getByRole('row').filter({ hasText: 'webhook.test' }).getByRole('cell').nth(2).textContent()).toBe('2');
    watched.expectClean();
    await watched.context.close();
  });

  it('creates a user, and an API key whose token is shown once, then revokes the key', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('dialog', { name: 'New user' });
    const email = `nina-${Date.now()}@example.com`;
    await form.getByLabel('Name').fill('Nina Driver');
    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Role').selectOption('driver');
    await form.getByRole('button', { name: 'Create' }).click();
    // A driver belongs to exactly one organization: the API's answer shows at the field.
    const group = form.getByRole('group', { name: 'Organizations' });
    const description = async () => {
      const id = await group.getAttribute('aria-describedby');
      return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? '') : '';
    };
    await expect.poll(description).toMatch(/organization/i);
    expect(await description()).not.toContain('A manager belongs');
    await form.getByLabel('Kurier Nord').check();
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: email }).count()).toBe(1);
    const created = await expectOk(admin.get('/api/users?limit=100'));
    const nina = created.users.find((u: { email: string }) => u.email === email);
    expect(nina).toMatchObject({ role: 'driver', organization_ids: [orgId] });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'New API key' }).click();
    const keyForm = page.getByRole('dialog', { name: 'New API key' });
    await keyForm.getByLabel('Name').fill('depot scanner');
    await keyForm.getByLabel('Acts as').selectOption({ label: 'Nina Driver (Driver)' });
    await keyForm.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: 'The API key depot scanner' });
    await expect.poll(() => shown.getByText('Shown once').count()).toBe(1);
    const token = await shown.getByLabel('API key').inputValue();
    expect((await app.t.client(token).get('/api/user')).body.user.email).toBe(email);
    await shown.getByRole('button', { name: 'Done, I have stored it' }).click();
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'depot scanner' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.content()).not.toContain(token);

    await row.getByRole('button', { name: 'Revoke depot scanner' }).click();
    await page.getByRole('dialog', { name: 'Revoke the API key depot scanner?' }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => row.getByText('Revoked').count()).toBe(1);
    expect((await app.t.client(token).get('/api/user')).status).toBe(401);
    expect(await axeViolations(page)).toEqual([]);
    watched.expectClean();
    await watched.context.close();
  });

  it('creates a place and edits it, with the API\'s field errors at the fields', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await expect.poll(() => page.getByRole('link', { name: 'Settings' }).count()).toBe(1);
    await page.goto(`${app.url}/console/settings/places`);
    await page.getByRole('button', { name: 'New place' }).click();
    const form = page.getByRole('dialog', { name: 'New place' });
    await form.getByLabel('Name').fill('Depot Nord');
    await form.getByLabel('This place is a hub (depot)').check();
    await form.getByLabel('Latitude').fill('152,55');
    await form.getByLabel('Longitude').fill('13,38');
    await form.getByLabel('Street').fill('Müllerstraße');
    await form.getByLabel('City').fill('Berlin');
    await form.getByRole('button', { name: 'Save' }).click();
    // A latitude beyond 90 is refused by the API, and said at the latitude field.
    await expect.poll(() => form.getByLabel('Latitude').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Latitude').fill('52,55');
    await form.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('table', { name: 'Places' }).getByRole('row').filter({ hasText: 'Depot Nord' });
    await expect.poll(() => row.count()).toBe(1);
    const places = await expectOk(admin.get('/api/places?limit=100'));
    expect(places.places.find((p: { name: string }) => p.name === 'Depot Nord')).toMatchObject({ is_hub: true, location: { lat: 52.55, lng: 13.38 } });

    await row.getByRole('button', { name: 'Edit Depot Nord' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Depot Nord' });
    await edit.getByLabel('Number (optional)').fill('12');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('Müllerstraße 12');
    watched.expectClean();
    await watched.context.close();
  });

  it('turns on auto-dispatch for a service area with its budget', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await expect.poll(() => page.getByRole('link', { name: 'Settings' }).count()).toBe(1);
    await page.goto(`${app.url}/console/settings/service-areas`);
    // The area named Berlin, not another in the Europe/Berlin time zone.
    const row = page.getByRole('table', { name: 'Service areas' }).getByRole('row', { name: /^Berlin\b/ });
    await expect.poll(() => row.textContent()).toContain('Off');
    await row.getByRole('button', { name: 'Edit Berlin' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Berlin' });
    await form.getByLabel('Auto-dispatch new bookings into open tours').check();
    await form.getByLabel('Auto-dispatch budget (ms)').fill('150');
    // The country that phone numbers without "+" are read in (contract §14), written in any case.
    await form.getByLabel('Country (optional)').fill('de');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.textContent()).toContain('On (150 ms)');
    const areas = await expectOk(admin.get('/api/admin/service_areas?limit=100'));
    const berlin = areas.service_areas.find((a: { name: string }) => a.name === 'Berlin');
    expect(berlin.auto_dispatch).toEqual({ enabled: true, budget_ms: 150 });
    expect(berlin.country_code).toBe('DE');
    watched.expectClean();
    await watched.context.close();
  });

  it('edits a service\'s tip distribution and the failure outcomes a driver may choose', async () => {
    const area = await createServiceArea(admin, { name: 'Potsdam' });
    const service = await createService(admin, { service_area_id: area.id, name: 'Evening' });
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await expect.poll(() => page.getByRole('link', { name: 'Settings' }).count()).toBe(1);
    await page.goto(`${app.url}/console/settings/services`);
    await page.getByRole('button', { name: 'Edit Evening' }).click();
    const form = page.getByRole('dialog', { name: 'Edit Evening' });
    await form.getByLabel('Tip distribution').selectOption('completed_dropoffs_on_tour');
    const driver = form.getByRole('group', { name: 'Failure outcomes for Driver' });
    await driver.getByLabel('Return now').uncheck();
    await driver.getByLabel('Reattempt now').uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('table', { name: 'Services' }).getByRole('row').filter({ hasText: 'Evening' });
    await expect.poll(() => row.textContent()).toContain('To the tour that completed all drop-offs');
    const saved = await expectOk(admin.get(`/api/admin/hailing/services/${service.id}`));
    expect(saved.service.tip_distribution_strategy).toBe('completed_dropoffs_on_tour');
    expect(saved.service.failure_outcomes.driver).toEqual(['skip_recovery', 'reattempt_later', 'return_later']);
    watched.expectClean();
    await watched.context.close();
  });

  it('uploads a report with grants, finds it by tag, downloads it, shows the download in its activity and revokes a grant', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('link', { name: 'New report' }).click();
    const title = `Fleet KPIs ${Date.now()}`;
    const content = 'route,stops\nA,12\n'.repeat(20_000);
    await page.getByLabel('Title').fill(title);
    await page.getByLabel('Tags (optional)').fill('kpi, weekly');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'kpis-w12.csv', mimeType: 'text/csv', buffer: Buffer.from(content) });
    await page.getByRole('button', { name: 'Add a grant' }).click();
    await page.getByLabel('Grant 2: shared with').selectOption('user');
    await page.getByLabel('Grant 2: person').selectOption({ label: `${people.manager.name} (${people.manager.email})` });
    expect(await axeViolations(page)).toEqual([]);
    // A slow uplink (about 1.5 s for the file) so the progress bar can be seen moving.
    const cdp = await watched.context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 240_000 });
    await page.getByRole('button', { name: 'Upload report' }).click();
    const progress = page.getByRole('progressbar', { name: /^Uploading \d+ %$/ });
    await expect.poll(() => progress.count()).toBe(1);
    await expect.poll(async () => Number((await progress.getAttribute('value')) ?? 0)).toBeGreaterThan(0);
    await screenshot(page, 'console-new-report-uploading-en-GB-1366');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    await expect.poll(() => page.getByRole('heading', { level: 1, name: title }).count()).toBe(1);
    const download = page.getByRole('link', { name: 'Download kpis-w12.csv' });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toBe('kpis-w12.csv');
    expect(await downloadedText(file)).toBe(content);
    await page.reload();
    await expect.poll(() => page.getByRole('table', { name: 'Activity' }).getByText('Downloaded').count()).toBe(1);

    await page.getByRole('button', { name: `Revoke access: ${people.manager.name} (${people.manager.email})` }).click();
    await page.getByRole('dialog', { name: 'Revoke this grant?' }).getByRole('button', { name: 'Revoke access' }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Revoke access:/ }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Revoke access: All admins' }).count()).toBe(1);

    await page.getByRole('link', { name: 'All reports' }).click();
    await page.getByLabel('Tags', { exact: true }).fill('weekly, kpi');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByRole('link', { name: title }).count()).toBe(1);
    await page.getByLabel('Tags', { exact: true }).fill('monthly');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.getByText('No reports are shared with you here.').count()).toBe(1);
    watched.expectClean();
    await watched.context.close();
  });

  it('says in words why an upload was refused and keeps the form as it was', async () => {
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.admin.email, PASSWORD);
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('link', { name: 'New report' }).click();
    await page.getByLabel('Title').fill('Too large');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1024 * 1024 + 1, 7) });
    await page.getByRole('button', { name: 'Upload report' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('larger than the limit of 1048576 bytes');
    expect(await page.getByLabel('Title').inputValue()).toBe('Too large');
    expect(await page.getByRole('progressbar').count()).toBe(0);
    watched.expectClean();
    await watched.context.close();
  });

  it('offers a manager only the settings it may read or do, and no revoking on a report someone else shared with it', async () => {
    const report = await expectOk(
      admin.post('/api/reports', {
        report: { title: 'Shared with Max', grants: [{ type: 'user', user_id: people.manager.id }], file: { name: 'max.txt', content_type: 'text/plain', content_base64: Buffer.from('hi').toString('base64') } },
      }),
      201,
    );
    const watched = await openPage(app);
    const { page } = watched;
    await signIn(page, app.url, people.manager.email, PASSWORD);
    await page.getByRole('link', { name: 'Settings' }).click();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    await expect.poll(() => sections.getByRole('link').allTextContents()).toEqual(['Users', 'Organizations', 'Services', 'Places', 'Recipient e-mails']);
    await expect.poll(() => page.getByRole('table', { name: 'Users' }).getByText(people.manager.email).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'New user' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Deactivate/ }).count()).toBe(0);
    await sections.getByRole('link', { name: 'Organizations' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Organizations' }).getByText('Kurier Nord').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^(New organization|Edit)/ }).count()).toBe(0);
    await sections.getByRole('link', { name: 'Services' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Services' }).getByText('Same day').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
    await sections.getByRole('link', { name: 'Places' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'New place' }).count()).toBe(1);
    // Recipient e-mails: read and previewed, never saved or reset.
    await sections.getByRole('link', { name: 'Recipient e-mails' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Preview' }).locator('[data-preview="subject"]').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^(Save|Reset to default)$/ }).count()).toBe(0);
    expect(await page.getByLabel('Subject', { exact: true }).getAttribute('readonly')).not.toBeNull();
    // What a manager may not use is not reachable by its address either.
    await page.goto(`${app.url}/console/settings/webhooks`);
    await expect.poll(() => page.getByRole('heading', { name: 'Users' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Webhooks' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${app.url}/console/reports/${report.report.id}`);
    await expect.poll(() => page.getByRole('link', { name: 'Download max.txt' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Activity' }).count()).toBe(0);
    await page.getByRole('link', { name: 'All reports' }).click();
    await page.getByRole('link', { name: 'New report' }).click();
    const types = await page.getByLabel('Grant 1: shared with').locator('option').allTextContents();
    expect(types).toEqual(['The managers of an organization', 'One person']);
    watched.expectClean();
    await watched.context.close();
  });

  it('shows every reports and settings page axe-clean on a laptop and a phone, in English and German', { timeout: 240_000 }, async () => {
    await expectOk(
      admin.post('/api/reports', {
        report: { title: 'Wochenbericht KW 12', tags: ['kpi'], grants: [{ type: 'all_admins' }], file: { name: 'kw12.csv', content_type: 'text/csv', content_base64: Buffer.from('a,b\n1,2\n').toString('base64') } },
      }),
      201,
    );
    const hook = await expectOk(admin.post('/api/admin/webhooks', { webhook: { url: receiver.url, events: ['booking.created', 'tour.created'], description: 'Leitstand' } }), 201);
    await expectOk(admin.post(`/api/admin/webhooks/${hook.webhook.id}/test`), 202);
    await worker.drain();
    const reports = await expectOk(admin.get('/api/reports?limit=1'));
    const pages: [string, string][] = [
      ['reports', '/console/reports'],
      ['report', `/console/reports/${reports.reports[0].id}`],
      ['new-report', '/console/reports/new'],
      ['settings-webhooks', '/console/settings/webhooks'],
      ['settings-webhook', `/console/settings/webhooks/${hook.webhook.id}`],
      ['settings-users', '/console/settings/users'],
      ['settings-organizations', '/console/settings/organizations'],
      ['settings-api-keys', '/console/settings/api-keys'],
      ['settings-services', '/console/settings/services'],
      ['settings-places', '/console/settings/places'],
      ['settings-service-areas', '/console/settings/service-areas'],
      ['settings-recipient-emails', '/console/settings/recipient-emails'],
    ];
    for (const [locale, viewport] of [
      ['en-GB', LAPTOP],
      ['de-DE', PHONE],
      ['de-DE', LAPTOP],
      ['en-GB', PHONE],
    ] as const) {
      const watched = await openPage(app, { locale, viewport });
      const { page } = watched;
      await page.goto(`${app.url}/console`);
      await page.getByLabel(locale === 'en-GB' ? 'Email' : 'E-Mail').fill(people.admin.email);
      await page.getByLabel(locale === 'en-GB' ? 'Password' : 'Passwort').fill(PASSWORD);
      await page.getByRole('button', { name: locale === 'en-GB' ? 'Sign in' : 'Anmelden' }).click();
      await expect.poll(() => page.getByRole('link', { name: locale === 'en-GB' ? 'Settings' : 'Einstellungen' }).count()).toBe(1);
      for (const [name, path] of pages) {
        await page.goto(`${app.url}${path}`);
        await expect.poll(() => page.getByRole('status').filter({ hasText: /Loading|Wird geladen/ }).count()).toBe(0);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
        await page.waitForLoadState('networkidle');
        expect(await axeViolations(page), `${name} ${locale} ${viewport.width}`).toEqual([]);
        await screenshot(page, `console-${name}-${locale}-${viewport.width}`);
      }
      // The largest form, the service editor, in its dialog.
      await page.goto(`${app.url}/console/settings/services`);
      await page.getByRole('button', { name: /Same day/ }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(1);
      expect(await axeViolations(page), `service editor ${locale} ${viewport.width}`).toEqual([]);
      await screenshot(page, `console-settings-service-editor-${locale}-${viewport.width}`);
      watched.expectClean();
      await watched.context.close();
    }
  });
});
