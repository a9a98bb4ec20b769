// The jobs table: every piece of deferred work (mail, expiries, ticks, debounced events) with due time and lease.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const jobs = pgTable(
  'jobs',
  {
    /** NIL_UUID for platform-wide jobs. */
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    kind: text('kind').notNull(),
    /** Jobs sharing (tenant, kind, dedupe_key) while pending are one job: scheduling again moves its due time. */
    dedupeKey: text('dedupe_key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<'pending' | 'running' | 'done' | 'failed'>().notNull(),
    dueAt: ts('due_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lockedUntil: ts('locked_until'),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('jobs_dedupe_key').on(t.tenantId, t.kind, t.dedupeKey).where(sql`status = 'pending' AND dedupe_key IS NOT NULL`),
    index('jobs_due_idx').on(t.dueAt).where(sql`status IN ('pending', 'running')`),
  ],
);
