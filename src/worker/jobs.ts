// Jobs: schedule deferred work in the caller's transaction; claim due jobs with leases (SKIP LOCKED).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { completeRow, rowsOf, type TableRows } from '../db/json-insert.ts';
import { queryRows } from '../db/sql.ts';
import { newId } from '../shared/ids.ts';
import type { JobKind } from './job-kinds.ts';
import { jobs } from './tables.ts';

export type JobRow = typeof jobs.$inferSelect;

export interface ScheduleJob {
  tenantId: string;
  /** One of the closed list (job-kinds.ts): a kind without a handler cannot be scheduled. */
  kind: JobKind;
  payload: Record<string, unknown>;
  dueAt: Date;
  now: Date;
  /** With a dedupe key, scheduling again while the job is pending moves its due time (debounce). */
  dedupeKey?: string;
  maxAttempts?: number;
}

export async function scheduleJob(q: Queryable, job: ScheduleJob): Promise<void> {
  const values = {
    tenantId: job.tenantId,
    id: newId(),
    kind: job.kind,
    dedupeKey: job.dedupeKey ?? null,
    payload: job.payload,
    status: 'pending' as const,
    dueAt: job.dueAt,
    maxAttempts: job.maxAttempts ?? 10,
    createdAt: job.now,
    updatedAt: job.now,
  };
  if (!job.dedupeKey) {
    await q.insert(jobs).values(values);
    return;
  }
  await q
    .insert(jobs)
    .values(values)
    .onConflictDoUpdate({
      target: [jobs.tenantId, jobs.kind, jobs.dedupeKey],
      targetWhere: sql`status = 'pending' AND dedupe_key IS NOT NULL`,
      set: { dueAt: values.dueAt, payload: values.payload, updatedAt: values.updatedAt },
    });
}

/**
 * A job's row for a write that inserts many tables in one statement (db/json-insert.ts): scheduled with the rows
 * that call for it, atomically. Without a dedupe key (that needs ON CONFLICT, scheduleJob's way).
 */
export function jobRow(job: Omit<ScheduleJob, 'dedupeKey'>): JobRow {
  return completeRow(jobs, {
    tenantId: job.tenantId,
    id: newId(),
    kind: job.kind,
    dedupeKey: null,
    payload: job.payload,
    status: 'pending',
    dueAt: job.dueAt,
    maxAttempts: job.maxAttempts ?? 10,
    createdAt: job.now,
    updatedAt: job.now,
  });
}

/** Jobs' rows as one part of a multi-table insert (`insertAll`): scheduled in the statement that writes their cause. */
export const jobRows = (inputs: Omit<ScheduleJob, 'dedupeKey'>[]): TableRows => rowsOf(jobs, inputs.map(jobRow));

interface RawJob {
  tenant_id: string;
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  due_at: Date;
}

/** Claims up to `limit` due jobs for `leaseMs`; a crashed worker's jobs come back when the lease ends. */
export async function claimDueJobs(q: Queryable, now: Date, workerId: string, leaseMs: number, limit: number, kinds?: readonly string[]) {
  const until = new Date(now.getTime() + leaseMs);
  const kindFilter = kinds?.length ? sql`AND kind IN (${sql.join(kinds.map((k) => sql`${k}`), sql`, `)})` : sql``;
  return queryRows<RawJob>(
    q,
    sql`UPDATE jobs SET status = 'running', locked_until = ${until}, locked_by = ${workerId},
               attempts = attempts + 1, updated_at = ${now}
         WHERE (tenant_id, id) IN (
           SELECT tenant_id, id FROM jobs
            WHERE ((status = 'pending' AND due_at <= ${now}) OR (status = 'running' AND locked_until < ${now}))
              ${kindFilter}
            ORDER BY due_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED)
     RETURNING tenant_id, id, kind, payload, attempts, max_attempts, due_at`,
  );
}

export async function completeJob(q: Queryable, job: { tenant_id: string; id: string }, now: Date): Promise<void> {
  await q.execute(sql`UPDATE jobs SET status = 'done', locked_until = NULL, updated_at = ${now}
                       WHERE tenant_id = ${job.tenant_id} AND id = ${job.id}`);
}

/** Several jobs done in one statement (the jobs a pass ran side by side, decision 1785). */
export async function completeJobs(q: Queryable, done: readonly { tenant_id: string; id: string }[], now: Date): Promise<void> {
  if (!done.length) return;
  const keys = sql.join(done.map((job) => sql`(${job.tenant_id}::uuid, ${job.id}::uuid)`), sql`, `);
  await q.execute(sql`UPDATE jobs SET status = 'done', locked_until = NULL, updated_at = ${now} WHERE (tenant_id, id) IN (${keys})`);
}

/** Backoff: 5 s × 4^(attempt-1), capped at one hour; after max_attempts the job is failed for good. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5_000 * 4 ** Math.max(0, attempt - 1), 3_600_000);
}

export async function failJob(q: Queryable, job: RawJob, now: Date, error: string): Promise<void> {
  const final = job.attempts >= job.max_attempts;
  const dueAt = new Date(now.getTime() + retryDelayMs(job.attempts));
  await q.execute(sql`UPDATE jobs SET status = ${final ? 'failed' : 'pending'}, due_at = ${dueAt},
                        locked_until = NULL, last_error = ${error.slice(0, 2000)}, updated_at = ${now}
                       WHERE tenant_id = ${job.tenant_id} AND id = ${job.id}`);
}

export type { RawJob };

/** Schedules a recurring job unless one with the same dedupe key is already pending (start-up of every worker). */
export async function ensureJob(q: Queryable, job: ScheduleJob & { dedupeKey: string }): Promise<void> {
  await q
    .insert(jobs)
    .values({
      tenantId: job.tenantId,
      id: newId(),
      kind: job.kind,
      dedupeKey: job.dedupeKey,
      payload: job.payload,
      status: 'pending',
      dueAt: job.dueAt,
      maxAttempts: job.maxAttempts ?? 10,
      createdAt: job.now,
      updatedAt: job.now,
    })
    .onConflictDoNothing();
}
