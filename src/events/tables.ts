// The events outbox: every domain event, written in the transaction of the change that caused it.
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const events = pgTable(
  'events',
  {
    tenantId: uuid('tenant_id').notNull(),
    id: uuid('id').notNull(),
    type: text('type').notNull(),
    resourceType: text('resource_type').notNull(),
    event: text('event').notNull(),
    resourceId: uuid('resource_id'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** Who caused it (decision 0106): `user` or `system`; null on events recorded before the audit trail. */
    actorType: text('actor_type').$type<'user' | 'system'>(),
    /** The user who acted (through a session or one of their API keys); null for `system`. */
    actorId: uuid('actor_id'),
    /** The API key the user acted through; null for a session or `system`. */
    actorApiKeyId: uuid('actor_api_key_id'),
    /** Set by the worker once the event has been fanned out to webhook subscriptions. */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('events_type_idx').on(t.tenantId, t.type, t.id),
    index('events_resource_idx').on(t.tenantId, t.resourceId, t.id),
    index('events_actor_idx').on(t.tenantId, t.actorId, t.id),
    index('events_undispatched_idx').on(t.occurredAt).where(sql`dispatched_at IS NULL`),
  ],
);
