// Claim and Start, shared by the tours list and the tour screen: taken through the outbox, so they work offline too.
// Start opens the tour at its first open stop (docs/driver-app.md), from the list as on the tour screen.
import { useLocation } from 'wouter';
import { useT } from '../i18n/index.tsx';
import { Button } from '../ui/index.ts';
import { messages } from './messages.ts';
import { takeAction } from './queue/index.ts';
import type { ProjectedTour } from './queue/project.ts';

/** The stop the driver goes to next: the first one in tour order without an outcome. */
export function firstOpenStop<S extends { status: string; tour_position?: number | null }>(stops: readonly S[]): S | undefined {
  return [...stops].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0)).find((s) => s.status !== 'completed' && s.status !== 'failed' && s.status !== 'cancelled');
}

/** The tour screen's address that scrolls to and focuses the stop (tour-page.tsx reads the hash). */
export const stopHref = (tourId: string, stopId: string | undefined): string => `/tours/${tourId}${stopId ? `#stop-${stopId}` : ''}`;

/** Scrolls to and focuses a stop's heading on the tour screen (its id is `stop-<id>`), when it is shown. */
export function focusStop(stopId: string): boolean {
  const heading = document.getElementById(`stop-${stopId}`);
  if (!heading) return false;
  heading.scrollIntoView({ block: 'start' });
  heading.focus();
  return true;
}

export function TourActions({ tour, driverId }: { tour: ProjectedTour; driverId: string }) {
  const t = useT(messages);
  const [, navigate] = useLocation();
  const mine = tour.driver_id === driverId;
  const claimable = !mine && (tour.status === 'scheduled' || tour.status === 'pickable');
  const startable = mine && tour.status === 'claimed';
  if (!claimable && !startable) return null;
  // A pickable tour is picked (it starts at once), a scheduled one claimed (docs/api-guide.md): both are "Claim" (decision 1200).
  const claim = () =>
    void takeAction({ kind: 'claim', tourId: tour.id, stopId: null, path: `/api/hailing/tours/${tour.id}/${tour.status === 'pickable' ? 'pick' : 'claim'}`, body: {} });
  const start = () => {
    void takeAction({ kind: 'start', tourId: tour.id, stopId: null, path: `/api/hailing/tours/${tour.id}/start`, body: {} });
    const first = firstOpenStop(tour.stops)?.id;
    navigate(stopHref(tour.id, first));
    // On the tour screen already, the route does not change: the stop is focused here, after the render.
    if (first) setTimeout(() => focusStop(first), 0);
  };
  return (
    <div className="drv-actions">
      {claimable ? (
        <Button variant="primary" onClick={claim}>
          {t('action.claim')}
        </Button>
      ) : null}
      {startable ? (
        <Button variant="primary" onClick={start}>
          {t('action.start')}
        </Button>
      ) : null}
    </div>
  );
}
