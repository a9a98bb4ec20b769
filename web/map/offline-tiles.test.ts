import { describe, expect, it } from 'vitest';
import { KEEP_LIMITS, offlineMapFiles, tilesAround } from './offline-tiles.ts';

const MONACO = [
  { lat: 43.7315, lng: 7.4197 },
  { lat: 43.7384, lng: 7.4246 },
];

describe('the map files kept offline', () => {
  it('covers every stop at every kept zoom, with the tiles that hold them', () => {
    const urls = tilesAround(MONACO);
    // 43.7384 N, 7.4246 E lies in tile 16/34119/23895 (slippy-map numbering, north-west origin).
    expect(urls).toContain('/tiles/16/34119/23895.pbf');
    for (let z = KEEP_LIMITS.minZoom; z <= KEEP_LIMITS.maxZoom; z++) expect(urls.some((url) => url.startsWith(`/tiles/${z}/`))).toBe(true);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('adds the margin around the stops: one point still keeps the tiles beside it', () => {
    const urls = tilesAround([MONACO[0]!], { ...KEEP_LIMITS, minZoom: 16, marginMetres: 600 });
    expect(urls.length).toBeGreaterThanOrEqual(9);
    expect(tilesAround([MONACO[0]!], { ...KEEP_LIMITS, minZoom: 16, marginMetres: 0 })).toHaveLength(1);
  });

  it('stops adding zooms before the bound: a tour across a city keeps the lower zooms only', () => {
    const city = [
      { lat: 52.4, lng: 13.2 },
      { lat: 52.6, lng: 13.6 },
    ];
    const urls = tilesAround(city);
    expect(urls.length).toBeLessThanOrEqual(KEEP_LIMITS.maxTiles);
    expect(urls.some((url) => url.startsWith('/tiles/12/'))).toBe(true);
    expect(urls.some((url) => url.startsWith('/tiles/16/'))).toBe(false);
  });

  it('keeps nothing for a tour without stops, and always the TileJSON and the glyphs', () => {
    expect(tilesAround([])).toEqual([]);
    expect(offlineMapFiles([])).toEqual(['/tiles/tiles.json', '/tiles/glyphs/Noto%20Sans%20Regular/0-255.pbf', '/tiles/glyphs/Noto%20Sans%20Regular/256-511.pbf', '/tiles/glyphs/Noto%20Sans%20Bold/0-255.pbf', '/tiles/glyphs/Noto%20Sans%20Bold/256-511.pbf']);
  });
});
