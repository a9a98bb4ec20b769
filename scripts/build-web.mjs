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
export const WEB_ENTRIES = ['console', 'track'];

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

function options(out, mapWorkerUrl) {
  return {
    entryPoints: WEB_ENTRIES.map((name) => ({ in: path.join(root, 'web', name, 'main.tsx'), out: name })),
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

export async function buildWeb({ out = path.join(root, 'dist', 'web') } = {}) {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
  const mapWorkerUrl = copyMapWorker(path.join(out, 'assets'));
  const publicFiles = copyPublic(path.join(out, 'assets'));
  const result = await esbuild.build(options(out, mapWorkerUrl));
  fs.writeFileSync(path.join(out, 'pages.json'), JSON.stringify(pagesOf(result.metafile, out, publicFiles), null, 2) + '\n');
  fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify(result.metafile));
  precompress(path.join(out, 'assets'));
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--watch')) {
    const out = path.join(root, 'dist', 'web');
    fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
    const mapWorkerUrl = copyMapWorker(path.join(out, 'assets'));
    const publicFiles = copyPublic(path.join(out, 'assets'));
    const context = await esbuild.context({
      ...options(out, mapWorkerUrl),
      minify: false,
      plugins: [
        {
          name: 'pages',
          setup(build) {
            build.onEnd((result) => {
              if (result.metafile) fs.writeFileSync(path.join(out, 'pages.json'), JSON.stringify(pagesOf(result.metafile, out, publicFiles), null, 2) + '\n');
              console.log(`web: rebuilt (${result.errors.length} errors)`);
            });
          },
        },
      ],
    });
    await context.watch();
  } else {
    const started = performance.now();
    await buildWeb();
    console.log(`tourbook build: dist/web bundled in ${Math.round(performance.now() - started)} ms`);
  }
}
