// Who may read regions and geocode (contract §14): regions are the operator's import, listed to admins; geocoding
// answers the console's address fields for admins, managers and customers.
import { permissionTable } from '../../http/permission-table.ts';

export const regionPermissions = permissionTable({
  admin: ['list_regions', 'geocode'],
  manager: ['geocode'],
  customer: ['geocode'],
  driver: [],
});
