// The place's door (decision 0219): the role × action table (permissions.ts, 403), then the place as the caller may
// see it — customers their own places only, every other role the tenant's (404 otherwise).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { mayOnPlaces, ownPlacesOnly, type PlaceAction } from './permissions.ts';
import * as repo from './repository.ts';

/** 403 unless the caller's role may take the action on places. */
export function requirePlaceAction(actor: Actor, action: PlaceAction): void {
  if (!mayOnPlaces(actor, action)) throw forbidden();
}

/** The customer whose places the caller is limited to, or null for roles that see every place. */
export const placeScopeOf = (actor: Actor): string | null => (ownPlacesOnly(actor) ? actor.userId : null);

/** One place: `action` checked first when given; the read is the same one statement the route always made. */
export async function requirePlace(q: Queryable, actor: Actor, id: string, options: { action?: PlaceAction; forUpdate?: boolean } = {}): Promise<repo.PlaceRow> {
  if (options.action) requirePlaceAction(actor, options.action);
  const scope = placeScopeOf(actor);
  const row = options.forUpdate ? await repo.findPlaceForUpdate(q, actor.tenantId, id, scope) : await repo.findPlace(q, actor.tenantId, id, scope);
  if (!row) throw notFound('place');
  return row;
}
