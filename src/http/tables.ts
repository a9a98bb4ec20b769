// Idempotency keys: the stored outcome of a write, replayed when the same key comes again.
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    tenantId: uuid('tenant_id').notNull(),
    /** The user, or the API key (idempotency.ts `idempotencyScope`, decision 1620). */
    scopeId: uuid('scope_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: text('response_body'),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  // created_at: the purge job deletes expired keys oldest first.
  (t) => [primaryKey({ columns: [t.tenantId, t.scopeId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
