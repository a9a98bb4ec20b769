// npm run bench -- intake [import|geocode|region] (issue 37): one section per figure, each printed as it finishes.
//   import:   the console's import of 1,000 rows with Monaco addresses (no coordinates: the server geocodes them) in
//             Chromium, from the file chosen to the last booking written (the preview's geocoding and dry run, then the
//             import), against a plain bulk create of the same bookings with coordinates (POST …/bookings/bulk in
//             chunks of 100, as the page sends) in the same run: per row, the ratio (goal ≤ 20 s, ≤ 2×);
//   geocode:  GET /api/geocode p95 with 1,000 places in the tenant, against a bare indexed SELECT on the same table in
//             the same run (the ratio);
//   region:   `region import` of Monaco on PGlite and PostgreSQL (BENCH_DATABASE_URL), time and peak RSS.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { importRegion } from '../src/modules/region/index.ts';
import { inProcessApp } from './_harness.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const MONACO = path.join(ROOT, 'regions/monaco.osm.pbf');
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const STREETS = ['Boulevard des Moulins', 'Rue Grimaldi', 'Avenue de la Costa', 'Boulevard Albert 1er', 'Rue Basse', 'Avenue Princesse Grace'];

async function geocodeSection(): Promise<void> {
  const t = await inProcessApp('geocode');
  try {
    await importRegion(t.deps, MONACO, { name: 'monaco' });
    for (let i = 0; i < 1000; i++) {
      const street = STREETS[i % STREETS.length]!;
      await t.call('POST', '/api/places', { place: { name: `P${i}`, location: { lat: 43.73 + i / 1e5, lng: 7.42 }, address: { street, number: String(i + 1), zip_code: '98000', city: 'Monaco', country: 'MC' } } });
    }
    const queries = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `${(i % 900) + 1} ${STREETS[i % STREETS.length]}, 98000 Monaco` : i % 3 === 1 ? '6 Quai Antoine 1er, 98000 Monaco' : 'Rue Grimaldi'));
    const geo: number[] = [];
    const bare: number[] = [];
    for (const q of queries) {
      let at = performance.now();
      await t.call('GET', `/api/geocode?q=${encodeURIComponent(q)}`);
      geo.push(performance.now() - at);
      at = performance.now();
      await t.deps.db.execute(sql`SELECT * FROM places WHERE tenant_id = ${t.tenantId} AND address_key LIKE ${'rue grimaldi|%'} LIMIT 10`);
      bare.push(performance.now() - at);
    }
    console.log(`geocode (${t.deps.database.kind}): GET /api/geocode p95 ${p95(geo).toFixed(1)} ms over ${geo.length} queries, 1,000 places; bare indexed SELECT p95 ${p95(bare).toFixed(2)} ms; ratio ${(p95(geo) / p95(bare)).toFixed(1)}`);
  } finally {
    await t.close();
  }
}

const IMPORT_ROWS = 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Row i of the file: a street of the extract (house or street precision) with a number, as a shop exports it. */
const importRow = (prefix: string, i: number) => `${prefix}-${i},Recipient ${i},${STREETS[i % STREETS.length]},${(i % 40) + 1},98000,Monaco,MC,2026-12-01 14:00,2026-12-01 16:00,1`;

