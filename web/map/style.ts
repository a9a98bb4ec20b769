// The map's style (decision 1540, "Style in the page"): the streets of the imported regions from Tourbook's own vector tiles
// (/tiles/tiles.json says what they cover), street names in our own glyphs (Noto Sans, /tiles/glyphs/), all from
// this origin. A blank variant keeps only the background (the bench's baseline). An operator's MAP_TILE_URL
// (<meta name="tourbook-map-tiles">) still replaces our tiles with its raster ones. No region imported: blank.
import type { FilterSpecification, LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl';

export const MAP_COLORS = {
  background: '#f2efe9',
  area: '#1d4ed8',
  place: '#475569',
  tour: '#2563eb',
  stopOpen: '#ffffff',
  stopDone: '#16a34a',
  stopFailed: '#dc2626',
  live: '#16a34a',
  stale: '#d97706',
  lost: '#6b7280',
  selected: '#f59e0b',
} as const;

/**
 * Each tour's colour, by its number on the page (decision 1543): Okabe & Ito's palette, told apart with every common
 * colour-vision deficiency and in greyscale print by their lightness, without its yellow (too light on a street map).
 * The tour's number is drawn on its stops too, so the colour is never the only cue.
 */
export const TOUR_PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'] as const;
export const tourColor = (index: number): string => TOUR_PALETTE[((index % TOUR_PALETTE.length) + TOUR_PALETTE.length) % TOUR_PALETTE.length]!;

export const ATTRIBUTION = '© OpenStreetMap contributors';
const FONT = ['Noto Sans Regular'];
const FONT_BOLD = ['Noto Sans Bold'];

/** What /tiles/tiles.json answers when a region with tiles is imported. */
export interface TileCoverage {
  tiles: string[];
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number];
}

export type MapVariant = 'light' | 'blank';

export function tileUrlFromPage(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tourbook-map-tiles"]');
  return meta?.content || null;
}

/** The page's tiles, read once per page load; null when no region has tiles (or the read failed: the map stays blank). */
let coverage: Promise<TileCoverage | null> | null = null;
export function loadTileCoverage(): Promise<TileCoverage | null> {
  coverage ??= fetch('/tiles/tiles.json', { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<TileCoverage>) : null))
    .catch(() => null);
  return coverage;
}

/**
 * Whether a street map of this point has streets to draw: the operator's tiles, or ours covering it. The driver app
 * and the tracking page show no map otherwise (decisions 1720, 1721): dots on a blank background say less than the
 * tracking page's small map, and MapLibre is the largest download a phone would make for them.
 */
export async function streetsCover(point: { lat: number; lng: number }): Promise<boolean> {
  if (tileUrlFromPage()) return true;
  const tiles = await loadTileCoverage();
  if (!tiles) return false;
  const [west, south, east, north] = tiles.bounds;
  return point.lng >= west && point.lng <= east && point.lat >= south && point.lat <= north;
}

/** MapLibre wants absolute URLs in a style; ours are this origin's. */
const absolute = (url: string): string => new URL(url, location.origin).toString().replace(/%7B/g, '{').replace(/%7D/g, '}');

const line = (id: string, filter: FilterSpecification, color: string, width: [number, number, number, number], minzoom = 0): LayerSpecification =>
  ({
    id,
    type: 'line',
    source: 'streets',
    'source-layer': 'transportation',
    minzoom,
    filter,
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': ['interpolate', ['exponential', 1.6], ['zoom'], width[0], width[1], width[2], width[3]] },
  }) as LayerSpecification;

const MAJOR: FilterSpecification = ['match', ['get', 'class'], ['motorway', 'trunk', 'primary'], true, false];
const MEDIUM: FilterSpecification = ['match', ['get', 'class'], ['secondary', 'tertiary'], true, false];
const MINOR: FilterSpecification = ['match', ['get', 'class'], ['minor', 'service'], true, false];

