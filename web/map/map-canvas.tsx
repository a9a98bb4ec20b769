// The MapLibre canvas, in its own lazily loaded chunk (MapLibre is most of a page's JavaScript): created once, its
// layers and the drivers' overlay added once; the page hands it the map when ready and updates sources itself.
import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import { useEffect, useRef } from 'react';
import { useLatest } from '../ui/use-latest.ts';
import { addDriversOverlay, type DriversOverlay } from './drivers-overlay.ts';
import { addLayers, LAYER_IDS } from './layers.ts';
import { mapStyle } from './style.ts';

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
}

export default function MapCanvas({ label, onReady, onPick, center }: MapCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useLatest({ onReady, onPick });
  useEffect(() => {
    if (!container.current) return;
    const map = new maplibregl.Map({
      container: container.current,
      style: mapStyle(),
      center: center ?? [13.405, 52.52],
      zoom: 11,
      attributionControl: false,
      // Keyboard: the canvas takes focus and arrow keys pan, +/- zoom (MapLibre's keyboard handler).
      keyboard: true,
    });
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    map.getCanvas().setAttribute('aria-label', label);
    let drivers: DriversOverlay | null = null;
    map.on('load', () => {
      addLayers(map);
      drivers = addDriversOverlay(map);
      const overlay = drivers;
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
    return () => {
      drivers?.remove();
      map.remove();
    };
    // The map is created once per mount; label and center are read at creation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <div ref={container} className="map-canvas" />;
}
