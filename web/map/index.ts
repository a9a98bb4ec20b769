// The map: MapLibre with an offline style, loaded lazily (its own chunk), and the drivers drawn above it.
import { lazy } from 'react';

export const MapCanvas = lazy(() => import('./map-canvas.tsx'));
export { boundsOf, setLayerData, LAYER_IDS, type Feature } from './layers.ts';
export { MAP_COLORS, TOUR_PALETTE, tourColor, ATTRIBUTION, streetsCover } from './style.ts';
export { areaView, type AreaView } from './area-view.ts';
export { offlineMapFiles, tilesAround, KEEP_LIMITS } from './offline-tiles.ts';
export type { MapCanvasProps, PickedLayer } from './map-canvas.tsx';
export type { DriverMarker, DriverSignal, DriversOverlay } from './drivers-overlay.ts';
export type { Map as MapLibreMap } from 'maplibre-gl';
