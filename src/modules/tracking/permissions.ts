// The tracking permission table (decision 1109): the recipient templates are the tenant admin's to write; managers read
// and preview them (they answer recipients' questions about what was sent). The public tracking routes take no actor.
import { permissionTable } from '../../http/permission-table.ts';

export const trackingPermissions = permissionTable({
  admin: ['read_recipient_templates', 'manage_recipient_templates'],
  manager: ['read_recipient_templates'],
  driver: [],
  customer: [],
});
