// A re-import on PostgreSQL (PGlite has one session): a concurrent reader never sees half a region, and an import
// killed with SIGKILL midway (a real child process running the CLI) leaves the previous region served.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/app.ts';
import { queryRows } from '../../db/sql.ts';
import { importParsed, importRegion, readOsmFile, type ImportReport, type OsmData } from './index.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MONACO = path.join(ROOT, 'regions/monaco.osm.pbf');

describe.skipIf(!process.env.TEST_DATABASE_URL)('region re-import on PostgreSQL', { timeout: 240_000 }, () => {
  let t: TestApp;
  let osm: OsmData;
  let monaco: ImportReport;
  beforeAll(async () => {
    t = await buildTestApp();
    monaco = await importRegion(t.deps, MONACO, { name: 'monaco' });
    osm = await readOsmFile(MONACO);
  }, 240_000);
  afterAll(async () => t?.close());

  /** One statement: the region of that name and how many addresses it has, as one snapshot. */
  const snapshot = async (name: string) =>
    (await queryRows<{ id: string; stored: number; rows: number }>(
      t.deps.db,
      sql`SELECT r.id, (r.counts->>'addresses')::int AS stored, (SELECT count(*)::int FROM region_addresses a WHERE a.region_id = r.id) AS rows FROM regions r WHERE r.name = ${name}`,
    ));

  it('a reader during a re-import sees the old region or the new one, whole, never none or half', async () => {
    let done = false;
    const seen = new Set<string>();
    const reading = (async () => {
      while (!done) {
        const rows = await snapshot('monaco');
        expect(rows).toHaveLength(1);
        expect(rows[0]!.rows).toBe(rows[0]!.stored);
        seen.add(rows[0]!.id);
      }
    })();
    const report = await importParsed(t.deps, osm, MONACO, { name: 'monaco' }).finally(() => (done = true));
    await reading;
    expect(seen.has(report.replacedId!)).toBe(true);
    expect((await snapshot('monaco'))[0]!.id).toBe(report.regionId);
    monaco = report;
  });

  it('kill -9 during an import leaves the previous region served', async () => {
    const url = (t.deps.database.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'region', 'import', MONACO, '--name', 'monaco'], {
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // The import holds its name's advisory lock from its transaction's start: then it is midway.
    for (let i = 0; ; i++) {
      const [row] = await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND granted`);
      if (row!.n > 0) break;
      if (i > 2_000) throw new Error('the import never started its transaction');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const rows = await snapshot('monaco');
    expect(rows).toEqual([{ id: monaco.regionId, stored: monaco.counts.addresses, rows: monaco.counts.addresses }]);
  });
});
