// The map's layers: service areas, places, tours (lines and stops), each a GeoJSON source updated in place with
// setData (never re-created per frame). Drivers move too often for a source: they are drawn above the map
// (drivers-overlay.ts, decision 1021).
import type * as GeoJSON from 'geojson';
import type { ExpressionSpecification, GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import { MAP_COLORS } from './style.ts';

export type Feature = GeoJSON.Feature<GeoJSON.Geometry, Record<string, string | number | boolean | null>>;
const collection = (features: Feature[]): GeoJSON.FeatureCollection => ({ type: 'FeatureCollection', features });

export const LAYER_IDS = { areas: 'areas', places: 'places', tourLines: 'tour-lines', stops: 'stops' } as const;

/** A feature's tour colour (`color`, web/map/style.ts TOUR_PALETTE) and number (`label`), set by the page. */
const tourColor: ExpressionSpecification = ['coalesce', ['get', 'color'], MAP_COLORS.tour];
const selected: ExpressionSpecification = ['boolean', ['get', 'selected'], false];

/** Adds every source and layer once; their data starts empty. */
export function addLayers(map: MapLibreMap): void {
  for (const id of ['areas', 'places', 'tours', 'stops']) map.addSource(id, { type: 'geojson', data: collection([]) });
  map.addLayer({ id: 'areas-fill', type: 'fill', source: 'areas', paint: { 'fill-color': MAP_COLORS.area, 'fill-opacity': 0.05 } });
  map.addLayer({ id: LAYER_IDS.areas, type: 'line', source: 'areas', paint: { 'line-color': MAP_COLORS.area, 'line-width': 2, 'line-dasharray': [2, 2] } });
  map.addLayer({
    id: LAYER_IDS.places,
    type: 'circle',
    source: 'places',
    paint: { 'circle-radius': 4, 'circle-color': MAP_COLORS.place, 'circle-stroke-color': '#fff', 'circle-stroke-width': 1 },
  });
  // Each tour in its own colour over a white casing (it stays visible over the streets); the selected one wider.
  map.addLayer({
    id: 'tour-lines-casing',
    type: 'line',
    source: 'tours',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': ['case', selected, 9, 6] },
  });
  map.addLayer({
    id: LAYER_IDS.tourLines,
    type: 'line',
    source: 'tours',
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': tourColor, 'line-width': ['case', selected, 6, 3.5] },
  });
  map.addLayer({
    id: LAYER_IDS.stops,
    type: 'circle',
    source: 'stops',
    paint: {
      // The selected stop (the driver app's next stop) largest, numbered stops next, the rest small.
      'circle-radius': ['case', selected, 13, ['has', 'label'], 9, 5],
      'circle-color': ['match', ['get', 'status'], 'completed', MAP_COLORS.stopDone, 'failed', MAP_COLORS.stopFailed, MAP_COLORS.stopOpen],
      'circle-stroke-color': tourColor,
      'circle-stroke-width': ['case', selected, 5, 3],
    },
  });
  // The tour's number on each of its stops: the second cue beside the colour (decision 1543).
  map.addLayer({
    id: 'stop-labels',
    type: 'symbol',
    source: 'stops',
    filter: ['has', 'label'],
    layout: { 'text-field': ['to-string', ['get', 'label']], 'text-font': ['Noto Sans Bold'], 'text-size': ['case', selected, 14, 11], 'text-allow-overlap': true, 'text-ignore-placement': true },
    paint: { 'text-color': ['match', ['get', 'status'], ['completed', 'failed'], '#ffffff', '#111827'] },
  });
}

// What each map's sources last received, as JSON: a refetch that changes nothing drawn must not make MapLibre re-tile
// and repaint the whole map (software-rendered in the browser tests and the bench; decision 1021).
const lastData = new WeakMap<MapLibreMap, Map<string, string>>();

/** Replaces a source's features, unless they are the ones it already holds. */
export function setLayerData(map: MapLibreMap, source: 'areas' | 'places' | 'tours' | 'stops', features: Feature[]): void {
  const json = JSON.stringify(features);
  let last = lastData.get(map);
  if (!last) lastData.set(map, (last = new Map()));
  if (last.get(source) === json) return;
  const target = map.getSource(source) as GeoJSONSource | undefined;
  if (!target) return;
  target.setData(collection(features));
  last.set(source, json);
}

/** The bounds of every point and line given, to fit the view on first load. */
export function boundsOf(features: Feature[]): [[number, number], [number, number]] | null {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  const visit = (coords: unknown): void => {
    if (Array.isArray(coords) && typeof coords[0] === 'number' && typeof coords[1] === 'number') {
      minLng = Math.min(minLng, coords[0]);
      maxLng = Math.max(maxLng, coords[0]);
      minLat = Math.min(minLat, coords[1]);
      maxLat = Math.max(maxLat, coords[1]);
    } else if (Array.isArray(coords)) for (const inner of coords) visit(inner);
  };
  for (const feature of features) if (feature.geometry.type !== 'GeometryCollection') visit(feature.geometry.coordinates);
  return Number.isFinite(minLng) ? [[minLng, minLat], [maxLng, maxLat]] : null;
}
