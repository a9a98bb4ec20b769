// Event log SQL: the outbox read newest first, by tenant; every function takes the handle and tenant id first.
import { and, desc, eq, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { events } from './tables.ts';

export type EventRow = typeof events.$inferSelect;

export interface EventLogFilter {
  types?: string[];
  resourceId?: string;
  /** With resourceId: the events of one resource (a booking's own, not its tours'). */
  resourceType?: string;
  /** The user who acted (events_actor_idx). */
  actorId?: string;
  since?: Date;
  /** Keyset: only events older than this id (UUIDv7 ids grow with recording order). */
  beforeId?: string;
}

export async function listEvents(q: Queryable, tenantId: string, filter: EventLogFilter, limit: number): Promise<EventRow[]> {
  const conditions: SQL[] = [eq(events.tenantId, tenantId)];
  if (filter.types?.length) conditions.push(inArray(events.type, filter.types));
  if (filter.resourceId) conditions.push(eq(events.resourceId, filter.resourceId));
  if (filter.resourceType) conditions.push(eq(events.resourceType, filter.resourceType));
  if (filter.actorId) conditions.push(eq(events.actorId, filter.actorId));
  if (filter.since) conditions.push(gte(events.occurredAt, filter.since));
  if (filter.beforeId) conditions.push(lt(events.id, filter.beforeId));
  return q
    .select()
    .from(events)
    .where(and(...conditions))
    .orderBy(desc(events.id))
    .limit(limit);
}
