// The built web assets (dist/web/, scripts/build-web.mjs): found once, served from memory-cheap file reads with the
// precompressed copy the client accepts (decision 1000).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PageFiles {
  script: string;
  styles: string[];
  /** Chunks the entry imports, named in the HTML so they load in parallel (the driver app's). */
  preload?: string[];
}

export interface WebAssets {
  dir: string;
  /** The page's entry script and styles as served URLs; null when the web build is missing. */
  page(name: string): PageFiles | null;
  /** A web/public/ file's served URL (hashed name), e.g. publicUrl('icon.svg'). */
  publicUrl(name: string): string | null;
  /** A file under assets/ by its served name, in the best encoding the client accepts. */
  file(name: string, acceptEncoding: string | undefined): { path: string; encoding: 'br' | 'gzip' | null } | null;
}

/** dist/web/ found upwards from this file: src/pages/ when run from source, dist/chunks/ when built. */
export function findWebDir(from = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'dist', 'web');
    if (fs.existsSync(path.join(candidate, 'pages.json'))) return candidate;
    const inside = path.join(dir, 'web');
    if (path.basename(dir) === 'dist' && fs.existsSync(path.join(inside, 'pages.json'))) return inside;
    if (path.dirname(dir) === dir) return null;
  }
}

interface Manifest {
  pages: Record<string, PageFiles>;
  public: Record<string, string>;
}

const SAFE_NAME = /^[A-Za-z0-9._-]{1,200}$/;

export function openWebAssets(dir: string): WebAssets {
  const manifest = path.join(dir, 'pages.json');
  // Re-read when the build writes it again (`node scripts/build-web.mjs --watch`): one stat per page load.
  let cached: { mtimeMs: number; manifest: Manifest } | null = null;
  const read = (): Manifest => {
    const mtimeMs = fs.statSync(manifest, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (!cached || cached.mtimeMs !== mtimeMs) {
      cached = { mtimeMs, manifest: mtimeMs ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as Manifest) : { pages: {}, public: {} } };
    }
    return cached.manifest;
  };
  const assets = path.join(dir, 'assets');
  return {
    dir,
    page: (name) => read().pages[name] ?? null,
    publicUrl: (name) => read().public[name] ?? null,
    file: (name, acceptEncoding) => {
      if (!SAFE_NAME.test(name) || name.startsWith('.')) return null;
      const plain = path.join(assets, name);
      if (!fs.existsSync(plain)) return null;
      const accepts = (coding: string) => new RegExp(`(^|[\\s,])${coding}(\\s*;\\s*q=(?!0(\\.0*)?\\b)[0-9.]+)?(\\s*,|\\s*$)`).test(acceptEncoding ?? '');
      if (accepts('br') && fs.existsSync(`${plain}.br`)) return { path: `${plain}.br`, encoding: 'br' };
      if (accepts('gzip') && fs.existsSync(`${plain}.gz`)) return { path: `${plain}.gz`, encoding: 'gzip' };
      return { path: plain, encoding: null };
    },
  };
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export const contentTypeOf = (name: string): string => TYPES[path.extname(name)] ?? 'application/octet-stream';
