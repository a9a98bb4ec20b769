// The map's style: offline by default — a plain background, no tile server (none is reachable in tests or CI) — or
// raster tiles from the operator's MAP_TILE_URL when the page names one (<meta name="tourbook-map-tiles">).
import type { StyleSpecification } from 'maplibre-gl';

export const MAP_COLORS = {
  background: '#e8edf3',
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

export function tileUrlFromPage(): string | null {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="tourbook-map-tiles"]');
  return meta?.content || null;
}

export function mapStyle(tileUrl: string | null = tileUrlFromPage()): StyleSpecification {
  return {
    version: 8,
    sources: tileUrl ? { tiles: { type: 'raster', tiles: [tileUrl], tileSize: 256, attribution: new URL(tileUrl.replace(/[{}]/g, '')).host } } : {},
    layers: [{ id: 'background', type: 'background', paint: { 'background-color': MAP_COLORS.background } }, ...(tileUrl ? [{ id: 'tiles', type: 'raster' as const, source: 'tiles' }] : [])],
  };
}
