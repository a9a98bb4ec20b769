// The tour on a map (docs/console.md "Maps"): its remaining route along the roads (GET /api/hailing/tours/{id}/route,
// contract §15; stop to stop until it has loaded), its stops numbered in order, over the region's streets — opened on
// the tour itself; in words its length and, when there are no roads, that it is a straight-line estimate.
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { boundsOf, MapCanvas, setLayerData, tourColor, type Feature, type MapLibreMap } from '../../../map/index.ts';
import { Loading } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useTourRoute, type Stop } from './queries.ts';

export function TourMap({ tourId, stops }: { tourId: string; stops: Stop[] }) {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const ordered = useMemo(() => [...stops].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0)), [stops]);
  const route = useTourRoute(tourId, ordered.map((s) => `${s.id}:${s.status}`).join(','));
  const features = useMemo(() => {
    const look = { color: tourColor(0) };
    const coordinates = route.data?.geometry.coordinates.length ? route.data.geometry.coordinates : ordered.map((s) => [s.location.lng, s.location.lat]);
    const lines: Feature[] = coordinates.length > 1 ? [{ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { tour_id: tourId, ...look } }] : [];
    // Each stop carries its place in the tour: the number drawn on it.
    const points: Feature[] = ordered.map((s, k) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [s.location.lng, s.location.lat] },
      properties: { tour_id: tourId, stop_id: s.id, status: s.status === 'completed' || s.status === 'failed' ? s.status : 'open', label: k + 1, ...look },
    }));
    return { lines, points };
  }, [ordered, route.data, tourId]);
  const fitted = useRef(false);
  useEffect(() => {
    if (!map) return;
    setLayerData(map, 'tours', features.lines);
    setLayerData(map, 'stops', features.points);
    // What the browser tests read: whether the line is the server's route, and where its times come from.
    map.getContainer().dataset.routed = String(!!route.data);
    map.getContainer().dataset.travelSource = route.data?.travel_source ?? '';
    map.getContainer().dataset.routePoints = String(features.lines[0]?.geometry.type === 'LineString' ? features.lines[0].geometry.coordinates.length : 0);
    const bounds = boundsOf([...features.lines, ...features.points]);
    if (bounds && !fitted.current) {
      map.fitBounds(bounds, { padding: 40, maxZoom: 16, animate: false });
      fitted.current = true;
    }
  }, [map, features, route.data]);
  return (
    <section className="tour-map" aria-labelledby="tour-map-title">
      <h2 id="tour-map-title">{t('map_title')}</h2>
      <Suspense fallback={<Loading label={tc('loading')} />}>
        <MapCanvas label={t('map_label')} onReady={setMap} bounds={boundsOf(features.points) ?? undefined} />
      </Suspense>
      {route.data && route.data.distance_m > 0 ? (
        <p className="tour-route-summary">
          {t('route_summary', { km: format.number(Math.round(route.data.distance_m / 100) / 10), minutes: format.number(Math.max(1, Math.round(route.data.duration_s / 60))) })}
        </p>
      ) : null}
      {/* Contract §15: the console says in words when the times are straight lines. */}
      {route.data?.travel_source === 'straight_line' ? <p role="note">{t('straight_line')}</p> : null}
    </section>
  );
}
