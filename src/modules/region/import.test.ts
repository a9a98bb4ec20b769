// Region import (issue 37): the Monaco extract in, counts stored; bad files refused with the previous region intact;
// a re-import of the same name replaces the region in one transaction.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { queryRows } from '../../db/sql.ts';
import { importRegion, listRegions, OsmFileError, regionContaining, regionForPoints } from './index.ts';

export const MONACO = path.resolve(import.meta.dirname, '../../../regions/monaco.osm.pbf');

describe('region import', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-region-'));
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const regionCount = async () => (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM regions`))[0]!.n;
  const addressCount = async (regionId: string) =>
    (await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM region_addresses WHERE region_id = ${regionId}`))[0]!.n;

  it('imports Monaco: addresses, streets, localities, its box; the region serves the points inside it', async () => {
    const report = await importRegion(t.deps, MONACO, { name: 'monaco' });
    expect(report.counts.addresses).toBeGreaterThan(50);
    expect(report.counts.streets).toBeGreaterThan(300);
    expect(report.bbox.minLng).toBeCloseTo(7.349, 3);
    expect(report.bbox.maxLat).toBeCloseTo(43.77, 3);
    const [region] = await listRegions(t.deps.db);
    expect(region).toMatchObject({ id: report.regionId, name: 'monaco', counts: report.counts });
    expect(await addressCount(report.regionId)).toBe(report.counts.addresses);
    expect((await regionContaining(t.deps.db, { lat: 43.7384, lng: 7.4246 }))?.id).toBe(report.regionId);
    expect(await regionContaining(t.deps.db, { lat: 52.52, lng: 13.4 })).toBeNull();
    expect((await regionForPoints(t.deps.db, [{ lat: 43.73, lng: 7.42 }, { lat: 43.75, lng: 7.44 }]))?.id).toBe(report.regionId);
    expect(await regionForPoints(t.deps.db, [{ lat: 43.73, lng: 7.42 }, { lat: 52.52, lng: 13.4 }])).toBeNull();
  });

  it('a re-import of the same name replaces the region: one region, a new id, the old rows gone', async () => {
    const [before] = await listRegions(t.deps.db);
    const report = await importRegion(t.deps, MONACO, { name: 'monaco' });
    expect(report.replacedId).toBe(before!.id);
    expect(await regionCount()).toBe(1);
    expect(await addressCount(before!.id)).toBe(0);
    expect(await addressCount(report.regionId)).toBe(report.counts.addresses);
  });

  it('another name is another region beside it', async () => {
    const report = await importRegion(t.deps, MONACO, { name: 'monaco-copy' });
    expect((await listRegions(t.deps.db)).map((r) => r.name)).toEqual(['monaco', 'monaco-copy']);
    await importRegion(t.deps, MONACO, { name: 'monaco-copy', steps: [] });
    expect(await addressCount(report.regionId)).toBe(0);
    await t.deps.db.execute(sql`DELETE FROM regions WHERE name = 'monaco-copy'`);
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
      const [before] = await listRegions(t.deps.db);
      const file = path.join(dir, `${reason}-${Math.random()}.osm.pbf`);
      make(file);
      const error = await importRegion(t.deps, file, { name: 'monaco' }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(OsmFileError);
      expect((error as OsmFileError).reason).toBe(reason);
      expect((error as Error).message).toContain(file);
      const [after] = await listRegions(t.deps.db);
      expect(after?.id).toBe(before!.id);
      expect(await addressCount(before!.id)).toBeGreaterThan(50);
    });
  }

  it('a step that fails midway rolls the whole import back', async () => {
    const [before] = await listRegions(t.deps.db);
    const failing = { name: 'failing', run: async () => { throw new Error('disk full'); }, remove: async () => undefined };
    const { IMPORT_STEPS } = await import('./import-steps.ts');
    await expect(importRegion(t.deps, MONACO, { name: 'monaco', steps: [...IMPORT_STEPS, failing] })).rejects.toThrow('disk full');
    const [after] = await listRegions(t.deps.db);
    expect(after?.id).toBe(before!.id);
    expect(await addressCount(before!.id)).toBeGreaterThan(50);
  });
});
