// One tour: Claim/Start, then its stops in order with address, time window, notes, packages and ETA, and the steps the
// stop's state allows (Navigate, Approach, Arrive, Complete, Fail). Every step is taken through the outbox, and the
// screen shows the tour with the waiting steps applied (queue/project.ts), so a basement changes nothing for the driver.
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { isApiError, queryClient, useLiveStream, type User } from '../../../api/index.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { useInstructionsText } from '../../../i18n/recipient-instructions.tsx';
import { Button, deviceZone, ErrorBanner, Loading, TimesNote } from '../../../ui/index.ts';
import { useStopDetails, useTour, useTourBookings, type Package } from '../../data.ts';
import { addressLine, geoLink, timeWindow } from '../../format.ts';
import { messages as app } from '../../messages.ts';
import { projectTour, takeAction, useOutbox } from '../../queue/index.ts';
import { stopActions, type ProjectedStop, type ProjectedTour } from '../../queue/project.ts';
import { focusStop, TourActions } from '../../tour-actions.tsx';
import { messages as toursMessages } from '../tours/messages.ts';
import { CompleteDialog } from './complete-dialog.tsx';
import { FailDialog } from './fail-dialog.tsx';
import { messages } from './messages.ts';
import { TourMap } from './tour-map.tsx';

type Open = { kind: 'complete' | 'fail'; stopId: string } | null;

