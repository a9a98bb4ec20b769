// Claim and Start, shared by the tours list and the tour screen: taken through the outbox, so they work offline too.
import { useT } from '../i18n/index.tsx';
import { Button } from '../ui/index.ts';
import { messages } from './messages.ts';
import { takeAction } from './queue/index.ts';
import type { ProjectedTour } from './queue/project.ts';

export function TourActions({ tour, driverId }: { tour: ProjectedTour; driverId: string }) {
  const t = useT(messages);
  const mine = tour.driver_id === driverId;
  const claimable = !mine && (tour.status === 'scheduled' || tour.status === 'pickable');
  const startable = mine && tour.status === 'claimed';
  if (!claimable && !startable) return null;
  // A pickable tour is picked (it starts at once), a scheduled one claimed (docs/api-guide.md): both are "Claim" (decision 1200).
  const claim = () =>
    void takeAction({ kind: 'claim', tourId: tour.id, stopId: null, path: `/api/hailing/tours/${tour.id}/${tour.status === 'pickable' ? 'pick' : 'claim'}`, body: {} });
  const start = () => void takeAction({ kind: 'start', tourId: tour.id, stopId: null, path: `/api/hailing/tours/${tour.id}/start`, body: {} });
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
