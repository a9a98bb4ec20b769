// The web build (decision 1000): the console, the driver app and the tracking page, bundled by esbuild into
// dist/web/. Every asset under dist/web/assets/ has a content hash in its name (served immutable) and a gzip and a
// brotli copy beside it (served by Accept-Encoding without compressing per request); dist/web/pages.json tells the
// server which script and style files each page's HTML names. `node scripts/build-web.mjs --watch` rebuilds on change.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The pages and their entry modules; the server serves `<name>` at /<name> (web/README.md). */
export const WEB_ENTRIES = ['console', 'track', 'driver'];

const hashOf = (bytes) => crypto.createHash('sha256').update(bytes).digest('base64url').slice(0, 10);

/** MapLibre's CSP build runs its worker from a file of ours instead of a blob: URL, so worker-src stays 'self'. */
function copyMapWorker(assets) {
  const source = path.join(path.dirname(require.resolve('maplibre-gl/package.json')), 'dist', 'maplibre-gl-csp-worker.js');
  const bytes = fs.readFileSync(source);
  const name = `maplibre-worker-${hashOf(bytes)}.js`;
  fs.writeFileSync(path.join(assets, name), bytes);
  return `/assets/${name}`;
}

function precompress(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (/\.(gz|br|map)$/.test(entry.name)) continue;
    const bytes = fs.readFileSync(file);
    if (bytes.length < 512) continue;
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(bytes, { level: 9 }));
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
}

/**
 * The driver app is bundled on its own, with React's API served by preact/compat (decision 1210): on a mid-range phone
 * react-dom's ~200 KB took most of a first visit's script time. The console and the tracking page stay one build on
 * React (they share chunks); the driver app shares none with them, so its first screen is one script.
 */
const BUILDS = [
  { entries: ['console', 'track'], alias: {} },
  { entries: ['driver'], alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
];

function options(out, mapWorkerUrl, { entries, alias }) {
  return {
    entryPoints: entries.map((name) => ({ in: path.join(root, 'web', name, 'main.tsx'), out: name })),
    alias,
    // The metafile's paths (and so pages.json) are relative to the project, and an alias resolves from here.
    absWorkingDir: root,
    outdir: path.join(out, 'assets'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    minify: true,
    sourcemap: 'linked',
    metafile: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.svg': 'file', '.png': 'file', '.woff2': 'file' },
    publicPath: '/assets',
    define: { 'process.env.NODE_ENV': '"production"', __MAPLIBRE_WORKER_URL__: JSON.stringify(mapWorkerUrl) },
    logLevel: 'warning',
  };
}

/** web/public/ files (icons, the web manifest's images) copied under hashed names: { 'icon.svg': '/assets/icon-….svg' }. */
function copyPublic(assets) {
  const dir = path.join(root, 'web', 'public');
  const copied = {};
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const bytes = fs.readFileSync(path.join(dir, name));
    const ext = path.extname(name);
    const hashed = `${path.basename(name, ext)}-${hashOf(bytes)}${ext}`;
    fs.writeFileSync(path.join(assets, hashed), bytes);
    copied[name] = `/assets/${hashed}`;
  }
  return copied;
}

/** One metafile for the builds (dist/web/meta.json, pages.json): their outputs never share a name but by equal content. */
function mergeMetafiles(metafiles) {
  return { inputs: Object.assign({}, ...metafiles.map((m) => m.inputs)), outputs: Object.assign({}, ...metafiles.map((m) => m.outputs)) };
}

/** pages.json: for each page, the entry script and the style sheets esbuild emitted for it, as served URLs. */
function pagesOf(metafile, out, publicFiles) {
  const pages = {};
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint) continue;
    const name = WEB_ENTRIES.find((entry) => output.entryPoint === `web/${entry}/main.tsx`);
    if (!name) continue;
    const url = (f) => `/${path.relative(out, path.resolve(root, f)).split(path.sep).join('/')}`;
    pages[name] = { script: url(file), styles: output.cssBundle ? [url(output.cssBundle)] : [] };
  }
  return { pages, public: publicFiles };
}

/**
 * The driver app's home-screen icons as PNG (what installable web apps need at 192 and 512 px), drawn here from the
 * SVG icon's shapes with zlib: no image library. Returned as public files like web/public's.
 */
