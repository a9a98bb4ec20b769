// The compensation's door (decision 0219): who may act on a tour's compensation. The tour's visibility first (404,
// through dispatch's tour door), then the permission table (403).
import type { Queryable } from '../../db/client.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { findServiceArea } from '../identity/index.ts';
import { requireLoadedTour, requireTour, type TourRow } from '../dispatch/index.ts';
import { mayOnCompensation, ownToursOnly, type CompensationAction } from './permissions.ts';

/**
 * The tour whose compensation the caller may act on. What the caller may not see is 404 before anything else; a
 * role that sees the tour but may not do this (a driver writing its own pay) is 403 (decision 0600).
 */
export async function requireCompensation(q: Queryable, actor: Actor, tourId: string, action: CompensationAction): Promise<TourRow> {
  if (!mayOnCompensation(actor, 'show')) throw notFound('tour');
  return requireLoadedCompensation(actor, await requireTour(q, actor, tourId), action);
}

/** requireCompensation's decision on a tour already read (null: there is none), at once: the write's fast path. */
export function requireLoadedCompensation(actor: Actor, found: TourRow | null, action: CompensationAction): TourRow {
  if (!mayOnCompensation(actor, 'show')) throw notFound('tour');
  const tour = requireLoadedTour(actor, found);
  if (ownToursOnly(actor) && tour.driverId !== actor.userId) throw notFound('tour');
  if (!mayOnCompensation(actor, action)) throw forbidden();
  return tour;
}

/** The tour's service area's currency: the compensation's currency (docs/api-guide.md "Tour compensation, tips and legacy earnings"). */
export async function areaCurrency(q: Queryable, tenantId: string, serviceAreaId: string): Promise<string> {
  const area = await findServiceArea(q, tenantId, serviceAreaId);
  if (!area) throw new Error(`tour in a missing service area ${serviceAreaId}`);
  return area.currency;
}

