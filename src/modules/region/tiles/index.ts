// What the rest of Tourbook uses of the region's map tiles (decision 1540): the routes, and the import step.
export { tileRoutes, ATTRIBUTION, FONT_STACKS } from './routes.ts';
export { importTiles, prebuiltTilesFor, tilesNote, tilesStep, type TilesOrigin } from './import-step.ts';
export { readMbtiles, hasTilemaker, runTilemaker } from './mbtiles.ts';
export { forgetTiles, TILE_CACHE_SECONDS } from './cache.ts';
