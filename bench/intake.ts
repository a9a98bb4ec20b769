// npm run bench -- intake (issue 37): one section per figure, each printed as it finishes; engineer "intake-console"
// adds the Chromium import of 1,000 rows as one more section.
//   geocode:  GET /api/geocode p95 with 1,000 places in the tenant, against a bare indexed SELECT on the same table in
//             the same run (the ratio);
//   region:   `region import` of Monaco on PGlite and PostgreSQL (BENCH_DATABASE_URL), time and peak RSS.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildTestApp } from '../test/app.ts';
import { importRegion } from '../src/modules/region/index.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const MONACO = path.join(ROOT, 'regions/monaco.osm.pbf');
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const STREETS = ['Boulevard des Moulins', 'Rue Grimaldi', 'Avenue de la Costa', 'Boulevard Albert 1er', 'Rue Basse', 'Avenue Princesse Grace'];

async function geocodeSection(): Promise<void> {
  const t = await buildTestApp();
  try {
    const tenant = await t.createTenant();
    await importRegion(t.deps, MONACO, { name: 'monaco' });
    for (let i = 0; i < 1000; i++) {
      const street = STREETS[i % STREETS.length]!;
      const res = await tenant.admin.post('/api/places', { place: { name: `P${i}`, location: { lat: 43.73 + i / 1e5, lng: 7.42 }, address: { street, number: String(i + 1), zip_code: '98000', city: 'Monaco', country: 'MC' } } });
      if (res.status !== 201) throw new Error(`place ${i}: ${res.status}`);
    }
    const queries = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? `${(i % 900) + 1} ${STREETS[i % STREETS.length]}, 98000 Monaco` : i % 3 === 1 ? '6 Quai Antoine 1er, 98000 Monaco' : 'Rue Grimaldi'));
    const geo: number[] = [];
    const bare: number[] = [];
    for (const q of queries) {
      let at = performance.now();
      const res = await tenant.admin.get(`/api/geocode?q=${encodeURIComponent(q)}`);
      geo.push(performance.now() - at);
      if (res.status !== 200) throw new Error(`geocode ${q}: ${res.status}`);
      at = performance.now();
      await t.deps.db.execute(sql`SELECT * FROM places WHERE tenant_id = ${tenant.tenantId} AND address_key LIKE ${'rue grimaldi|%'} LIMIT 10`);
      bare.push(performance.now() - at);
    }
    console.log(`geocode (${t.deps.database.kind}): GET /api/geocode p95 ${p95(geo).toFixed(1)} ms over ${geo.length} queries, 1,000 places; bare indexed SELECT p95 ${p95(bare).toFixed(2)} ms; ratio ${(p95(geo) / p95(bare)).toFixed(1)}`);
  } finally {
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
if (!only || only === 'geocode') await geocodeSection();
if (!only || only === 'region') regionSection();
