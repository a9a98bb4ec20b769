// The tracking permission table (decisions 1109, 1784): the recipient templates and the sender identity are the tenant
// admin's to write; managers read them (they answer recipients' questions about what was sent). The public tracking
// routes take no actor.
import { permissionTable } from '../../http/permission-table.ts';

export const trackingPermissions = permissionTable({
  admin: ['read_recipient_templates', 'manage_recipient_templates', 'read_sender', 'manage_sender'],
  manager: ['read_recipient_templates', 'read_sender'],
  driver: [],
  customer: [],
});
