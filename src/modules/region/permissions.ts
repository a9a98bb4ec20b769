// Who may read regions and geocode (contract §14): regions are the operator's import, listed to admins; geocoding
// answers the console's address fields for admins, managers and customers.
import type { Actor } from '../../http/actor.ts';
import { permissionTable } from '../../http/permission-table.ts';

export const regionPermissions = permissionTable({
  admin: ['list_regions', 'geocode'],
  manager: ['geocode'],
  customer: ['geocode'],
  driver: [],
});

/** A customer geocodes with its own places only (contract §14); everyone else with all the tenant's places. */
export const geocodePlacesScope = (actor: Pick<Actor, 'role' | 'userId'>): string | null => (actor.role === 'customer' ? actor.userId : null);