function StopCard({ tour, stop, number, packages, onOpen }: { tour: ProjectedTour; stop: ProjectedStop; number: number; packages: Package[]; onOpen: (open: Open) => void }) {
  const t = useT(messages);
  const instructions = useInstructionsText();
  const tApp = useT(app);
  const f = useFormat();
  const allowed = stopActions(tour, stop);
  const open = stop.status !== 'completed' && stop.status !== 'failed' && stop.status !== 'cancelled';
  const step = (kind: 'approach' | 'arrive') => void takeAction({ kind, tourId: tour.id, stopId: stop.id, path: `/api/stops/${stop.id}/${kind}`, body: {} });
  const type = (['pickup', 'dropoff', 'return', 'task'] as const).find((k) => k === stop.type);
  const window = timeWindow(stop, f);
  const headingId = `stop-${stop.id}`;
  return (
    <li className={`drv-card drv-stop drv-stop-${stop.status}`}>
      <div className="row-between">
        <h2 id={headingId} tabIndex={-1}>
          {t('stop', { n: number, type: type ? t(`type.${type}`) : stop.type })}
        </h2>
        <span className={`drv-pill drv-pill-${stop.status}`}>{t(`stop.${stop.status}`)}</span>
      </div>
      {stop.waiting ? <p className="drv-waiting">{tApp('waiting_to_send')}</p> : null}
      <p className="drv-address">{addressLine(stop)}</p>
      <dl className="drv-facts">
        {window ? (
          <>
            <dt>{t('window')}</dt>
            <dd>{window}</dd>
          </>
        ) : null}
        {open && stop.eta ? (
          <>
            <dt>{t('eta')}</dt>
            <dd>
              {f.time(stop.eta)}
              {/* Contract §15: said in words when the ETA is a straight-line estimate (decision 1702). */}
              {stop.travel_source === 'straight_line' ? <span className="drv-eta-source">{t('eta_straight_line')}</span> : null}
            </dd>
          </>
        ) : null}
        {stop.contact?.name || stop.contact?.phone_number ? (
          <>
            <dt>{t('contact')}</dt>
            <dd>
              {stop.contact.name}
              {stop.contact.phone_number ? (
                <>
                  {' '}
                  <a href={`tel:${stop.contact.phone_number}`}>{stop.contact.phone_number}</a>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
        {stop.notes ? (
          <>
            <dt>{t('notes')}</dt>
            <dd>{stop.notes}</dd>
          </>
        ) : null}
        {/* What the recipient asked through the tracking link (decision 1788), beside the dispatcher's notes. */}
        {stop.recipient_instructions && stop.recipient_instructions.kind !== 'none' ? (
          <>
            <dt>{instructions.title}</dt>
            <dd className="drv-instructions">{instructions.text(stop.recipient_instructions)}</dd>
          </>
        ) : null}
        <dt>{t('packages')}</dt>
        <dd>
          {packages.length ? (
            <ul className="plain-list">
              {packages.map((p) => (
                <li key={p.id}>
                  <span className="mono">{p.shortcode}</span>
                  {p.external_label ? ` · ${p.external_label}` : ''}
                  {p.description ? ` · ${p.description}` : ''}
                </li>
              ))}
            </ul>
          ) : stop.package_ids.length ? (
            String(stop.package_ids.length)
          ) : (
            t('no_packages')
          )}
        </dd>
      </dl>
      {open ? (
        <div className="drv-actions">
          <a className="btn" href={geoLink(stop)}>
            {t('navigate')}
          </a>
          {allowed.approach ? <Button onClick={() => step('approach')}>{tApp('action.approach')}</Button> : null}
          {allowed.arrive ? <Button onClick={() => step('arrive')}>{tApp('action.arrive')}</Button> : null}
          {allowed.complete ? (
            <Button variant="primary" onClick={() => onOpen({ kind: 'complete', stopId: stop.id })}>
              {tApp('action.complete')}
            </Button>
          ) : null}
          {allowed.fail ? (
            <Button variant="danger" onClick={() => onOpen({ kind: 'fail', stopId: stop.id })}>
              {tApp('action.fail')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

export function TourPage({ id, user }: { id: string; user: User }) {
  const t = useT(messages);
  const tApp = useT(app);
  const tTours = useT(toursMessages);
  const f = useFormat();
  const query = useTour(id);
  const actions = useOutbox();
  const packages = useTourBookings(query.data);
  const mineAndDriven = query.data?.driver_id === user.id;
  const openStopIds = mineAndDriven
    ? [...(query.data?.stops ?? [])]
        .sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0))
        .filter((s) => s.status === 'scheduled' || s.status === 'approaching' || s.status === 'arrived')
        .map((s) => s.id)
    : [];
  const details = useStopDetails(openStopIds);
  const [open, setOpen] = useState<Open>(null);
  // A dispatcher's change to the tour (a stop moved in, a return after a cancelled booking: decision 1641) shows at
  // once: the tour's own events on the live stream refetch it; a stream that opened (or reopened) refetches what it missed.
  const refetch = () => void queryClient.invalidateQueries({ queryKey: ['driver', 'tour', id] });
  useLiveStream(refetch, { tourId: id, types: ['tour.modified', 'tour.active_status_changed'], enabled: mineAndDriven, onOpened: refetch });
  // Opened at a stop (#stop-<id>: Start opens the tour at its first open stop): scrolled to and focused once shown.
  const shown = query.data !== undefined;
  useEffect(() => {
    if (shown && window.location.hash.startsWith('#stop-')) focusStop(window.location.hash.slice('#stop-'.length));
  }, [shown, id]);

  if (!query.data) {
    if (query.isError && isApiError(query.error) && query.error.status === 404) return <p role="alert">{t('not_found')}</p>;
    return query.isError ? <ErrorBanner error={query.error} /> : <Loading label={tApp('loading')} />;
  }
  const tour = projectTour(query.data, actions, user.id);
  const waitingHere = actions.some((a) => a.tourId === tour.id && a.state === 'waiting');
  const packagesOf = (stop: ProjectedStop) => stop.package_ids.map((pid) => packages.get(pid)).filter((p): p is Package => !!p);
  const openStop = open ? tour.stops.find((s) => s.id === open.stopId) : undefined;
  const numberOf = (stop: ProjectedStop) => tour.stops.indexOf(stop) + 1;

  return (
    <div className="stack">
      <Link href="/" className="drv-back">
        ← {t('back')}
      </Link>
      <div className="row-between">
        <h1>
          {/* The dispatcher's name for the tour when it has one (decision 1603): the same name the console shows. */}
          {tour.label?.trim() || `${t('title')} ${f.dateTime(tour.scheduled_at ?? tour.created_at)}`}
        </h1>
        <span className={`drv-pill drv-pill-${tour.status}`}>{tTours(`status.${tour.status}`)}</span>
      </div>
      <TimesNote zones={[deviceZone()]} device />
      {tour.waiting ? <p className="drv-waiting">{tApp('waiting_to_send')}</p> : null}
      <TourActions tour={tour} driverId={user.id} />
      <TourMap tourId={tour.id} stops={tour.stops} numberOf={numberOf} keep={mineAndDriven && tour.status !== 'completed'} />
      <ol className="plain-list stack">
        {tour.stops.map((stop) => (
          <StopCard key={stop.id} tour={tour} stop={stop} number={numberOf(stop)} packages={packagesOf(stop)} onOpen={setOpen} />
        ))}
      </ol>
      {open?.kind === 'complete' && openStop ? <CompleteDialog tourId={tour.id} stop={openStop} number={numberOf(openStop)} packages={packagesOf(openStop)} onClose={() => setOpen(null)} /> : null}
      {open?.kind === 'fail' && openStop ? (
        <FailDialog tourId={tour.id} stop={openStop} options={details.get(openStop.id)?.failure_options ?? openStop.failure_options} number={numberOf(openStop)} projected={waitingHere} onClose={() => setOpen(null)} />
      ) : null}
    </div>
  );
}
