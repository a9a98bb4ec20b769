// The MapLibre canvas, in its own lazily loaded chunk (MapLibre is most of a page's JavaScript): created once, its
// layers and the drivers' overlay added once; the page hands it the map when ready and updates sources itself.
import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import { useEffect, useRef } from 'react';
import { useLatest } from '../ui/use-latest.ts';
import { addDriversOverlay, type DriversOverlay } from './drivers-overlay.ts';
import { addLayers, LAYER_IDS } from './layers.ts';
import { loadMapStyle, type MapVariant } from './style.ts';
import { probeRendered } from './probe.ts';

maplibregl.setWorkerUrl(__MAPLIBRE_WORKER_URL__);

/** The layers a click picks from, topmost first: the drivers (on their overlay), then the map's own. */
export type PickedLayer = 'drivers' | typeof LAYER_IDS.tourLines | typeof LAYER_IDS.stops;
const MAP_LAYERS = [LAYER_IDS.stops, LAYER_IDS.tourLines];

export interface MapCanvasProps {
  label: string;
  /** The map once its style loaded, and the overlay the page draws drivers on (decision 1021). */
  onReady: (map: maplibregl.Map, drivers: DriversOverlay) => void;
  /** A click on a driver, a tour line or a stop: the topmost one's properties (a driver's: driver_id, tour_id). */
  onPick?: (layer: PickedLayer, properties: Record<string, unknown>) => void;
  center?: [number, number];
  /** The zoom the map opens at on `center` (13 unless given). */
  zoom?: number;
  /** The streets (default) or only the background; `?map=blank` in the page's address asks for blank (the bench). */
  variant?: MapVariant;
  /** Where the map opens before the page fits it to what it shows (west, south, east, north). */
  bounds?: [[number, number], [number, number]];
}

const variantFromAddress = (): MapVariant | null => (new URLSearchParams(location.search).get('map') === 'blank' ? 'blank' : null);

export default function MapCanvas({ label, onReady, onPick, center, zoom, variant, bounds }: MapCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useLatest({ onReady, onPick });
  useEffect(() => {
    if (!container.current) return;
    const element = container.current;
    let removed = false;
    let created: { map: maplibregl.Map; drivers: DriversOverlay | null } | null = null;
    // The style waits for /tiles/tiles.json (what the imported regions cover): one small read, cached per page.
    void loadMapStyle(variantFromAddress() ?? variant ?? 'light').then((style) => {
      if (removed) return;
      created = { map: createMap(element, style), drivers: null };
    });
    const createMap = (element: HTMLDivElement, style: maplibregl.StyleSpecification): maplibregl.Map => {
    const map = new maplibregl.Map({
      container: element,
      style,
      ...(bounds ? { bounds, fitBoundsOptions: { padding: 40, maxZoom: 15 } } : { center: center ?? [7.4246, 43.7384], zoom: zoom ?? 13 }),
      // The OpenStreetMap attribution, spelled out on every map (ODbL; docs/console.md "Maps").
      attributionControl: { compact: false },
      // Keyboard: the canvas takes focus and arrow keys pan, +/- zoom (MapLibre's keyboard handler).
      keyboard: true,
    });
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.getCanvas().setAttribute('aria-label', label);
    map.on('load', () => {
      addLayers(map);
      const overlay = addDriversOverlay(map);
      if (created) created.drivers = overlay;
      probeRendered(map);
      // The topmost thing under a point: the drivers are drawn above every layer of the map.
      const picked = (point: maplibregl.Point): { layer: PickedLayer; properties: Record<string, unknown> } | null => {
        const driver = overlay.pick(point.x, point.y);
        if (driver) return { layer: 'drivers', properties: { driver_id: driver.driverId, tour_id: driver.tourId } };
        const feature = map.queryRenderedFeatures(point, { layers: MAP_LAYERS })[0];
        return feature ? { layer: feature.layer.id as PickedLayer, properties: feature.properties ?? {} } : null;
      };
      map.on('click', (event) => {
        const hit = picked(event.point);
        if (hit) handlers.current.onPick?.(hit.layer, hit.properties);
      });
      let pointer = false;
      map.on('mousemove', (event) => {
        const over = picked(event.point) !== null;
        if (over === pointer) return;
        pointer = over;
        map.getCanvas().style.cursor = over ? 'pointer' : '';
      });
      handlers.current.onReady(map, overlay);
    });
    return map;
    };
    return () => {
      removed = true;
      created?.drivers?.remove();
      created?.map.remove();
    };
    // The map is created once per mount; label, center, bounds and variant are read at creation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <div ref={container} className="map-canvas" />;
}
