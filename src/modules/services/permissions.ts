// The services permission table: tour services and scheduling configs; checked at the top of every operation.
import { permissionTable } from '../../http/permission-table.ts';

export const servicePermissions = permissionTable({
  admin: ['read', 'manage'],
  // Dispatchers read tour services and scheduling configs: they book and dispatch against them.
  manager: ['read'],
  driver: [],
  customer: [],
});
