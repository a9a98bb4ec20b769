// Operational endpoints: /healthz (process up), /readyz (database reachable, migrations current), /metrics.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps.ts';
import { MIGRATIONS_DIR } from '../db/client.ts';
import { queryRows } from '../db/sql.ts';
import { withExample } from './openapi-components.ts';

interface Journal {
  entries: { tag: string; when: number }[];
}

/** The migrations this build ships (read once: a running process expects the schema it started with). */
function shippedMigrations(): Journal['entries'] {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as Journal;
  return journal.entries;
}

const Check = Type.Object({ ok: Type.Boolean(), detail: Type.Optional(Type.String()) });
const Readiness = withExample(Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({ database: Check, migrations: Check }),
}), { status: 'ready', checks: { database: { ok: true }, migrations: { ok: true } } });

/** Drizzle records each applied migration with the journal's `when`; current = every shipped one is recorded. */
async function readiness(deps: Deps, shipped: Journal['entries']) {
  try {
    await deps.db.execute(sql`SELECT 1`);
  } catch {
    return { database: { ok: false, detail: 'the database is not reachable' }, migrations: { ok: false, detail: 'unknown' } };
  }
  try {
    const rows = await queryRows<{ created_at: number | string }>(deps.db, sql`SELECT created_at FROM drizzle.__drizzle_migrations`);
    const applied = new Set(rows.map((r) => Number(r.created_at)));
    const missing = shipped.filter((m) => !applied.has(m.when)).map((m) => m.tag);
    return {
      database: { ok: true },
      migrations: missing.length
        ? { ok: false, detail: `${missing.length} of ${shipped.length} migrations not applied: ${missing.join(', ')}` }
        : { ok: true, detail: `${shipped.length} applied` },
    };
  } catch {
    return { database: { ok: true }, migrations: { ok: false, detail: 'no migrations have been applied' } };
  }
}

export const healthRoutes =
  (deps: Deps, metrics: { scrape(): Promise<{ contentType: string; body: string }> }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const shipped = shippedMigrations();
    const publicRoute = { auth: 'public' as const };
    // Probes answer with JSON.stringify: an orchestrator's first probe arrives right after start, and compiling a
    // serializer for it (fast-json-stringify with Ajv for the status union) then delayed the first 200 of a restart.
    const plainJson = () => (data: unknown) => JSON.stringify(data);

    app.get(
      '/healthz',
      { config: publicRoute, serializerCompiler: plainJson, schema: { tags: ['operations'], operationId: 'getHealth', summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: publicRoute,
        serializerCompiler: plainJson,
        schema: { tags: ['operations'], operationId: 'getReadiness', summary: 'Database reachable and migrations current', response: { 200: Readiness, 503: Readiness } },
      },
      async (_request, reply) => {
        const checks = await readiness(deps, shipped);
        const ready = checks.database.ok && checks.migrations.ok;
        return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );

    // Public like /healthz; operators firewall it (docs/decisions/0103).
    app.get(
      '/metrics',
      { config: publicRoute, schema: { tags: ['operations'], operationId: 'getMetrics', summary: 'Prometheus metrics (text exposition format)', response: { 200: Type.String() } } },
      async (_request, reply) => {
        const { contentType, body } = await metrics.scrape();
        return reply.type(contentType).send(body);
      },
    );
  };
