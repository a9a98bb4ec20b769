// `region import`: parse the extract once, then one transaction that replaces the region of that name with the new
// one — readers see the old region or the new one, never half (decision 1501). A process killed midway leaves the
// transaction uncommitted, so the previous region stays served.
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';
import { newId } from '../../shared/ids.ts';
import { IMPORT_STEPS, type ImportStep } from './import-steps.ts';
import { readOsmFile } from './osm-reader.ts';
import { forgetTiles } from './tiles/index.ts';
import type { OsmData } from './osm-data.ts';

export interface ImportReport {
  regionId: string;
  name: string;
  /** The region it replaced, if one had that name. */
  replacedId: string | null;
  bbox: OsmData['bbox'];
  /** Every step's counts, merged. */
  counts: Record<string, number>;
  steps: { name: string; counts: Record<string, number>; ms: number }[];
  readMs: number;
  totalMs: number;
}

/** The region's name when none is given: the file's name without `.osm.pbf` ("monaco"). */
export const defaultRegionName = (file: string): string => path.basename(file).replace(/\.osm\.pbf$|\.pbf$/i, '');

export async function importRegion(
  deps: Pick<Deps, 'db' | 'clock'>,
  file: string,
  options: { name?: string; steps?: readonly ImportStep[] } = {},
): Promise<ImportReport> {
  const started = performance.now();
  const osm = await readOsmFile(file);
  const readMs = performance.now() - started;
  const report = await importParsed(deps, osm, file, options);
  return { ...report, readMs, totalMs: performance.now() - started };
}

/** The transaction of an import, for an extract already read (tests and benchmarks read Monaco once). */
export async function importParsed(
  deps: Pick<Deps, 'db' | 'clock'>,
  osm: OsmData,
  file: string,
  options: { name?: string; steps?: readonly ImportStep[] } = {},
): Promise<ImportReport> {
  const started = performance.now();
  const name = options.name ?? defaultRegionName(file);
  if (name.trim() === '') throw new Error('the region needs a name (--name)');
  const steps = options.steps ?? IMPORT_STEPS;
  const regionId = newId();
  const reports: ImportReport['steps'] = [];
  const counts: Record<string, number> = {};
  const replacedId = await deps.db.transaction(async (tx) => {
    // Two imports of one name wait for each other instead of failing on the unique name.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`region:${name}`}, 0))`);
    const [previous] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM regions WHERE name = ${name} FOR UPDATE`);
    // Every known step's rows go, also those of a step this run leaves out.
    if (previous) await removeRegionRows(tx, previous.id, [...new Set([...IMPORT_STEPS, ...steps])]);
    const { bbox } = osm;
    await tx.execute(sql`INSERT INTO regions (id, name, min_lat, min_lng, max_lat, max_lng, source, imported_at, counts)
      VALUES (${regionId}, ${name}, ${bbox.minLat}, ${bbox.minLng}, ${bbox.maxLat}, ${bbox.maxLng}, ${path.basename(file)}, ${deps.clock.now().toISOString()}, '{}'::jsonb)`);
    for (const step of steps) {
      const at = performance.now();
      const stepCounts = await step.run(tx, regionId, osm, { path: file });
      reports.push({ name: step.name, counts: stepCounts, ms: performance.now() - at });
      Object.assign(counts, stepCounts);
    }
    await tx.execute(sql`UPDATE regions SET counts = ${JSON.stringify(counts)}::jsonb WHERE id = ${regionId}`);
    return previous?.id ?? null;
  });
  forgetTiles();
  return { regionId, name, replacedId, bbox: osm.bbox, counts, steps: reports, readMs: 0, totalMs: performance.now() - started };
}

/** Every step's rows of the region, then the region itself. */
async function removeRegionRows(q: Queryable, regionId: string, steps: readonly ImportStep[]): Promise<void> {
  for (const step of steps) await step.remove(q, regionId);
  await q.execute(sql`DELETE FROM regions WHERE id = ${regionId}`);
}

/** Deletes the region of that name and all its rows; false when there is none. */
export async function deleteRegion(deps: Pick<Deps, 'db'>, name: string): Promise<boolean> {
  const deleted = await deps.db.transaction(async (tx) => {
    const [row] = await queryRows<{ id: string }>(tx, sql`SELECT id FROM regions WHERE name = ${name} FOR UPDATE`);
    if (!row) return false;
    await removeRegionRows(tx, row.id, IMPORT_STEPS);
    return true;
  });
  if (deleted) forgetTiles();
  return deleted;
}
