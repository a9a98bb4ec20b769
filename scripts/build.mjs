// npm run build (and `prepare`, at install): bundles src/ and its dependencies into plain JavaScript in dist/ and
// prepares the embedded seed. dist/main.js is the CLI; each command's code is its own chunk loaded on demand, so
// `--help` loads almost nothing; dist/optimizer-worker.js is the route optimiser's worker thread. Dependencies are
// bundled too (decision 0134): resolving and loading ~600 files from node_modules cost a start more than compiling
// the same code from a few chunks.
// dist/pglite-seed/ is an embedded data directory with every migration applied: a fresh DATA_DIR starts as a copy of
// it instead of running PostgreSQL's initdb (decision 0135), with the demo region (regions/monaco.osm.pbf) imported
// (decision 1504). It is rebuilt only when migrations/, the region import's code or regions/ change.
// dist/docs/ is docs/api-guide.md rendered as a page (decision 0155).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { writeGuide } from './render-guide.mjs';

const require = createRequire(import.meta.url);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const migrations = path.join(root, 'migrations');
const started = performance.now();

// Old chunks have hashed names: clear the bundle, keep the seed (rebuilt below only when stale).
for (const entry of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
  if (!entry.startsWith('pglite-seed')) fs.rmSync(path.join(dist, entry), { recursive: true, force: true });
}
await esbuild.build({
  // The optimiser's worker thread is its own entry: dist/optimizer-worker.js runs without tsx (decision 0961).
  entryPoints: [
    { in: path.join(root, 'src/main.ts'), out: 'main' },
    { in: path.join(root, 'src/optimizer/worker.ts'), out: 'optimizer-worker' },
  ],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // Left as imports: PGlite reads its WebAssembly and file system image next to its own module; pino-pretty is loaded
  // only on a terminal; pg-native is pg's optional native driver, never installed.
  external: ['@electric-sql/pglite', 'pino-pretty', 'pg-native'],
  // CommonJS dependencies inside an ES module bundle still call require() and read __dirname.
  banner: {
    js: [
      "import { createRequire as __tbCreateRequire } from 'node:module';",
      "import { fileURLToPath as __tbFileURLToPath } from 'node:url';",
      'const require = __tbCreateRequire(import.meta.url);',
      'const __filename = __tbFileURLToPath(import.meta.url);',
      "const __dirname = __tbFileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
// Scalar's API reference looks for its page script next to its module, then in ../../dist/js/ from there: from
// dist/chunks/ that is dist/js/.
const scalarScript = path.join(path.dirname(require.resolve('@scalar/fastify-api-reference')), 'js', 'standalone.js');
fs.mkdirSync(path.join(dist, 'js'), { recursive: true });
fs.copyFileSync(scalarScript, path.join(dist, 'js', 'standalone.js'));
// The map's glyphs (decision 1722): committed, rendered again only when a range is missing or stale (another script or
// other fonts than glyphs/stamp.json names) and Debian's fonts-noto-core is installed.
// Without the renderer's packages (an install without dev dependencies) the committed glyphs are served as they are.
const glyphRenderer = await import('./map-glyphs.mjs').catch(() => null);
const glyphs = glyphRenderer?.glyphsStale();
if (glyphs?.stale) {
  console.log(`tourbook build: map glyphs stale (${glyphs.why})${glyphs.fontsInstalled ? ', rendering' : ''}`);
  glyphRenderer.renderGlyphs();
}
// The people's pages (console, driver app, tracking page) into dist/web/ (scripts/build-web.mjs, decision 1000).
const { buildWeb } = await import('./build-web.mjs');
await buildWeb();
// The API guide as the HTML page GET /docs/guide serves (decision 0155): dist/docs/guide.html and its stylesheet.
writeGuide(root, dist);
const bundled = performance.now();

// The seed is keyed by what it contains: the migrations, and the demo region as the import's code reads it.
const hash = crypto.createHash('sha256');
for (const file of listFiles(migrations).sort()) hash.update(path.relative(migrations, file)).update(fs.readFileSync(file));
const regionSources = [path.join(root, 'regions'), path.join(root, 'src/modules/region'), path.join(root, 'src/shared/address.ts')];
for (const file of regionSources.flatMap((dir) => (fs.statSync(dir).isDirectory() ? listFiles(dir) : [dir])).filter((f) => !f.endsWith('.test.ts')).sort()) {
  hash.update(path.relative(root, file)).update(fs.readFileSync(file));
}
const migrationsHash = hash.digest('hex');
const DEMO_REGION = path.join(root, 'regions', 'monaco.osm.pbf');
const seedDir = path.join(dist, 'pglite-seed');
const stampPath = path.join(dist, 'pglite-seed.json');
const stamp = fs.existsSync(stampPath) ? JSON.parse(fs.readFileSync(stampPath, 'utf8')) : null;
let seeded = 'kept';
fs.rmSync(path.join(dist, 'pglite-seed.tar.gz'), { force: true }); // the earlier seed format (a PGlite dump)
if (!fs.existsSync(path.join(seedDir, 'PG_VERSION')) || stamp?.migrationsHash !== migrationsHash || !Array.isArray(stamp?.tags)) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // Built where it will be copied from, on the same file system layer a served DATA_DIR uses (PGlite's NodeFS).
  // A DATA_DIR of its own (the CLI opens DATA_DIR/pglite) so the built CLI can import the demo region into it.
  const buildDataDir = `${seedDir}.partial`;
  const building = path.join(buildDataDir, 'pglite');
  fs.rmSync(buildDataDir, { recursive: true, force: true });
  fs.mkdirSync(buildDataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: building });
  await migrate(drizzle(client), { migrationsFolder: migrations });
  await client.close(); // a clean shutdown: the copy starts without WAL recovery
  const { execFileSync } = await import('node:child_process');
  const env = { ...process.env, DATA_DIR: buildDataDir, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, [path.join(dist, 'main.js'), 'region', 'import', DEMO_REGION, '--name', 'monaco'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  fs.rmSync(path.join(building, 'postmaster.pid'), { force: true });
  fs.rmSync(seedDir, { recursive: true, force: true });
  fs.renameSync(building, seedDir);
  fs.rmSync(buildDataDir, { recursive: true, force: true });
  const journal = JSON.parse(fs.readFileSync(path.join(migrations, 'meta', '_journal.json'), 'utf8'));
  fs.writeFileSync(stampPath, JSON.stringify({ migrationsHash, tags: journal.entries.map((e) => e.tag) }) + '\n');
  seeded = 'rebuilt';
}
const ms = (a, b) => `${Math.round(b - a)} ms`;
console.log(`tourbook build: dist/ bundled in ${ms(started, bundled)}, embedded seed ${seeded} (${ms(bundled, performance.now())})`);

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
