// The analytics permission matrix (docs/api-guide.md "Delivery analytics"): admins read the tenant's figures, managers
// those of the tours they see (access.ts); drivers and customers never.
import type { Actor, UserRole } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';

export const ANALYTICS_ACTIONS = ['deliveries', 'tour'] as const;
export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[number];

const MATRIX: Record<UserRole, readonly AnalyticsAction[]> = {
  admin: ANALYTICS_ACTIONS,
  manager: ANALYTICS_ACTIONS,
  driver: [],
  customer: [],
};

export const mayOnAnalytics = (actor: Pick<Actor, 'role'>, action: AnalyticsAction): boolean => MATRIX[actor.role].includes(action);

export function requireAnalyticsPermission(actor: Pick<Actor, 'role'>, action: AnalyticsAction): void {
  if (!mayOnAnalytics(actor, action)) throw forbidden();
}
