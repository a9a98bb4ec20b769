// Map: drivers moving live (the live stream), the tours they hold, their stops, service areas and a list beside the
// map that says the same in words (keyboard and screen readers use it; clicking either opens the same details).
// A manager's map holds exactly what the stream and the lists give it: its own organizations' drivers.
import type { Polygon } from 'geojson';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'wouter';
import { byId, useDrivers, useLiveStream, useServiceAreas, type LiveEvent, type LiveState, type User } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { areaView, MapCanvas, setLayerData, TOUR_PALETTE, tourColor, type DriverMarker, type DriverSignal, type DriversOverlay, type Feature, type MapLibreMap } from '../../../map/index.ts';
import { Banner, Button, ErrorBanner, Loading, PageHead, SelectField, StatusBadge, useAreaZones, useLatest } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { latestFixes, useDrivenTours, useTourRoutes, type DrawnRoute, type Fix, type Tour } from './queries.ts';

type Signal = DriverSignal | 'none';
const STALE_MS = 30_000;
/**
 * Drivers are redrawn at most five times a second, on their own canvas above the map (decision 1021): a draw
 * projects every driver, so with 500 of them, one every frame a fix arrived in (about every frame) would keep the
 * main thread busy for nothing a dispatcher sees. 200 ms keeps a marker well within the 500 ms goal.
 */
const DRAW_INTERVAL_MS = 200;
const LOST_MS = 120_000;
/**
 * Tour events (a stop approached, arrived, served; a tour started) refetch the driven tours at most this often, and
 * never while a refetch is under way: with 500 drivers they arrive several a second, and one refetch per event, each
 * cancelling the one before, kept the list of several pages from ever finishing (docs/performance.md, "The console").
 */
const TOURS_REFETCH_MS = 2_000;
/**
 * Up to this many tours each is drawn along its route on the roads; beyond, only the selected one is, the others stop
 * to stop (decision 1781): 500 routes of a hundred points each, drawn again whenever one changes, took the map from
 * 19.7 to 3.7 frames/s in the console bench, and 500 road lines over one city are not a picture anyone reads.
 */
const ROAD_ROUTES_UP_TO = 50;

const fixSignal = (fix: Fix, now: number): DriverSignal => (now - fix.recordedAt < STALE_MS ? 'live' : now - fix.recordedAt < LOST_MS ? 'stale' : 'lost');
export const signalOf = (fix: Fix | undefined, now: number): Signal => (fix ? fixSignal(fix, now) : 'none');

/** A stop's status as the map colours it: a refetch that only moved a stop to `arrived` then leaves the map alone. */
const shownStatus = (status: string): string => (status === 'completed' || status === 'failed' ? status : 'open');

/**
 * Each tour's colour and number: its place in the list beside the map (decision 1543). Its line is its route along
 * the roads through the stops still to serve once read, the straight lines through all its stops until then.
 */
function tourFeatures(tours: Tour[], selectedTour: string | null, routes: Map<string, DrawnRoute> = new Map()): { lines: Feature[]; stops: Feature[] } {
  const lines: Feature[] = [];
  const stops: Feature[] = [];
  tours.forEach((tour, k) => {
    const look = { color: tourColor(k), label: k + 1 };
    const ordered = [...(tour.stops ?? [])].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0));
    const route = routes.get(tour.id);
    const coordinates = route && route.coordinates.length > 1 ? route.coordinates : ordered.map((stop) => [stop.location.lng, stop.location.lat]);
    if (coordinates.length > 1) lines.push({ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { tour_id: tour.id, selected: tour.id === selectedTour, ...look } });
    for (const stop of ordered) {
      stops.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [stop.location.lng, stop.location.lat] }, properties: { tour_id: tour.id, stop_id: stop.id, status: shownStatus(stop.status), ...look } });
    }
  });
  return { lines, stops };
}

