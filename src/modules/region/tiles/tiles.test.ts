// The map's tiles and glyphs (decision 1540, docs/api-guide.md "Map tiles"): stored from the demo region's MBTiles
// and from tilemaker itself, served with the right headers, 404 outside, never a 5xx on a bad path. Both databases.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../test/app.ts';
import { hasTilemaker, importTiles, prebuiltTilesFor, readMbtiles, TILE_CACHE_SECONDS, tilesStep } from './index.ts';
import { deleteTiles } from './repository.ts';

const DEMO_TILES = path.resolve(import.meta.dirname, '../../../../regions/monaco.mbtiles');
// Monaco's harbour at z14 (XYZ): x = floor((7.4246 + 180) / 360 · 2¹⁴), y from 43.7347 by the Web Mercator formula.
const HARBOUR = { z: 14, x: 8529, y: 5974 };

const hasOsmium = async (): Promise<boolean> =>
  promisify(execFile)('osmium', ['--version']).then(
    () => true,
    () => false,
  );

/** An extract path in a temp folder with the demo's prebuilt tiles next to it (the extract itself never read). */
function extractWithPrebuilt(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tiles-test-'));
  fs.copyFileSync(DEMO_TILES, path.join(dir, 'monaco.mbtiles'));
  return path.join(dir, 'monaco.osm.pbf');
}

/** Decodes the layer names of a Mapbox Vector Tile (field 3 = layer, its field 1 = name) without a library. */
function layerNames(tile: Buffer): string[] {
  const names: string[] = [];
  let i = 0;
  const varint = (buf: Buffer, at: number): [number, number] => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const byte = buf[at++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if (byte < 0x80) return [value, at];
    }
  };
  while (i < tile.length) {
    const [key, next] = varint(tile, i);
    const [length, start] = varint(tile, next);
    if (key >> 3 === 3) {
      const layer = tile.subarray(start, start + length);
      const [, nameLengthAt] = varint(layer, 1);
      const [nameLength, nameStart] = [layer[1]!, nameLengthAt];
      names.push(layer.subarray(nameStart, nameStart + nameLength).toString());
    }
    i = start + length;
  }
  return names;
}

