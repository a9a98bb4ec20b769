// Live tracking's doors (decision 0219): who reads a tour's positions, and who receives what on the live stream
// (docs/api-guide.md "Live tracking", "Who sees what"). Recording a position passes dispatch's tour door
// (requireTour, requireLoadedTour) and the position checks both paths share (position-checks.ts).
import type { Queryable } from '../../db/client.ts';
import type { Envelope } from '../../events/outbox.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden } from '../../http/errors.ts';
import type { ResourceFacts, Viewer } from './audience.ts';
import { canSeeBooking, canSeeTour, requireTour, tourSummaryOf, type TourSummary } from './dispatch-port.ts';
import { mayOnLive } from './permissions.ts';

/**
 * GET /api/hailing/tours/{id}/positions: the role may list positions (403), the tour is seen (404), and a manager
 * reads the movements of its own organization's driver only (403): other managers who see the tour do not.
 */
export async function requireTourPositions(q: Queryable, actor: Actor, tourId: string): Promise<TourSummary> {
  if (!mayOnLive(actor, 'list_positions')) throw forbidden();
  const tour = tourSummaryOf(await requireTour(q, actor, tourId));
  if (actor.role === 'manager' && !(tour.executingOrganizationId && actor.organizationIds.includes(tour.executingOrganizationId))) throw forbidden();
  return tour;
}

/**
 * A driver's positions reach only admins, the managers of the driver's own organization and the driver (docs/api-guide.md "Live tracking":
 * the driver's own organization "alone receives the driver's live updates").
 */
export function seesPosition(viewer: Viewer, driverId: string | null, driverOrganizationId: string | null): boolean {
  switch (viewer.role) {
    case 'admin':
      return true;
    case 'manager':
      return driverOrganizationId !== null && viewer.organizationIds.includes(driverOrganizationId);
    case 'driver':
      return driverId !== null && driverId === viewer.userId;
    case 'customer':
      return false;
  }
}

/** Tour and booking events follow the read visibility of their resource; anything else is for admins. */
export function seesEvent(viewer: Viewer, envelope: Pick<Envelope, 'resource_type'>, facts: ResourceFacts): boolean {
  if (envelope.resource_type === 'tour') return facts.tour ? canSeeTour(viewer, facts.tour) : viewer.role === 'admin';
  if (envelope.resource_type === 'booking') return facts.booking ? canSeeBooking(viewer, facts.booking) : viewer.role === 'admin';
  return viewer.role === 'admin';
}

/**
 * Viewers who see exactly the same events: every admin alike, managers by their organizations, drivers and customers
 * by themselves and their organizations (the rules above and dispatch's visibility decide on nothing else).
 */
export function sameSightKey(viewer: Viewer): string {
  if (viewer.role === 'admin') return '';
  const organizations = [...viewer.organizationIds].sort().join(',');
  return viewer.role === 'manager' ? organizations : `${viewer.userId}|${organizations}`;
}
