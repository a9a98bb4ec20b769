// The doors of analytics (decision 0219): the role table (403), then what the caller sees — a manager the stops of the
// tours its organizations see, an admin the tenant's — and for one tour dispatch's tour door (404).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { requireTour, type TourRow } from '../dispatch/index.ts';
import { requireAnalyticsPermission } from './permissions.ts';

/** The organizations whose tours the caller's figures cover: null for the whole tenant (admins). */
export function requireDeliveryAnalytics(actor: Actor): { visibleToOrganizationIds: readonly string[] | null } {
  requireAnalyticsPermission(actor, 'deliveries');
  return { visibleToOrganizationIds: actor.role === 'admin' ? null : actor.organizationIds };
}

export async function requireTourAnalytics(q: Queryable, actor: Actor, tourId: string): Promise<TourRow> {
  requireAnalyticsPermission(actor, 'tour');
  return requireTour(q, actor, tourId);
}
