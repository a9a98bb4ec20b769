// The caller's permissions (GET /api/user/permissions): the places permission matrix, by role, never restated here.
import type { Deps } from '../../deps.ts';
import { stillServed } from '../../compat/http.ts';
import type { Actor } from '../../http/actor.ts';
import { placePermissions, type PlacePermissions } from './permissions.ts';

export interface PermissionsView {
  /** A boolean in the standard view (may the caller use places at all); the per-action object with view=detailed. */
  places: boolean | PlacePermissions;
  /** Deprecated (docs/api-guide.md "Deprecations and removals": removal 2026-09-30); omitted once the tenant enforces that sunset. */
  admin?: { places: PlacePermissions };
}

export function getPermissions(deps: Deps, actor: Actor, view: 'standard' | 'detailed'): { permissions: PermissionsView; servesDeprecated: boolean } {
  const places = placePermissions(actor.role);
  const servesDeprecated = stillServed(deps, actor, 'admin.places');
  return {
    permissions: {
      places: view === 'detailed' ? places : Object.values(places).some(Boolean),
      ...(servesDeprecated ? { admin: { places } } : {}),
    },
    servesDeprecated,
  };
}