function pngIcon(size) {
  const px = (x, y) => {
    const u = (x + 0.5) / size;
    const v = (y + 0.5) / size;
    const r = 14 / 64;
    const cx = Math.min(Math.max(u, r), 1 - r);
    const cy = Math.min(Math.max(v, r), 1 - r);
    if ((u - cx) ** 2 + (v - cy) ** 2 > r * r) return [0, 0, 0, 0];
    if ((u - 47 / 64) ** 2 + (v - 46 / 64) ** 2 <= (5 / 64) ** 2) return [0xfb, 0xbf, 0x24, 255];
    const bar = (u >= 13.5 / 64 && u <= 50.5 / 64 && Math.abs(v - 21 / 64) <= 3.5 / 64) || (Math.abs(u - 0.5) <= 3.5 / 64 && v >= 17.5 / 64 && v <= 49.5 / 64);
    return bar ? [255, 255, 255, 255] : [0x1d, 0x4e, 0xd8, 255];
  };
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) Buffer.from(px(x, y)).copy(raw, y * (size * 4 + 1) + 1 + x * 4);
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function writeDriverIcons(assets) {
  const written = {};
  for (const size of [192, 512]) {
    const bytes = pngIcon(size);
    const name = `driver-icon-${size}-${hashOf(bytes)}.png`;
    fs.writeFileSync(path.join(assets, name), bytes);
    written[`driver-icon-${size}.png`] = `/assets/${name}`;
  }
  return written;
}

/** The served files a page needs to start: its entry script, the chunks it imports statically, its styles. */
function shellOf(metafile, out, name) {
  const url = (f) => `/${path.relative(out, path.resolve(root, f)).split(path.sep).join('/')}`;
  const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint === `web/${name}/main.tsx`);
  if (!entry) return [];
  const files = new Set();
  const visit = (file) => {
    if (files.has(file) || !metafile.outputs[file]) return;
    files.add(file);
    const output = metafile.outputs[file];
    if (output.cssBundle) files.add(output.cssBundle);
    for (const imported of output.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry[0]);
  return [...files].map(url);
}

/**
 * The driver app's service worker (web/driver/sw.ts) as dist/web/driver-sw.js, served at /driver/sw.js: it caches the
 * shell it is given, under a version made of the shell's hashed names, so every build that changes the app is a new
 * worker with a new cache.
 */
async function buildDriverWorker(metafile, out, publicFiles) {
  const shell = ['/driver/', '/driver/manifest.webmanifest', ...shellOf(metafile, out, 'driver'), publicFiles['icon.svg'], publicFiles['driver-icon-192.png'], publicFiles['driver-icon-512.png']].filter(Boolean);
  const version = hashOf(Buffer.from(shell.join('\n')));
  await esbuild.build({
    entryPoints: [path.join(root, 'web', 'driver', 'sw.ts')],
    outfile: path.join(out, 'driver-sw.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    minify: true,
    define: { __SHELL__: JSON.stringify(shell), __VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
  return { shell, version };
}

export async function buildWeb({ out = path.join(root, 'dist', 'web') } = {}) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
  const mapWorkerUrl = copyMapWorker(path.join(out, 'assets'));
  const publicFiles = { ...copyPublic(path.join(out, 'assets')), ...writeDriverIcons(path.join(out, 'assets')) };
  const results = await Promise.all(BUILDS.map((build) => esbuild.build(options(out, mapWorkerUrl, build))));
  const metafile = mergeMetafiles(results.map((result) => result.metafile));
  const manifest = pagesOf(metafile, out, publicFiles);
  // The driver app's chunks named in its HTML (modulepreload): on a phone's slow network they load in parallel with
  // the entry instead of after it.
  if (manifest.pages.driver) manifest.pages.driver.preload = shellOf(metafile, out, 'driver').filter((url) => url.endsWith('.js') && url !== manifest.pages.driver.script);
  fs.writeFileSync(path.join(out, 'pages.json'), JSON.stringify(manifest, null, 2) + '\n');
  await buildDriverWorker(metafile, out, publicFiles);
  fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(metafile));
  precompress(path.join(out, 'assets'));
  return { metafile };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--watch')) {
    const out = path.join(root, 'dist', 'web');
    fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
    const mapWorkerUrl = copyMapWorker(path.join(out, 'assets'));
    const publicFiles = { ...copyPublic(path.join(out, 'assets')), ...writeDriverIcons(path.join(out, 'assets')) };
    // One context per build; pages.json and the worker are written from the latest metafile of each.
    const latest = BUILDS.map(() => null);
    const contexts = await Promise.all(
      BUILDS.map((build, index) =>
        esbuild.context({
          ...options(out, mapWorkerUrl, build),
          minify: false,
          plugins: [
            {
              name: 'pages',
              setup(setup) {
                setup.onEnd((result) => {
                  if (result.metafile) latest[index] = result.metafile;
                  if (latest.every(Boolean)) {
                    const metafile = mergeMetafiles(latest);
                    fs.writeFileSync(path.join(out, 'pages.json'), JSON.stringify(pagesOf(metafile, out, publicFiles), null, 2) + '\n');
                    void buildDriverWorker(metafile, out, publicFiles);
                  }
                  console.log(`web: rebuilt ${build.entries.join(', ')} (${result.errors.length} errors)`);
                });
              },
            },
          ],
        }),
      ),
    );
    await Promise.all(contexts.map((context) => context.watch()));
  } else {
    const started = performance.now();
    await buildWeb();
    console.log(`tourbook build: dist/web bundled in ${Math.round(performance.now() - started)} ms`);
  }
}
