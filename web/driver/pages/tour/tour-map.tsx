// The tour page's map (docs/driver-app.md "Map"): the next stop with the streets around it and the tour's other open
// stops, numbered as in the list, over the region's own tiles. MapLibre loads lazily (its own chunk, not in the first
// screen's script); the tiles around the driver's own tour are handed to the service worker to keep offline
// (decision 1720).
import { Suspense, useEffect, useMemo, useState } from 'react';
import { useT } from '../../../i18n/index.tsx';
import { MapCanvas, offlineMapFiles, setLayerData, streetsCover, tourColor, type Feature, type MapLibreMap } from '../../../map/index.ts';
import { Loading } from '../../../ui/index.ts';
import { messages as app } from '../../messages.ts';
import type { ProjectedStop } from '../../queue/project.ts';
import { messages } from './messages.ts';

const OPEN = new Set(['scheduled', 'approaching', 'arrived']);
/** Close enough to read the street names around the next stop. */
const NEXT_STOP_ZOOM = 16;

/** A short name for the set of tiles a tour needs: a stop added or moved is a new set. */
function keyOf(tourId: string, stops: readonly ProjectedStop[]): string {
  let hash = 0x811c9dc5;
  for (const ch of stops.map((s) => `${s.location.lat.toFixed(5)},${s.location.lng.toFixed(5)}`).join(';')) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return `${tourId}-${hash.toString(16)}`;
}

/** Asks the service worker to keep the tiles, TileJSON and glyphs around the tour (once per set). */
function keepForOffline(key: string, stops: readonly ProjectedStop[]): void {
  if (!('serviceWorker' in navigator) || !stops.length) return;
  const message = { type: 'keep-map', key, urls: offlineMapFiles(stops.map((s) => s.location)) };
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage(message)).catch(() => undefined);
}

export function TourMap({ tourId, stops, numberOf, keep }: { tourId: string; stops: readonly ProjectedStop[]; numberOf: (stop: ProjectedStop) => number; keep: boolean }) {
  const t = useT(messages);
  const tApp = useT(app);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const open = useMemo(() => stops.filter((s) => OPEN.has(s.status)), [stops]);
  const next = open[0];
  const nextAt = next ? `${next.location.lng},${next.location.lat}` : null;
  const features = useMemo<Feature[]>(
    () =>
      open.map((s) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [s.location.lng, s.location.lat] },
        properties: { stop_id: s.id, status: 'open', label: numberOf(s), selected: s === next, color: tourColor(0) },
      })),
    [open, next, numberOf],
  );
  // Shown where the region's tiles (or the operator's) have streets around the next stop (decision 1720).
  const [covered, setCovered] = useState(false);
  useEffect(() => {
    if (!nextAt || !next) return;
    let current = true;
    void streetsCover(next.location).then((yes) => current && setCovered(yes));
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nextAt]);
  // Once per set of stops (the list is rebuilt on every render).
  const key = keyOf(tourId, stops);
  useEffect(() => {
    if (keep && covered) keepForOffline(key, stops);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keep, covered, key]);
  useEffect(() => {
    if (!map) return;
    setLayerData(map, 'stops', features);
  }, [map, features]);
  // The next stop changes as the driver works through the tour: the map follows it.
  useEffect(() => {
    if (map && next) map.easeTo({ center: [next.location.lng, next.location.lat], zoom: Math.max(map.getZoom(), NEXT_STOP_ZOOM - 1) });
    // Only a new next stop moves the map, not every refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, nextAt]);
  if (!next || !covered) return null;
  return (
    <section className="drv-card drv-map" aria-labelledby="drv-map-title">
      <h2 id="drv-map-title">{t('map_title', { n: numberOf(next) })}</h2>
      <Suspense fallback={<Loading label={tApp('loading')} />}>
        <MapCanvas label={t('map_label')} onReady={setMap} center={[next.location.lng, next.location.lat]} zoom={NEXT_STOP_ZOOM} />
      </Suspense>
    </section>
  );
}
