// The tour on a map (docs/console.md "Maps"): stop to stop in tour order (the route along the roads, contract §15's
// GET /api/hailing/tours/{id}/route, is not served yet: issue 38), its stops numbered, over the region's streets —
// opened on the tour itself.
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { boundsOf, MapCanvas, setLayerData, tourColor, type Feature, type MapLibreMap } from '../../../map/index.ts';
import { Loading } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import type { Stop } from './queries.ts';

export function TourMap({ tourId, stops }: { tourId: string; stops: Stop[] }) {
  const t = useT(messages);
  const tc = useT(common);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const ordered = useMemo(() => [...stops].sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0)), [stops]);
  const features = useMemo(() => {
    const look = { color: tourColor(0) };
    const coordinates = ordered.map((s) => [s.location.lng, s.location.lat]);
    const lines: Feature[] = coordinates.length > 1 ? [{ type: 'Feature', geometry: { type: 'LineString', coordinates }, properties: { tour_id: tourId, ...look } }] : [];
    // Each stop carries its place in the tour: the number drawn on it.
    const points: Feature[] = ordered.map((s, k) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [s.location.lng, s.location.lat] },
      properties: { tour_id: tourId, stop_id: s.id, status: s.status === 'completed' || s.status === 'failed' ? s.status : 'open', label: k + 1, ...look },
    }));
    return { lines, points };
  }, [ordered, tourId]);
  const fitted = useRef(false);
  useEffect(() => {
    if (!map) return;
    setLayerData(map, 'tours', features.lines);
    setLayerData(map, 'stops', features.points);
    const bounds = boundsOf([...features.lines, ...features.points]);
    if (bounds && !fitted.current) {
      map.fitBounds(bounds, { padding: 40, maxZoom: 16, animate: false });
      fitted.current = true;
    }
  }, [map, features]);
  return (
    <section className="tour-map" aria-labelledby="tour-map-title">
      <h2 id="tour-map-title">{t('map_title')}</h2>
      <Suspense fallback={<Loading label={tc('loading')} />}>
        <MapCanvas label={t('map_label')} onReady={setMap} bounds={boundsOf(features.points) ?? undefined} />
      </Suspense>
    </section>
  );
}
