// The webhooks permission table: subscriptions, deliveries, redelivery and test events are the tenant admin's alone.
import { permissionTable } from '../../http/permission-table.ts';

export const webhookPermissions = permissionTable({ admin: ['manage'], manager: [], driver: [], customer: [] });
