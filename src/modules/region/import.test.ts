// Region import (issue 37): the Monaco extract in, counts stored; bad files refused with the previous region intact;
// a re-import of the same name replaces the region in one transaction. Tests run in any order: each names its own
// regions, and "monaco" (imported once here) is only read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { queryRows } from '../../db/sql.ts';
import { IMPORT_STEPS } from './import-steps.ts';
import { importParsed, importRegion, listRegions, OsmFileError, readOsmFile, regionContaining, regionForPoints, type ImportReport, type OsmData } from './index.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../regions/monaco.osm.pbf');

describe('region import', { timeout: 120_000 }, () => {
  let t: TestApp;
  let dir: string;
  let osm: OsmData;
  let monaco: ImportReport;
  beforeAll(async () => {
    t = await buildTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-region-'));
    monaco = await importRegion(t.deps, MONACO, { name: 'monaco' });
    osm = await readOsmFile(MONACO);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const regionIds = async (name: string) => (await queryRows<{ id: string }>(t.deps.db, sql`SELECT id FROM regions WHERE name = ${name}`)).map((r) => r.id);
  const addressCount = async (regionId: string) =>
    (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM region_addresses WHERE region_id = ${regionId}`))[0]!.n;

  it('imports Monaco: addresses, streets, localities, its box; the region serves the points inside it', async () => {
    expect(monaco.counts.addresses).toBeGreaterThan(50);
    expect(monaco.counts.streets).toBeGreaterThan(300);
    expect(monaco.bbox.minLng).toBeCloseTo(7.349, 3);
    expect(monaco.bbox.maxLat).toBeCloseTo(43.77, 3);
    const region = (await listRegions(t.deps.db)).find((r) => r.name === 'monaco');
    expect(region).toMatchObject({ id: monaco.regionId, counts: monaco.counts });
    expect(await addressCount(monaco.regionId)).toBe(monaco.counts.addresses);
    expect((await regionContaining(t.deps.db, { lat: 43.7384, lng: 7.4246 }))?.name).toMatch(/^monaco/);
    expect(await regionContaining(t.deps.db, { lat: 52.52, lng: 13.4 })).toBeNull();
    expect((await regionForPoints(t.deps.db, [{ lat: 43.73, lng: 7.42 }, { lat: 43.75, lng: 7.44 }]))?.name).toMatch(/^monaco/);
    expect(await regionForPoints(t.deps.db, [{ lat: 43.73, lng: 7.42 }, { lat: 52.52, lng: 13.4 }])).toBeNull();
  });

  it('a re-import of the same name replaces the region: one region, a new id, the old rows gone; other names stay', async () => {
    const first = await importParsed(t.deps, osm, MONACO, { name: 'monaco-again' });
    const second = await importParsed(t.deps, osm, MONACO, { name: 'monaco-again' });
    expect(second.replacedId).toBe(first.regionId);
    expect(await regionIds('monaco-again')).toEqual([second.regionId]);
    expect(await addressCount(first.regionId)).toBe(0);
    expect(await addressCount(second.regionId)).toBe(second.counts.addresses);
    expect(await regionIds('monaco')).toEqual([monaco.regionId]);
  });

  it('a re-import removes the rows of every known step, also of one the run leaves out', async () => {
    const first = await importParsed(t.deps, osm, MONACO, { name: 'monaco-steps' });
    await importParsed(t.deps, osm, MONACO, { name: 'monaco-steps', steps: [] });
    expect(await addressCount(first.regionId)).toBe(0);
  });

  const bad: [string, (file: string) => void, OsmFileError['reason']][] = [
    ['an empty file', (file) => fs.writeFileSync(file, ''), 'empty'],
    ['a truncated file', (file) => fs.writeFileSync(file, fs.readFileSync(MONACO).subarray(0, 900_000)), 'truncated'],
    ['a foreign file (a CSV)', (file) => fs.writeFileSync(file, 'name,street\nA,Rue Grimaldi\n'), 'foreign'],
    ['a foreign file (gzip)', (file) => fs.writeFileSync(file, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3, 4])), 'foreign'],
    ['a missing file', () => undefined, 'missing'],
  ];
  for (const [what, make, reason] of bad) {
    it(`${what} is refused with a clear error; the previous region stays`, async () => {
      const file = path.join(dir, `${reason}-${Math.random()}.osm.pbf`);
      make(file);
      const error = await importRegion(t.deps, file, { name: 'monaco' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(OsmFileError);
      expect((error as OsmFileError).reason).toBe(reason);
      expect((error as Error).message).toContain(file);
      expect(await regionIds('monaco')).toEqual([monaco.regionId]);
      expect(await addressCount(monaco.regionId)).toBe(monaco.counts.addresses);
    });
  }

  it('a step that fails midway rolls the whole import back', async () => {
    const failing = { name: 'failing', run: async () => Promise.reject(new Error('disk full')), remove: async () => undefined };
    await expect(importParsed(t.deps, osm, MONACO, { name: 'monaco', steps: [...IMPORT_STEPS, failing] })).rejects.toThrow('disk full');
    expect(await regionIds('monaco')).toEqual([monaco.regionId]);
    expect(await addressCount(monaco.regionId)).toBe(monaco.counts.addresses);
  });
});
