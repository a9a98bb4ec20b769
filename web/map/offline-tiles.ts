// Which map files the driver app keeps for offline use (decision 1720): the tiles over a tour's stops, a few zooms,
// bounded in number, plus the TileJSON and the glyph ranges street names use. Pure: the page computes the list, the
// service worker (web/driver/sw.ts) fetches and keeps it.

export interface KeepLimits {
  /** Lowest and highest zoom kept; the map overzooms the highest beyond it. */
  minZoom: number;
  maxZoom: number;
  /** At most this many tiles: zooms are added from the lowest up while the total stays within it. */
  maxTiles: number;
  /** Margin around the stops, in metres: the streets just past the first and the last stop. */
  marginMetres: number;
}

export const KEEP_LIMITS: KeepLimits = { minZoom: 12, maxZoom: 16, maxTiles: 600, marginMetres: 600 };

/** The glyph ranges street and place names are drawn from (Basic Latin, Latin-1, Latin Extended-A). */
export const KEPT_GLYPHS = ['Noto Sans Regular/0-255', 'Noto Sans Regular/256-511', 'Noto Sans Bold/0-255', 'Noto Sans Bold/256-511'].map(
  (range) => `/tiles/glyphs/${range.split('/').map(encodeURIComponent).join('/')}.pbf`,
);

const tileX = (lng: number, z: number) => Math.floor(((lng + 180) / 360) * 2 ** z);
const tileY = (lat: number, z: number) => {
  const r = (Math.min(Math.max(lat, -85.0511), 85.0511) * Math.PI) / 180;
  return Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
};

/** The tile URLs over the points' bounding box (plus the margin), zoom by zoom from the lowest, within the limits. */
export function tilesAround(points: readonly { lat: number; lng: number }[], limits: KeepLimits = KEEP_LIMITS): string[] {
  if (!points.length) return [];
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const dLat = limits.marginMetres / 111_320;
  const dLng = dLat / Math.max(Math.cos((((Math.min(...lats) + Math.max(...lats)) / 2) * Math.PI) / 180), 0.01);
  const [west, east, south, north] = [Math.min(...lngs) - dLng, Math.max(...lngs) + dLng, Math.min(...lats) - dLat, Math.max(...lats) + dLat];
  const urls: string[] = [];
  for (let z = limits.minZoom; z <= limits.maxZoom; z++) {
    const [x0, x1, y0, y1] = [tileX(west, z), tileX(east, z), tileY(north, z), tileY(south, z)];
    const count = (x1 - x0 + 1) * (y1 - y0 + 1);
    if (urls.length + count > limits.maxTiles) break;
    for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) urls.push(`/tiles/${z}/${x}/${y}.pbf`);
  }
  return urls;
}

/** Everything a map of these points needs offline besides the app's own scripts: TileJSON, glyphs, tiles. */
export function offlineMapFiles(points: readonly { lat: number; lng: number }[], limits: KeepLimits = KEEP_LIMITS): string[] {
  return ['/tiles/tiles.json', ...KEPT_GLYPHS, ...tilesAround(points, limits)];
}
