// The MapLibre canvas, in its own lazily loaded chunk (MapLibre is most of a page's JavaScript): created once, its
// layers added once; the page hands it the map when ready and updates sources itself.
import 'maplibre-gl/dist/maplibre-gl.css';
import * as maplibregl from 'maplibre-gl/dist/maplibre-gl-csp.js';
import { useEffect, useRef } from 'react';
import { useLatest } from '../ui/use-latest.ts';
import { addLayers, LAYER_IDS } from './layers.ts';
import { mapStyle } from './style.ts';

maplibregl.setWorkerUrl(__MAPLIBRE_WORKER_URL__);

export interface MapCanvasProps {
  label: string;
  onReady: (map: maplibregl.Map) => void;
  /** A click on a driver, a tour line or a stop: the feature's properties. */
  onPick?: (layer: string, properties: Record<string, unknown>) => void;
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
    map.on('load', () => {
      addLayers(map);
      for (const layer of [LAYER_IDS.drivers, LAYER_IDS.tourLines, LAYER_IDS.stops]) {
        map.on('click', layer, (event) => {
          const feature = event.features?.[0];
          if (feature) handlers.current.onPick?.(layer, feature.properties ?? {});
        });
        map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
        map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
      }
      handlers.current.onReady(map);
    });
    return () => map.remove();
    // The map is created once per mount; label and center are read at creation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return <div ref={container} className="map-canvas" />;
}