async function importSection(): Promise<void> {
  const t = await inProcessApp('import');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    await importRegion(t.deps, MONACO, { name: 'monaco' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const area = (await t.call('POST', '/api/admin/service_areas', { service_area: { name: 'Monaco', currency: 'EUR', time_zone: 'Europe/Monaco', country_code: 'MC' } })).service_area;
    const serviceId: string = (await t.call('POST', '/api/admin/hailing/services', { service: { name: 'Deliveries', service_area_id: area.id } })).service.id;
    const depot = (await t.call('POST', '/api/places', { place: { name: 'Depot', service_area_id: area.id, location: { lat: 43.7275, lng: 7.4165 }, address: { street: 'Rue du Gabian', number: '2', zip_code: '98000', city: 'Monaco', country: 'MC' } } })).place;
    const email = `bench-import-${Date.now()}@example.com`;
    await t.call('POST', '/api/users', { user: { role: 'admin', email, password: 'correct horse battery staple', name: 'Bench', organization_ids: [] } });

    // Baseline: the same bookings with coordinates and addresses (no geocoding, no place), 100 per bulk call.
    const baseline = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
      idempotency_key: `plain-${i}`,
      booking: {
        service_id: serviceId,
        external_id: `PLAIN-${i}`,
        stops: [
          { type: 'pickup', place_id: depot.id },
          { type: 'dropoff', location: { lat: 43.73 + (i % 50) / 10_000, lng: 7.42 + (i % 40) / 10_000 }, address: { street: STREETS[i % STREETS.length], number: String((i % 40) + 1), zip_code: '98000', city: 'Monaco', country: 'MC' }, contact: { name: `Recipient ${i}` } },
        ],
        packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
      },
    }));
    let at = performance.now();
    for (let start = 0; start < IMPORT_ROWS; start += 100) {
      const body = await t.call('POST', '/api/hailing/bookings/bulk', { bookings: baseline.slice(start, start + 100) });
      if (body.results.some((r: { status: number }) => r.status !== 201)) throw new Error(`baseline bulk: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const plain = (performance.now() - at) / 1000;

    const head = 'Order number,Recipient,Street,House number,Postcode,City,Country,Window start,Window end,Parcels';
    const csv = `${[head, ...Array.from({ length: IMPORT_ROWS }, (_, i) => importRow('IMP', i))].join('\r\n')}\r\n`;
    const context = await browser.newContext({ viewport: { width: 1366, height: 820 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${url}/console`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('button', { name: 'Import CSV' }).click();
    at = performance.now();
    await page.getByLabel('CSV file').setInputFiles({ name: 'day.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByLabel('Pickup place for all rows').selectOption(depot.id);
    const preview = page.getByRole('status').filter({ hasText: 'rows can be imported' });
    await preview.waitFor({ timeout: 600_000 });
    // The status reads "looking up…" figures first; the preview is done when its sentence is whole.
    while (!/^\d+ rows can be imported, \d+ already imported, \d+ with errors\.$/.test((await preview.textContent()) ?? '')) await new Promise((r) => setTimeout(r, 100));
    const previewed = (performance.now() - at) / 1000;
    const previewText = await preview.textContent();
    // What the refused rows say, so a bench file that stops fitting the region shows why (the figure needs whole rows).
    const refused = await page.locator('.import-row-errors li').allTextContents();
    if (refused.length) console.log(`refused rows say, e.g.: ${[...new Set(refused)].slice(0, 3).join(' | ')}`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const summary = page.getByRole('status').filter({ hasText: 'created,' });
    await summary.waitFor({ timeout: 900_000 });
    const total = (performance.now() - at) / 1000;
    const summaryText = await summary.textContent();
    const created = Number(/^(\d+) created/.exec(summaryText ?? '')?.[1] ?? 0);
    console.log(
      `import (${t.deps.database.kind}): ${IMPORT_ROWS} rows in Chromium, file chosen to last booking written ${total.toFixed(1)} s (preview ${previewed.toFixed(1)} s: "${previewText}"; then "${summaryText}"); ` +
        `plain bulk create with coordinates ${plain.toFixed(1)} s; per row ${((total / Math.max(created, 1)) * 1000).toFixed(1)} ms against ${((plain / IMPORT_ROWS) * 1000).toFixed(1)} ms, ratio ${(total / Math.max(created, 1) / (plain / IMPORT_ROWS)).toFixed(2)}`,
    );
    await context.close();
  } finally {
    await browser.close();
    await t.close();
  }
}

function regionSection(): void {
  const run = (label: string, env: NodeJS.ProcessEnv) => {
    const at = performance.now();
    const child = spawnSync('/usr/bin/time', ['-f', 'peak_rss_kb=%M', process.execPath, '--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'region', 'import', MONACO, '--name', 'bench-monaco', '--json'], { env, encoding: 'utf8' });
    const wall = (performance.now() - at) / 1000;
    if (child.status !== 0) throw new Error(`region import (${label}) failed: ${child.stderr}`);
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { seconds: number; counts: Record<string, number> };
    const rss = /peak_rss_kb=(\d+)/.exec(child.stderr)?.[1];
    console.log(`region import (${label}): ${report.seconds} s import, ${wall.toFixed(1)} s the whole command, peak RSS ${rss ? Math.round(Number(rss) / 1024) : '?'} MB, counts ${JSON.stringify(report.counts)}`);
  };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-bench-region-'));
  try {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    run('PGlite', env);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (process.env.BENCH_DATABASE_URL) run('PostgreSQL', { ...process.env, DATABASE_URL: process.env.BENCH_DATABASE_URL, LOG_LEVEL: 'silent' });
}

const only = process.argv[3];
if (!only || only === 'import') await importSection();
if (!only || only === 'geocode') await geocodeSection();
if (!only || only === 'region') regionSection();
