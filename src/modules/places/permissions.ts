// The places permission matrix (docs/api-guide.md "Places"): one table read by the places routes and GET /api/user/permissions.
import type { Actor, UserRole } from '../../http/actor.ts';

export const PLACE_ACTIONS = ['index', 'show', 'create', 'update', 'destroy', 'fork', 'metadata'] as const;
export type PlaceAction = (typeof PLACE_ACTIONS)[number];
export type PlacePermissions = Record<PlaceAction, boolean>;

const all = (allowed: readonly PlaceAction[]): PlacePermissions =>
  Object.fromEntries(PLACE_ACTIONS.map((action) => [action, allowed.includes(action)])) as PlacePermissions;

const MATRIX: Record<UserRole, PlacePermissions> = {
  admin: all(PLACE_ACTIONS),
  manager: all(['index', 'show', 'create', 'update', 'fork', 'metadata']),
  customer: all(['index', 'show', 'create', 'update', 'fork']),
  driver: all(['index', 'show']),
};

export const placePermissions = (role: UserRole): PlacePermissions => MATRIX[role];

export const mayOnPlaces = (actor: Pick<Actor, 'role'>, action: PlaceAction): boolean => MATRIX[actor.role][action];

/** Customers act on their own places only; every other role sees the tenant's places. */
export const ownPlacesOnly = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'customer';
