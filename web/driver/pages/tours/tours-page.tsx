// The driver's tours: its own (claimed or en route) first, then the ones it may claim or pick — exactly what the API
// lists for it — with the outbox's waiting actions applied.
import { Link } from 'wouter';
import type { User } from '../../../api/index.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { deviceZone, ErrorBanner, Loading, TimesNote } from '../../../ui/index.ts';
import { useOpenTours } from '../../data.ts';
import { addressLine } from '../../format.ts';
import { messages as app } from '../../messages.ts';
import { projectTour, useOutbox, type QueuedAction } from '../../queue/index.ts';
import type { ProjectedTour } from '../../queue/project.ts';
import { TourActions } from '../../tour-actions.tsx';
import { messages } from './messages.ts';

function TourCard({ tour, user }: { tour: ProjectedTour; user: User }) {
  const t = useT(messages);
  const tApp = useT(app);
  const f = useFormat();
  const first = tour.stops.find((s) => s.status !== 'completed' && s.status !== 'failed' && s.status !== 'cancelled') ?? tour.stops[0];
  const when = f.dateTime(tour.scheduled_at ?? tour.created_at);
  return (
    <li className="drv-card drv-tour">
      <div className="row-between">
        <span className={`drv-pill drv-pill-${tour.status}`}>{t(`status.${tour.status}`)}</span>
        {tour.waiting ? <span className="drv-waiting">{tApp('waiting_to_send')}</span> : null}
      </div>
      {tour.label?.trim() ? <p className="drv-strong">{tour.label.trim()}</p> : null}
      <p className={tour.label?.trim() ? undefined : 'drv-strong'}>{t('scheduled_for', { time: when })}</p>
      <p>{t('stops', { count: tour.stops.length })}</p>
      {first ? <p className="muted">{t('from', { address: addressLine(first) })}</p> : null}
      <div className="drv-actions">
        <Link href={`/tours/${tour.id}`} className="btn drv-btn-link">
          {t('open_tour', { time: when })}
        </Link>
      </div>
      <TourActions tour={tour} driverId={user.id} />
    </li>
  );
}

export function ToursPage({ user }: { user: User }) {
  const t = useT(messages);
  const tApp = useT(app);
  const tours = useOpenTours();
  const actions: readonly QueuedAction[] = useOutbox();
  if (!tours.data) return tours.isError ? <ErrorBanner error={tours.error} /> : <Loading label={tApp('loading')} />;
  const projected = tours.data.map((tour) => projectTour(tour, actions, user.id));
  const mine = projected.filter((tour) => tour.driver_id === user.id && (tour.status === 'claimed' || tour.status === 'en_route'));
  const open = projected.filter((tour) => tour.driver_id !== user.id && (tour.status === 'scheduled' || tour.status === 'pickable'));
  return (
    <div className="stack">
      <h1>{t('title')}</h1>
      <TimesNote zones={[deviceZone()]} device />
      <section aria-labelledby="mine" className="stack">
        <h2 id="mine">{t('mine')}</h2>
        {mine.length ? (
          <ul className="plain-list stack">
            {mine.map((tour) => (
              <TourCard key={tour.id} tour={tour} user={user} />
            ))}
          </ul>
        ) : (
          <p className="muted">{t('none_mine')}</p>
        )}
      </section>
      <section aria-labelledby="open" className="stack">
        <h2 id="open">{t('open')}</h2>
        {open.length ? (
          <ul className="plain-list stack">
            {open.map((tour) => (
              <TourCard key={tour.id} tour={tour} user={user} />
            ))}
          </ul>
        ) : (
          <p className="muted">{t('none_open')}</p>
        )}
      </section>
    </div>
  );
}