/** The light street map over our vector tiles: land, water, parks, buildings, roads by class, names, house numbers. */
function streetLayers(): LayerSpecification[] {
  return [
    { id: 'landuse', type: 'fill', source: 'streets', 'source-layer': 'landuse', paint: { 'fill-color': ['match', ['get', 'class'], 'industrial', '#ebe4ef', 'commercial', '#f5e9e6', '#ede9e1'] } },
    { id: 'park', type: 'fill', source: 'streets', 'source-layer': 'park', paint: { 'fill-color': '#cfe8c0' } },
    { id: 'water', type: 'fill', source: 'streets', 'source-layer': 'water', filter: ['==', ['geometry-type'], 'Polygon'], paint: { 'fill-color': '#a9d3f0' } },
    { id: 'coastline', type: 'line', source: 'streets', 'source-layer': 'water', filter: ['==', ['get', 'class'], 'coastline'], paint: { 'line-color': '#6fa8d6', 'line-width': 2 } },
    { id: 'building', type: 'fill', source: 'streets', 'source-layer': 'building', minzoom: 14, paint: { 'fill-color': '#dcd6cc', 'fill-outline-color': '#c6beb1' } },
    line('road-path', ['==', ['get', 'class'], 'path'], '#b7ada1', [14, 0.6, 18, 2], 14),
    line('road-rail', ['==', ['get', 'class'], 'rail'], '#9e9e9e', [12, 0.6, 18, 2]),
    line('road-minor-casing', MINOR, '#cfc6ba', [13, 1.2, 18, 14], 13),
    line('road-medium-casing', MEDIUM, '#c9b98f', [11, 1.2, 18, 20]),
    line('road-major-casing', MAJOR, '#c49a5c', [11, 1.6, 18, 24]),
    line('road-minor', MINOR, '#ffffff', [13, 0.6, 18, 11], 13),
    line('road-medium', MEDIUM, '#fff6d6', [11, 0.8, 18, 17]),
    line('road-major', MAJOR, '#fcd99a', [11, 1.2, 18, 20]),
    {
      id: 'road-name',
      type: 'symbol',
      source: 'streets',
      'source-layer': 'transportation_name',
      minzoom: 13,
      layout: {
        'symbol-placement': 'line',
        'text-field': ['get', 'name'],
        'text-font': FONT,
        'text-size': ['interpolate', ['linear'], ['zoom'], 13, 10, 18, 14],
        'text-max-angle': 30,
        'symbol-spacing': 250,
      },
      paint: { 'text-color': '#3b3b3b', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    },
    {
      id: 'housenumber',
      type: 'symbol',
      source: 'streets',
      'source-layer': 'housenumber',
      minzoom: 17,
      layout: { 'text-field': ['get', 'housenumber'], 'text-font': FONT, 'text-size': 10 },
      paint: { 'text-color': '#6b5f52', 'text-halo-color': '#f2efe9', 'text-halo-width': 1 },
    },
    {
      id: 'place',
      type: 'symbol',
      source: 'streets',
      'source-layer': 'place',
      layout: { 'text-field': ['get', 'name'], 'text-font': FONT_BOLD, 'text-size': ['match', ['get', 'class'], ['city', 'town'], 15, 12], 'text-max-width': 8 },
      paint: { 'text-color': '#333333', 'text-halo-color': '#ffffff', 'text-halo-width': 2 },
    },
  ];
}

/** The style for a page: our streets (light), the operator's raster tiles, or only the background (blank). */
export function mapStyle(options: { variant?: MapVariant; tiles?: TileCoverage | null; tileUrl?: string | null } = {}): StyleSpecification {
  const variant = options.variant ?? 'light';
  const tileUrl = options.tileUrl ?? null;
  const sources: Record<string, SourceSpecification> = {};
  const layers: LayerSpecification[] = [{ id: 'background', type: 'background', paint: { 'background-color': MAP_COLORS.background } }];
  if (variant === 'light' && tileUrl) {
    sources.tiles = { type: 'raster', tiles: [tileUrl], tileSize: 256, attribution: new URL(tileUrl.replace(/[{}]/g, '')).host };
    layers.push({ id: 'tiles', type: 'raster', source: 'tiles' });
  } else if (variant === 'light' && options.tiles) {
    const { tiles, minzoom, maxzoom, bounds } = options.tiles;
    sources.streets = { type: 'vector', tiles: tiles.map(absolute), minzoom, maxzoom, bounds, attribution: ATTRIBUTION };
    layers.push(...streetLayers());
  }
  return { version: 8, glyphs: absolute('/tiles/glyphs/{fontstack}/{range}.pbf'), sources, layers };
}

/** The page's style once its tiles are known: MAP_TILE_URL when set, else ours, else blank. */
export async function loadMapStyle(variant: MapVariant = 'light'): Promise<StyleSpecification> {
  const tileUrl = tileUrlFromPage();
  if (variant === 'blank' || tileUrl) return mapStyle({ variant, tileUrl });
  return mapStyle({ variant, tiles: await loadTileCoverage() });
}
