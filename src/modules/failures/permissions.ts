// The failures permission table: who may fail a stop at all, and who manages the tenant's package failure reasons.
import { permissionTable } from '../../http/permission-table.ts';

export const failurePermissions = permissionTable({
  admin: ['fail_stop', 'manage_reasons'],
  // Whether a manager or driver may fail this stop, and with which outcome, is failure-options.ts' decision.
  manager: ['fail_stop'],
  driver: ['fail_stop'],
  customer: [],
});
