// Migrates one template per test run: a PGlite dump (embedded) and, with TEST_DATABASE_URL, a PostgreSQL template;
// renders the API guide page into dist/docs/ as the build does, so GET /docs/guide serves the guide being tested.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { writeGuide } from '../scripts/render-guide.mjs';
import { openPglite, openPostgres } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string | null;
    runId: string;
  }
}

export function adminUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const root = path.resolve(import.meta.dirname, '..');
  writeGuide(root, path.join(root, 'dist'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-test-'));
  const dumpPath = path.join(dir, 'template.tar.gz');
  const embedded = await openPglite();
  await embedded.migrate();
  const dump = await embedded.pglite!.dumpDataDir('gzip');
  fs.writeFileSync(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await embedded.close();
  project.provide('pgliteTemplate', dumpPath);
  project.provide('runId', runId);

  const url = process.env.TEST_DATABASE_URL;
  let template: string | null = null;
  if (url) {
    template = `tb_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const database = openPostgres(adminUrl(url, template), 2);
    await database.migrate();
    await database.close();
    await admin.end();
  }
  project.provide('pgTemplate', template);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (url && template) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
        [`tb_t_${runId}_%`, template],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    }
  };
}