describe('the region tiles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    monaco = await regionRow('monaco');
    await restore();
  });
  let monaco: string;
  /** A regions row of our own (the region import's other steps are not this file's subject). */
  const regionRow = async (name: string): Promise<string> => {
    const id = randomUUID();
    await t.deps.db.execute(sql`INSERT INTO regions (id, name, min_lat, min_lng, max_lat, max_lng, source, imported_at, counts)
      VALUES (${id}, ${name}, 43.72, 7.40, 43.76, 7.44, 'test', now(), '{}'::jsonb)`);
    return id;
  };
  // Tests run in a random order: one that changes the stored tiles puts the demo's back.
  const restore = async (): Promise<void> => void (await importTiles(t.deps.db, monaco, extractWithPrebuilt(), { tilemaker: false }));
  afterAll(async () => {
    await t.close();
  });

  it('answer 404 while no region has tiles, for the tiles and their TileJSON', async () => {
    await deleteTiles(t.deps.db, monaco);
    try {
      expect((await t.anonymous.get('/tiles/tiles.json')).status).toBe(404);
      const tile = await t.anonymous.get(`/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`);
      expect(tile.status).toBe(404);
      expect(tile.body.error_code).toBe('not_found');
    } finally {
      await restore();
    }
  });

  it('answers a tile read in the last 30 seconds without the database; another process\'s deletion shows after them (decision 1780)', async () => {
    const harbour = `/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`;
    expect((await t.anonymous.get(harbour)).status).toBe(200);
    // As another process's import would: straight in the database, not through this process's tiles code.
    await t.deps.db.execute(sql`DELETE FROM region_tiles WHERE region_id = ${monaco}`);
    try {
      t.clock.advanceSeconds(TILE_CACHE_SECONDS - 1);
      expect((await t.anonymous.get(harbour)).status).toBe(200);
      t.clock.advanceSeconds(2);
      expect((await t.anonymous.get(harbour)).status).toBe(404);
    } finally {
      await restore();
    }
    // A write of tiles in this process is seen at once.
    expect((await t.anonymous.get(harbour)).status).toBe(200);
  });

  it('stores the prebuilt tiles next to the extract when tilemaker is not used, with the TMS rows flipped', async () => {
    const extract = extractWithPrebuilt();
    expect(prebuiltTilesFor(extract)).toBe(path.join(path.dirname(extract), 'monaco.mbtiles'));
    const result = await importTiles(t.deps.db, monaco, extract, { tilemaker: false });
    const fileTiles = await readMbtiles(DEMO_TILES);
    expect(result).toEqual({ tiles: fileTiles.length, origin: 'prebuilt' });
    expect(fileTiles.length).toBeGreaterThan(100);
    expect(fileTiles.some((tile) => tile.z === HARBOUR.z && tile.x === HARBOUR.x && tile.y === HARBOUR.y)).toBe(true);
  });

  it('serves a tile of the harbour gzipped as a vector tile, with water, streets and their names', async () => {
    const response = await t.anonymous.get(`/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    const raw = (await t.app.inject({ method: 'GET', url: `/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`, headers: { 'accept-encoding': 'gzip' } })).rawPayload;
    const names = layerNames(gunzipSync(raw));
    expect(names).toEqual(expect.arrayContaining(['transportation', 'transportation_name', 'building', 'water']));
  });

  it('serves the tile unzipped to a client that does not accept gzip', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`, headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(layerNames(response.rawPayload)).toContain('transportation');
  });

  it('describes what the tiles cover in a TileJSON: Monaco inside its bounds, z11–16, the attribution', async () => {
    const response = await t.anonymous.get('/tiles/tiles.json');
    expect(response.status).toBe(200);
    const { bounds, minzoom, maxzoom, attribution, tiles } = response.body;
    expect([minzoom, maxzoom]).toEqual([11, 16]);
    expect(attribution).toBe('© OpenStreetMap contributors');
    expect(tiles).toEqual(['/tiles/{z}/{x}/{y}.pbf']);
    const [west, south, east, north] = bounds as number[];
    expect(west! < 7.4246 && 7.4246 < east! && south! < 43.7347 && 43.7347 < north!).toBe(true);
    expect(east! - west!).toBeLessThan(0.5);
  });

  it.each([
    ['a tile outside the region', `/tiles/14/0/0.pbf`, 404],
    ['a zoom beyond the tiles', `/tiles/17/${HARBOUR.x * 8}/${HARBOUR.y * 8}.pbf`, 404],
    ['a column beyond the zoom', `/tiles/3/8/0.pbf`, 404],
    ['a zoom beyond 22', `/tiles/23/0/0.pbf`, 404],
    ['a negative row', `/tiles/14/8529/-1.pbf`, 404],
    ['no .pbf', `/tiles/14/8529/5974`, 404],
    ['another suffix', `/tiles/14/8529/5974.png`, 404],
    ['letters', `/tiles/z/x/y.pbf`, 404],
    ['a huge number', `/tiles/14/99999999999999999999/1.pbf`, 404],
    ['a path beyond', `/tiles/14/8529/5974.pbf/more`, 404],
  ])('%s → %i, never a 5xx', async (_what, url, status) => {
    const response = await t.anonymous.get(url);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('serves the glyphs of street names for both fonts, an empty range for a range not generated, 404 for anything else', async () => {
    for (const stack of ['Noto Sans Regular', 'Noto Sans Bold']) {
      const latin = await t.app.inject({ method: 'GET', url: `/tiles/glyphs/${encodeURIComponent(stack)}/0-255.pbf` });
      expect(latin.statusCode).toBe(200);
      expect(latin.headers['content-type']).toBe('application/x-protobuf');
      // A real range holds ~200 signed-distance bitmaps: tens of kilobytes, the stack's name first.
      expect(latin.rawPayload.length).toBeGreaterThan(20_000);
      expect(latin.rawPayload.subarray(0, 40).toString('latin1')).toContain(stack);
    }
    const greek = await t.app.inject({ method: 'GET', url: '/tiles/glyphs/Noto%20Sans%20Regular/768-1023.pbf' });
    expect(greek.rawPayload.length).toBeGreaterThan(20_000);
    const cjk = await t.app.inject({ method: 'GET', url: '/tiles/glyphs/Noto%20Sans%20Regular/19968-20223.pbf' });
    expect(cjk.statusCode).toBe(200);
    expect(cjk.rawPayload.length).toBeLessThan(100);
    expect(cjk.rawPayload.toString('latin1')).toContain('19968-20223');
    for (const url of ['/tiles/glyphs/Comic%20Sans/0-255.pbf', '/tiles/glyphs/Noto%20Sans%20Regular/1-256.pbf', '/tiles/glyphs/Noto%20Sans%20Regular/0-511.pbf', '/tiles/glyphs/Noto%20Sans%20Regular/..%2F..%2Fpackage.json', '/tiles/glyphs/Noto%20Sans%20Regular/65536-65791.pbf']) {
      const response = await t.anonymous.get(url);
      expect(response.status, url).toBe(404);
    }
  });

  it('makes the tiles with tilemaker when it is installed, replacing the region\'s earlier tiles', async (context) => {
    if (!(await hasTilemaker()) || !(await hasOsmium())) return context.skip();
    // An extract of our own: one named street across the harbour, written as OSM XML and turned into PBF by osmium.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tilemaker-test-'));
    const xml = path.join(dir, 'street.osm');
    fs.writeFileSync(
      xml,
      `<?xml version="1.0" encoding="UTF-8"?><osm version="0.6" generator="test"><bounds minlat="43.73" minlon="7.42" maxlat="43.74" maxlon="7.43"/>` +
        `<node id="1" version="1" lat="43.7340" lon="7.4240"/><node id="2" version="1" lat="43.7350" lon="7.4255"/>` +
        `<way id="10" version="1"><nd ref="1"/><nd ref="2"/><tag k="highway" v="primary"/><tag k="name" v="Quai Albert 1er"/></way></osm>`,
    );
    const extract = path.join(dir, 'street.osm.pbf');
    await promisify(execFile)('osmium', ['cat', xml, '-o', extract]);
    const result = await importTiles(t.deps.db, monaco, extract).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
    onTestFinished(restore);
    expect(result.origin).toBe('tilemaker');
    // One street: a tile per zoom 11–16 on its path, no more than a few.
    expect(result.tiles).toBeGreaterThanOrEqual(6);
    expect(result.tiles).toBeLessThan(20);
    const response = await t.app.inject({ method: 'GET', url: `/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`, headers: { 'accept-encoding': 'identity' } });
    expect(response.statusCode).toBe(200);
    expect(layerNames(response.rawPayload).sort()).toEqual(['transportation', 'transportation_name']);
    expect(response.rawPayload.toString('utf8')).toContain('Quai Albert 1er');
  });

  it('imports without tiles when neither tilemaker nor a prebuilt file is there, and removes the earlier ones', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tiles-none-'));
    const result = await importTiles(t.deps.db, monaco, path.join(dir, 'nowhere.osm.pbf'), { tilemaker: false });
    onTestFinished(restore);
    expect(result).toEqual({ tiles: 0, origin: 'none' });
    expect((await t.anonymous.get(`/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`)).status).toBe(404);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a file that is not MBTiles with a clear error', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tiles-bad-'));
    fs.writeFileSync(path.join(dir, 'bad.mbtiles'), 'not a database');
    await expect(importTiles(t.deps.db, await regionRow('bad'), path.join(dir, 'bad.osm.pbf'), { tilemaker: false })).rejects.toThrow(/not a database|file is not a database/i);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the tiles step of the region import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is one of the import\'s steps: the demo region imported has its tiles, replaced by a second import, gone with the region', async () => {
    const { importRegion, deleteRegion } = await import('../index.ts');
    const { IMPORT_STEPS } = await import('../import-steps.ts');
    expect(IMPORT_STEPS).toContain(tilesStep);
    // The tiles step alone (the addresses step is the region's own tests' subject).
    const steps = [tilesStep];
    const extract = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');
    const first = await importRegion(t.deps, extract, { name: 'monaco-steps', steps });
    expect(first.counts.tiles).toBeGreaterThan(100);
    const count = async (regionId: string) => (await t.deps.db.execute(sql`SELECT count(*)::int AS n FROM region_tiles WHERE region_id = ${regionId}`)) as unknown as { rows: { n: number }[] };
    expect((await count(first.regionId)).rows[0]!.n).toBe(first.counts.tiles);
    const second = await importRegion(t.deps, extract, { name: 'monaco-steps', steps });
    expect((await count(first.regionId)).rows[0]!.n).toBe(0);
    expect((await count(second.regionId)).rows[0]!.n).toBe(second.counts.tiles);
    expect((await t.anonymous.get(`/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`)).status).toBe(200);
    expect(await deleteRegion(t.deps, 'monaco-steps')).toBe(true);
    expect((await count(second.regionId)).rows[0]!.n).toBe(0);
    expect((await t.anonymous.get(`/tiles/${HARBOUR.z}/${HARBOUR.x}/${HARBOUR.y}.pbf`)).status).toBe(404);
  }, 240_000);
});
