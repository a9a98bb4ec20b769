// The tracking page's street map (docs/tracking.md "Map", decision 1721): the recipient's stop, and the driver while
// the read shows its position (contract §12), over the region's own tiles. No React — the page is server-rendered
// and its script is small; this module and MapLibre are one lazily loaded chunk, asked for only when there is a stop.
import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import type * as GeoJSON from 'geojson';
import { addLayers, boundsOf, setLayerData, type Feature } from './layers.ts';
import { probeRendered } from './probe.ts';
import { loadMapStyle } from './style.ts';

maplibregl.setWorkerUrl(__MAPLIBRE_WORKER_URL__);

interface LatLng {
  lat: number;
  lng: number;
}

export interface StreetMap {
  /** Draws the driver where the read says (null: not shown) and fits the view on the stop and the driver. */
  show(driver: LatLng | null): void;
}

/** The tracking page's colours (web/track/track.css): the stop in the page's green, the driver in its blue. */
const STOP_COLOR = '#166534';
const DRIVER_COLOR = '#1d4ed8';

const point = (p: LatLng, properties: Feature['properties']): Feature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties });

/** A map in `container`, opened on the stop; resolves once its style and layers are loaded. */
export function createStreetMap(container: HTMLElement, stop: LatLng, label: string): Promise<StreetMap> {
  return loadMapStyle().then(
    (style) =>
      new Promise<StreetMap>((resolve) => {
        const map = new maplibregl.Map({
          container,
          style,
          center: [stop.lng, stop.lat],
          zoom: 15,
          // The OpenStreetMap attribution, spelled out (ODbL).
          attributionControl: { compact: false },
          keyboard: true,
          // A phone's page scrolls under a finger: the map pans with two (MapLibre's cooperative gestures would add a
          // text overlay that needs its own translations).
          dragRotate: false,
          pitchWithRotate: false,
        });
        map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
        map.getCanvas().setAttribute('aria-label', label);
        map.on('load', () => {
          addLayers(map);
          map.addSource('driver', { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
          map.addLayer({ id: 'driver', type: 'circle', source: 'driver', paint: { 'circle-radius': 8, 'circle-color': DRIVER_COLOR, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 3 } });
          probeRendered(map);
          const stopFeature = point(stop, { status: 'open', selected: true, color: STOP_COLOR });
          setLayerData(map, 'stops', [stopFeature]);
          let last = '';
          resolve({
            show(driver) {
              const key = driver ? `${driver.lat},${driver.lng}` : '';
              if (key === last) return;
              last = key;
              const features = driver ? [point(driver, {})] : [];
              (map.getSource('driver') as maplibregl.GeoJSONSource).setData({ type: 'FeatureCollection', features } as GeoJSON.FeatureCollection);
              const bounds = boundsOf([stopFeature, ...features]);
              if (driver && bounds) map.fitBounds(bounds, { padding: 48, maxZoom: 16, duration: 0 });
              else map.jumpTo({ center: [stop.lng, stop.lat], zoom: 15 });
            },
          });
        });
      }),
  );
}