export function MapPage({ user }: { user: User }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const tours = useDrivenTours();
  const drivers = useDrivers();
  const areas = useServiceAreas();
  const zones = useAreaZones();
  const [ready, setReady] = useState<{ map: MapLibreMap; overlay: DriversOverlay } | null>(null);
  const map = ready?.map ?? null;
  const [selected, setSelected] = useState<string | null>(null); // a tour id
  const [area, setArea] = useState<string | null>(null); // the service area chosen; null: the one with most stops
  const [now, setNow] = useState(() => Date.now());
  // What the list shows: a copy of the fixes taken every few seconds (the map redraws its drivers up to 5 times a second).
  const [shown, setShown] = useState<Map<string, Fix>>(() => new Map());
  const fixes = useRef(new Map<string, Fix>()); // by driver id
  const dirty = useRef(false);
  const fitted = useRef(false);

  const tourList = useMemo(() => tours.data ?? [], [tours.data]);
  const tourById = useMemo(() => byId(tourList), [tourList]);
  const routed = useMemo(() => (tourList.length <= ROAD_ROUTES_UP_TO ? tourList : tourList.filter((tour) => tour.id === selected)), [tourList, selected]);
  const routes = useTourRoutes(routed);
  const driverById = useMemo(() => byId(drivers.data), [drivers.data]);

  // One refetch after a burst of tour events, started once the last one ended and TOURS_REFETCH_MS after it began.
  const latestTours = useLatest(tours);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastRefetch = useRef(0);
  const refetchTours = useCallback(() => {
    if (refetchTimer.current) return;
    const fire = () => {
      if (latestTours.current.isFetching) {
        refetchTimer.current = setTimeout(fire, TOURS_REFETCH_MS);
        return;
      }
      refetchTimer.current = null;
      lastRefetch.current = Date.now();
      void latestTours.current.refetch();
    };
    refetchTimer.current = setTimeout(fire, Math.max(0, lastRefetch.current + TOURS_REFETCH_MS - Date.now()));
  }, [latestTours]);
  useEffect(() => () => void (refetchTimer.current && clearTimeout(refetchTimer.current)), []);

  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (event.type === 'tour.driver_location_updated') {
        const data = event.data as { tour_id: string; driver_id: string; location: { lat: number; lng: number; recorded_at: string } };
        const recordedAt = Date.parse(data.location.recorded_at);
        const current = fixes.current.get(data.driver_id);
        if (current && current.recordedAt > recordedAt) return;
        fixes.current.set(data.driver_id, { lat: data.location.lat, lng: data.location.lng, recordedAt, tourId: data.tour_id });
        dirty.current = true;
      } else if (event.type.startsWith('tour.')) {
        refetchTours();
      }
    },
    [refetchTours],
  );
  const stream = useLiveStream(onEvent, { types: ['tour.driver_location_updated', 'tour.active_status_changed', 'tour.modified', 'tour.force_assigned', 'tour.force_unassigned'], onOpened: () => void tours.refetch() });

  // The stored positions first; the stream's newer ones win. Read again once the stream is open: a fix recorded
  // between the first read and the stream's opening reaches the page through neither otherwise. A refetched tour list
  // adds reads only for the tours not read since the stream (re)opened: reading all of them again on every refetch
  // (every 2 s with 500 drivers) queued hundreds of requests the stream made pointless (decision 1021).
  const read = useRef<{ stream: LiveState; tourIds: Set<string> }>({ stream: 'connecting', tourIds: new Set() });
  useEffect(() => {
    if (read.current.stream !== stream) read.current = { stream, tourIds: new Set() };
    if (stream === 'reconnecting') return;
    const listed = new Set(tourList.map((tour) => tour.id));
    for (const id of read.current.tourIds) if (!listed.has(id)) read.current.tourIds.delete(id);
    const withDriver = tourList.filter((tour) => tour.driver_id && !read.current.tourIds.has(tour.id));
    if (!withDriver.length) return;
    for (const tour of withDriver) read.current.tourIds.add(tour.id);
    void latestFixes(withDriver.map((tour) => tour.id)).then((found) => {
      for (const tour of withDriver) {
        const fix = found.get(tour.id);
        const current = fixes.current.get(tour.driver_id!);
        if (fix && (!current || current.recordedAt < fix.recordedAt)) fixes.current.set(tour.driver_id!, fix);
      }
      dirty.current = true;
    });
  }, [tourList, stream]);

  // Drivers are drawn at most every DRAW_INTERVAL_MS, however many fixes arrived meanwhile.
  useEffect(() => {
    if (!ready) return;
    const { overlay } = ready;
    const container = ready.map.getContainer();
    let frame = 0;
    let lastDraw = 0;
    const draw = () => {
      frame = requestAnimationFrame(draw);
      const at = Date.now();
      if (!dirty.current || at - lastDraw < DRAW_INTERVAL_MS) return;
      dirty.current = false;
      lastDraw = at;
      const markers: DriverMarker[] = [];
      let latest = 0;
      for (const [driverId, fix] of fixes.current) {
        latest = Math.max(latest, fix.recordedAt);
        markers.push({ driverId, tourId: fix.tourId, lng: fix.lng, lat: fix.lat, signal: fixSignal(fix, at), selected: fix.tourId === selected });
      }
      overlay.draw(markers);
      // What was drawn, for the browser tests and the stream-to-marker benchmark (bench/console.ts).
      container.dataset.drivers = String(markers.length);
      container.dataset.latestFix = String(latest);
      container.dataset.drawnAt = String(at);
    };
    frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }, [ready, selected]);

  // Signals age without new fixes: the list and the markers are re-evaluated every few seconds.
  useEffect(() => {
    const tick = () => {
      setNow(Date.now());
      setShown(new Map(fixes.current));
      dirty.current = true;
    };
    const first = setTimeout(tick, 500);
    const timer = setInterval(tick, 5000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);

  // The area the map opens on when none is chosen: the one most of the tours' stops are in.
  const shownArea = useMemo(() => areaView(areas.data ?? [], tourFeatures(tourList, null).stops).areaId, [areas.data, tourList]);
  useEffect(() => {
    if (!map) return;
    const { lines, stops } = tourFeatures(tourList, selected, routes);
    setLayerData(map, 'tours', lines);
    setLayerData(map, 'stops', stops);
    // How many tours are drawn along the roads (the browser tests read it).
    map.getContainer().dataset.roadRoutes = String(tourList.filter((tour) => routes.get(tour.id)?.travelSource === 'road_network').length);
    dirty.current = true;
    const areaFeatures: Feature[] = (areas.data ?? []).flatMap((area) =>
      area.boundary ? [{ type: 'Feature' as const, geometry: area.boundary as Polygon, properties: { id: area.id } }] : [],
    );
    setLayerData(map, 'areas', areaFeatures);
    // The map opens on one service area — the chosen one, else the one most stops are in — never on all of them.
    if (!fitted.current && (lines.length || stops.length || areaFeatures.length)) {
      const view = areaView(areas.data ?? [], [...lines, ...stops], area ?? shownArea);
      if (view.bounds) {
        map.fitBounds(view.bounds, { padding: 40, maxZoom: 15, animate: false });
        fitted.current = true;
      }
    }
  }, [map, tourList, selected, routes, areas.data, area, shownArea]);
  const chooseArea = (id: string) => {
    setArea(id);
    fitted.current = false;
  };

  const select = (tourId: string) => {
    setSelected(tourId);
    const tour = tourById.get(tourId);
    const fix = tour?.driver_id ? fixes.current.get(tour.driver_id) : undefined;
    if (map && fix) map.easeTo({ center: [fix.lng, fix.lat], zoom: Math.max(map.getZoom(), 13) });
  };
  const onPick = (_layer: string, properties: Record<string, unknown>) => {
    if (typeof properties.tour_id === 'string') setSelected(properties.tour_id);
  };

  const selectedTour = selected ? tourById.get(selected) : undefined;
  const driverName = (id: string | null | undefined) => (id ? (driverById.get(id)?.name ?? t('unknown_driver', { id: id.slice(-6) })) : '—');
  void user;

  return (
    <section className="stack">
      <PageHead title={t('title')} timeZones={zones.all} />
      {stream === 'reconnecting' ? (
        <Banner tone="warn" live>
          {t('stream_reconnecting')}
        </Banner>
      ) : null}
      {tours.isError ? <ErrorBanner error={tours.error} /> : null}
      <div className="legend" aria-hidden="true">
        <span>
          <span className="dot dot-live" />
          {t('live')}
        </span>
        <span>
          <span className="dot dot-stale" />
          {t('stale')}
        </span>
        <span>
          <span className="dot dot-lost" />
          {t('lost')}
        </span>
      </div>
      {(areas.data?.length ?? 0) > 1 ? (
        <SelectField label={t('service_area')} value={area ?? shownArea ?? ''} onChange={(event) => chooseArea(event.currentTarget.value)}>
          {(areas.data ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className="map-layout">
        <Suspense fallback={<Loading label={tc('loading')} />}>
          <MapCanvas label={t('map_label')} onReady={(created, overlay) => setReady({ map: created, overlay })} onPick={onPick} />
        </Suspense>
        <aside className="map-side card" aria-labelledby="drivers-title">
          <h2 id="drivers-title">{t('drivers')}</h2>
          {tours.isPending ? <Loading label={tc('loading')} /> : null}
          {tours.data && !tourList.some((tour) => tour.driver_id) ? <p className="muted">{t('no_drivers')}</p> : null}
          {selectedTour ? (
            <div className="card" aria-live="polite">
              <h3>{driverName(selectedTour.driver_id)}</h3>
              <p>
                <StatusBadge status={selectedTour.status} />{' '}
                {t('stops', { done: (selectedTour.stops ?? []).filter((s) => s.status === 'completed' || s.status === 'failed').length, total: (selectedTour.stops ?? []).length })}
              </p>
              <Link href={`/tours/${selectedTour.id}`}>{t('open_tour')}</Link>
            </div>
          ) : null}
          <ul className="stack plain-list" aria-label={t('drivers')}>
            {tourList
              .map((tour, k) => ({ tour, k }))
              .filter(({ tour }) => tour.driver_id)
              .map(({ tour, k }) => {
                const fix = shown.get(tour.driver_id!);
                const signal = signalOf(fix, now);
                const name = driverName(tour.driver_id);
                return (
                  <li key={tour.id} className="row-between">
                    <span>
                      <span className={`tour-swatch tour-color-${k % TOUR_PALETTE.length}`} aria-hidden="true">
                        {k + 1}
                      </span>{' '}
                      <span className={`dot dot-${signal === 'none' ? 'lost' : signal}`} aria-hidden="true" />
                      {name} <span className="muted">({t(`signal_${signal}`)})</span>
                      {fix ? <div className="muted">{t('last_seen', { time: format.time(new Date(fix.recordedAt).toISOString(), zones.zoneOf(tour.service_area_id)) })}</div> : null}
                    </span>
                    <Button small aria-label={t('show_on_map', { name })} aria-pressed={selected === tour.id} onClick={() => select(tour.id)}>
                      {t('show')}
                    </Button>
                  </li>
                );
              })}
          </ul>
        </aside>
      </div>
    </section>
  );
}
