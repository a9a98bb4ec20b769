// The dispatch board: bookings waiting for dispatch beside the open tours, everything moved by drag and drop with
// react-aria's keyboard alternative (decision 1020). Bookings dropped on "New tour" are merged; dropped on a tour,
// inserted; stops dragged within a tour are reordered and between tours moved — all through merge and insert, so the
// API's rules (a pickup before its drop-off, one service per tour) are its own, shown in words when it refuses.
import { useState } from 'react';
import { DropZone, I18nProvider, Text, ToggleButton } from 'react-aria-components';
import { byId, useDrivers, useInsertStops, useMergeBookings, useOpenTours, usePlaceNames, useWaitingBookings, waitingStopIds } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useLang, useT } from '../../../i18n/index.tsx';
import { Banner, ErrorBanner, Loading, PageHead, markReactAriaStylesPresent, useAreaZones } from '../../../ui/index.ts';
import { BOOKING, payloads } from './drag.ts';
import { messages } from './messages.ts';
import { TourLane, type LaneDrop } from './tour-lane.tsx';
import { WaitingList } from './waiting-list.tsx';

markReactAriaStylesPresent();

export function DispatchPage() {
  const t = useT(messages);
  const tc = useT(common);
  const { lang } = useLang();
  const bookings = useWaitingBookings();
  const tours = useOpenTours();
  const merge = useMergeBookings();
  const insert = useInsertStops();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const busy = merge.isPending || insert.isPending;
  const drivers = byId(useDrivers().data);
  const zones = useAreaZones();
  const placeNames = usePlaceNames((tours.data ?? []).flatMap((tour) => (tour.stops ?? []).flatMap((s) => (s.place_id ? [s.place_id] : []))));
  const [compact, setCompact] = useState(false);

  const done = (message: string) => {
    setError(null);
    setNotice(message);
  };
  const failed = (cause: unknown) => {
    setNotice(null);
    setError(cause);
  };

  const makeTour = (bookingIds: string[]) => {
    if (!bookingIds.length) return;
    merge.mutate(bookingIds, { onSuccess: (tour) => done(t('made_tour', { id: tour.id.slice(-8) })), onError: failed });
  };

  const dropOnLane = (drop: LaneDrop) => {
    const what =
      drop.kind === 'booking_stops'
        ? { bookingIds: drop.bookingIds }
        : { stopIds: drop.kind === 'stops' ? drop.stopIds : (bookings.data ?? []).filter((b) => drop.bookingIds.includes(b.id)).flatMap(waitingStopIds) };
    insert.mutate(
      { tourId: drop.tourId, ...what, ...(drop.position === undefined ? {} : { position: drop.position }) },
      { onSuccess: (tour) => done(t('changed_tour', { id: tour.id.slice(-8) })), onError: failed },
    );
  };

  return (
    <section className="stack" aria-labelledby="dispatch-title" aria-busy={busy || undefined}>
      <PageHead title={<span id="dispatch-title">{t('title')}</span>} timeZones={zones.zonesOf((tours.data ?? []).map((tour) => tour.service_area_id))} />
      <p className="muted">{t('intro')}</p>
      <div aria-live="polite" className="stack">
        {notice ? <Banner tone="ok">{notice}</Banner> : null}
        {busy ? <span className="muted">{t('working')}</span> : null}
      </div>
      {error ? <ErrorBanner error={error} /> : null}
      {/* react-aria's drag and drop announcements and drop-target names in the console's language, not the browser's. */}
      <I18nProvider locale={lang === 'de' ? 'de-DE' : 'en-GB'}>
        <div className="board">
          <section className="stack" aria-labelledby="waiting-title">
            <h2 id="waiting-title">{t('waiting')}</h2>
            <DropZone
              aria-label={t('new_tour')}
              className="drop-zone"
              getDropOperation={(types) => (types.has(BOOKING) ? 'move' : 'cancel')}
              onDrop={async (e) => makeTour(await payloads(e.items, BOOKING))}
            >
              <strong>{t('new_tour')}</strong>
              <Text slot="description">{t('new_tour_hint')}</Text>
            </DropZone>
            {bookings.isError ? <ErrorBanner error={bookings.error} /> : null}
            {bookings.isPending ? <Loading label={tc('loading')} /> : null}
            {bookings.data ? <WaitingList bookings={bookings.data.filter((b) => waitingStopIds(b).length > 0)} /> : null}
          </section>
          <section className="stack" aria-labelledby="tours-title">
            <div className="row-between">
              <h2 id="tours-title">{t('tours')}</h2>
              <ToggleButton className="btn btn-small" isSelected={compact} onChange={setCompact} aria-describedby="compact-hint">
                {t('compact')}
              </ToggleButton>
            </div>
            <p id="compact-hint" className="visually-hidden">
              {t('compact_hint')}
            </p>
            {tours.isError ? <ErrorBanner error={tours.error} /> : null}
            {tours.isPending ? <Loading label={tc('loading')} /> : null}
            {tours.data && tours.data.length === 0 ? <p className="card muted">{t('tours_empty')}</p> : null}
            <div className={`lanes${compact ? ' compact' : ''}`}>
              {(tours.data ?? []).map((tour, k) => (
                <TourLane
                  key={tour.id}
                  tour={tour}
                  index={k}
                  onDrop={dropOnLane}
                  context={{ driverName: (id) => drivers.get(id)?.name ?? undefined, placeName: (id) => placeNames.get(id), timeZone: zones.zoneOf(tour.service_area_id), compact }}
                />
              ))}
            </div>
          </section>
        </div>
      </I18nProvider>
    </section>
  );
}

export default DispatchPage;
