// Event log operations: what an admin reads of the outbox (every event recorded, delivered or not), and one resource's
// own events for the module whose door decided who may see that resource (the booking timeline, decision 1662).
import type { Deps } from '../deps.ts';
import { readDb } from '../db/replicas.ts';
import type { Actor } from '../http/actor.ts';
import { isAdmin } from '../http/actor.ts';
import { badParameter, forbidden } from '../http/errors.ts';
import { decodeCursor, toPage, type Page } from '../http/pagination.ts';
import { isUuid } from '../shared/ids.ts';
import { toLoggedEnvelope, type LoggedEnvelope } from './outbox.ts';
import { listEvents, type EventLogFilter } from './repository.ts';
import type { EventLogQuery } from './schemas.ts';

export async function listEventLog(deps: Deps, actor: Actor, query: EventLogQuery): Promise<Page<LoggedEnvelope>> {
  if (!isAdmin(actor)) throw forbidden();
  const filters = query.filters ?? {};
  return readEventPage(deps, actor.tenantId, query, {
    ...(filters.type ? { types: filters.type } : {}),
    ...(filters.resource_id ? { resourceId: filters.resource_id } : {}),
    ...(filters.actor_id ? { actorId: filters.actor_id } : {}),
    ...(filters.since ? { since: new Date(filters.since) } : {}),
  });
}

/**
 * One resource's own events, newest first. It checks no access, by design: the caller's door has decided that the
 * actor sees the resource (dispatch's listBookingEvents, requireBooking).
 */
export function listResourceEvents(deps: Deps, tenantId: string, resource: { type: string; id: string }, query: PageQuery): Promise<Page<LoggedEnvelope>> {
  return readEventPage(deps, tenantId, query, { resourceType: resource.type, resourceId: resource.id });
}

type PageQuery = Pick<EventLogQuery, 'limit' | 'cursor'>;

async function readEventPage(deps: Deps, tenantId: string, query: PageQuery, filter: Omit<EventLogFilter, 'beforeId'>): Promise<Page<LoggedEnvelope>> {
  const limit = query.limit ?? 25;
  const cursor = decodeCursor(query.cursor);
  const beforeId = cursor ? String(cursor[0]) : undefined;
  if (beforeId !== undefined && !isUuid(beforeId)) throw badParameter('parameter_invalid', 'cursor', 'The cursor is not one this API issued.');
  const rows = await listEvents(readDb(deps), tenantId, { ...filter, ...(beforeId ? { beforeId } : {}) }, limit + 1);
  const page = toPage(rows, limit, (row) => [row.id]);
  return { items: page.items.map(toLoggedEnvelope), meta: page.meta };
}
