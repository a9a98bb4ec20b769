// The idempotency-key purge: a platform-wide job that deletes keys past their 24 hours (docs/api-guide.md "Conventions"), hourly and in
// bounded batches, so the table holds about one day of writes instead of growing for ever.
import { lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { NIL_UUID } from '../shared/ids.ts';
import { ensureJob, scheduleJob } from '../worker/jobs.ts';
import type { JobKind } from '../worker/job-kinds.ts';
import type { JobHandler } from '../worker/registry.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { idempotencyKeys } from './tables.ts';

export const IDEMPOTENCY_PURGE_JOB: JobKind = 'idempotency.purge';
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Rows deleted per statement: short statements keep locks and WAL bursts small on a large backlog. */
export const PURGE_BATCH = 5_000;
const purge = { tenantId: NIL_UUID, kind: IDEMPOTENCY_PURGE_JOB, dedupeKey: 'idempotency-purge', payload: {} };

/** Every worker calls this on start; only the first pending purge counts. */
export async function ensureIdempotencyPurge(deps: Deps): Promise<void> {
  const now = deps.clock.now();
  await ensureJob(deps.db, { ...purge, dueAt: now, now });
}

/** Deletes up to `limit` keys created at or before `cutoff`, oldest first; returns how many. */
export async function deleteExpiredKeys(q: Queryable, cutoff: Date, limit: number): Promise<number> {
  const oldest = q
    .select({ tenantId: idempotencyKeys.tenantId, scopeId: idempotencyKeys.scopeId, key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(lte(idempotencyKeys.createdAt, cutoff))
    .orderBy(idempotencyKeys.createdAt)
    .limit(limit);
  const deleted = await q
    .delete(idempotencyKeys)
    .where(sql`(${idempotencyKeys.tenantId}, ${idempotencyKeys.scopeId}, ${idempotencyKeys.key}) IN (${oldest})`)
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

export const purgeIdempotencyKeysJob: JobHandler = async (deps) => {
  // Scheduled first: a purge that fails still leaves the next one in place.
  const now = deps.clock.now();
  await scheduleJob(deps.db, { ...purge, dueAt: new Date(now.getTime() + PURGE_INTERVAL_MS), now });
  // A key is replayed while created_at + 24 h > now (idempotency.ts), so one created at the cutoff is expired.
  const cutoff = new Date(now.getTime() - KEY_TTL_MS);
  while ((await deleteExpiredKeys(deps.db, cutoff, PURGE_BATCH)) === PURGE_BATCH);
};
