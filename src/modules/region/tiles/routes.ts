// The map's own files, same origin, no credential (decision 1540, docs/api-guide.md "Map tiles"): the imported
// regions' vector tiles, a TileJSON of what they cover, and the glyphs of street names. Public like the page shells
// that need them (the tracking page has no sign-in); they hold only OpenStreetMap's open data.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../../deps.ts';
import { AppError } from '../../../http/errors.ts';
import { cachedTile } from './cache.ts';
import { findUp } from './mbtiles.ts';
import { readTile, tileCoverage } from './repository.ts';

export const GLYPH_DIR = findUp(path.dirname(fileURLToPath(import.meta.url)), path.join('src', 'modules', 'region', 'tiles', 'glyphs'), path.join('Noto Sans Regular', '0-255.pbf'));
export const FONT_STACKS = ['Noto Sans Regular', 'Noto Sans Bold'] as const;
export const ATTRIBUTION = '© OpenStreetMap contributors';

const TILE_Z = /^(?:[0-9]|1[0-9]|2[0-2])$/;
const TILE_INDEX = /^[0-9]{1,7}$/;
const TILE_Y = /^([0-9]{1,7})\.pbf$/;
const GLYPH_RANGE = /^([0-9]{1,5})-([0-9]{1,5})\.pbf$/;

/** A glyph range with no glyphs, for the ranges not generated (scripts/map-glyphs.mjs): a label shows what it has. */
const emptyRange = (stack: string, range: string): Buffer => {
  const name = Buffer.from(stack);
  const rangeBytes = Buffer.from(range);
  const inner = Buffer.concat([Buffer.from([0x0a, name.length]), name, Buffer.from([0x12, rangeBytes.length]), rangeBytes]);
  return Buffer.concat([Buffer.from([0x0a, inner.length]), inner]);
};

const notFound = (what: string) => new AppError(404, 'not_found', `No ${what.slice(0, 200)}.`);

const mapHeaders = (reply: FastifyReply, cache: string): void => {
  void reply.headers({
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'same-origin',
    vary: 'accept-encoding',
  });
};

export function tileRoutes(deps: Deps) {
  return async (app: FastifyInstance): Promise<void> => {
    const config = { auth: 'public' as const };
    app.get('/tiles/:z/:x/:y', { config, schema: { hide: true } }, async (request, reply) => {
      const { z, x, y } = request.params as { z: string; x: string; y: string };
      const yMatch = TILE_Y.exec(y);
      if (!TILE_Z.test(z) || !TILE_INDEX.test(x) || !yMatch) throw notFound(`tile ${z}/${x}/${y}`);
      const [zoom, column, row] = [Number(z), Number(x), Number(yMatch[1])];
      if (column >= 2 ** zoom || row >= 2 ** zoom) throw notFound(`tile ${z}/${x}/${y}`);
      const data = await cachedTile(deps.db, deps.clock, zoom, column, row, () => readTile(deps.db, zoom, column, row));
      if (!data) throw notFound(`tile ${z}/${x}/${y}`);
      // A region's tiles change only with its next import: an hour fresh, then revalidated by ETag.
      mapHeaders(reply, 'public, max-age=3600');
      const gzipped = data[0] === 0x1f && data[1] === 0x8b;
      const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      void reply.type('application/vnd.mapbox-vector-tile');
      if (gzipped && acceptsGzip) {
        void reply.header('content-encoding', 'gzip');
        return reply.send(Buffer.from(data));
      }
      return reply.send(gzipped ? gunzipSync(data) : Buffer.from(data));
    });

    app.get('/tiles/tiles.json', { config, schema: { hide: true } }, async (_request, reply) => {
      const coverage = await tileCoverage(deps.db);
      if (!coverage) throw notFound('map tiles: no region with tiles is imported');
      const lng = (x: number) => (x / 2 ** coverage.z) * 360 - 180;
      const lat = (y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** coverage.z))) * 180) / Math.PI;
      mapHeaders(reply, 'no-cache');
      return {
        tilejson: '3.0.0',
        // Relative to this origin: the page makes it absolute (web/map/style.ts).
        tiles: ['/tiles/{z}/{x}/{y}.pbf'],
        minzoom: coverage.minzoom,
        maxzoom: coverage.maxzoom,
        bounds: [lng(coverage.minX), lat(coverage.maxY + 1), lng(coverage.maxX + 1), lat(coverage.minY)].map((n) => Math.round(n * 1e6) / 1e6),
        attribution: ATTRIBUTION,
        glyphs: '/tiles/glyphs/{fontstack}/{range}.pbf',
      };
    });

    app.get('/tiles/glyphs/:fontstack/:range', { config, schema: { hide: true } }, async (request, reply) => {
      const { fontstack, range } = request.params as { fontstack: string; range: string };
      const match = GLYPH_RANGE.exec(range);
      const start = Number(match?.[1]);
      // MapLibre asks for one stack at a time (our style names one font per layer).
      if (!(FONT_STACKS as readonly string[]).includes(fontstack) || !match || start % 256 !== 0 || Number(match[2]) !== start + 255 || start > 65280) {
        throw notFound(`glyphs ${fontstack}/${range}`);
      }
      const file = path.join(GLYPH_DIR, fontstack, `${start}-${start + 255}.pbf`);
      mapHeaders(reply, 'public, max-age=86400');
      void reply.type('application/x-protobuf');
      return reply.send(fs.existsSync(file) ? fs.readFileSync(file) : emptyRange(fontstack, `${start}-${start + 255}`));
    });
  };
}
