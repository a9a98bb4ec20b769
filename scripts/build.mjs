// npm run build (and `prepare`, at install): bundles src/ into plain JavaScript in dist/ and prepares the embedded seed.
// dist/main.js is the CLI; each command's code is its own chunk loaded on demand, so `--help` loads almost nothing.
// dist/pglite-seed.tar.gz is an embedded database with every migration applied: a fresh DATA_DIR starts from it
// instead of running PostgreSQL's initdb (the slowest part of a first start). It is rebuilt only when migrations/ changes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const migrations = path.join(root, 'migrations');
const started = performance.now();

// Old chunks have hashed names: clear the bundle, keep the seed (rebuilt below only when stale).
for (const entry of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
  if (!entry.startsWith('pglite-seed')) fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
}
await esbuild.build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
const bundled = performance.now();

// The seed is keyed by the migrations it contains.
const hash = crypto.createHash('sha256');
for (const file of listFiles(migrations).sort()) hash.update(path.relative(migrations, file)).update(fs.readFileSync(file));
const migrationsHash = hash.digest('hex');
const seedPath = path.join(dist, 'pglite-seed.tar.gz');
const stampPath = path.join(dist, 'pglite-seed.json');
const stamp = fs.existsSync(stampPath) ? JSON.parse(fs.readFileSync(stampPath, 'utf8')) : null;
let seeded = 'kept';
if (!fs.existsSync(seedPath) || stamp?.migrationsHash !== migrationsHash || !Array.isArray(stamp?.tags)) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const client = await PGlite.create();
  await migrate(drizzle(client), { migrationsFolder: migrations });
  const dump = await client.dumpDataDir('gzip');
  await client.close();
  fs.writeFileSync(seedPath, Buffer.from(await dump.arrayBuffer()));
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8'));
  fs.writeFileSync(stampPath, JSON.stringify({ migrationsHash, tags: journal.entries.map((e) => e.tag) }) + '\n');
  seeded = 'rebuilt';
}
const ms = (a, b) => `${Math.round(b - a)} ms`;
console.log(`tourbook build: dist/ bundled in ${ms(started, bundled)}, embedded seed ${seeded} (${ms(bundled, performance.now())})`);

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
