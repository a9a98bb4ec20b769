// The region import's tiles step (decision 1540): tilemaker over the extract when it is installed, else the
// prebuilt .mbtiles shipped next to the extract (the demo region's, scripts/map-demo-tiles.mjs), else no tiles — and
// the import's output says which.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Queryable } from '../../../db/client.ts';
import type { ImportStep } from '../import-steps.ts';
import { hasTilemaker, readMbtiles, runTilemaker } from './mbtiles.ts';
import { deleteTiles, replaceTiles } from './repository.ts';

export type TilesOrigin = 'tilemaker' | 'prebuilt' | 'none';

/** The prebuilt tiles that go with an extract: `monaco.osm.pbf` → `monaco.mbtiles` in the same folder. */
export function prebuiltTilesFor(extract: string): string {
  const base = path.basename(extract).replace(/(\.osm)?\.pbf$/i, '');
  return path.join(path.dirname(extract), `${base}.mbtiles`);
}

/** Makes (or finds) the region's tiles and stores them; `tilemaker: false` skips tilemaker even when installed. */
export async function importTiles(
  q: Queryable,
  regionId: string,
  extract: string,
  options: { tilemaker?: boolean } = {},
): Promise<{ tiles: number; origin: TilesOrigin }> {
  let file: string | null = null;
  let origin: TilesOrigin = 'none';
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-tiles-'));
  try {
    if (options.tilemaker !== false && (await hasTilemaker())) {
      file = path.join(work, 'region.mbtiles');
      await runTilemaker(extract, file);
      origin = 'tilemaker';
    } else if (fs.existsSync(prebuiltTilesFor(extract))) {
      file = prebuiltTilesFor(extract);
      origin = 'prebuilt';
    }
    if (!file) {
      await deleteTiles(q, regionId);
      return { tiles: 0, origin };
    }
    const tiles = await readMbtiles(file);
    await replaceTiles(q, regionId, tiles);
    return { tiles: tiles.length, origin };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** What the import prints about the tiles step. */
export function tilesNote(origin: TilesOrigin): string {
  if (origin === 'tilemaker') return 'tiles made with tilemaker';
  if (origin === 'prebuilt') return 'tilemaker is not installed: the prebuilt tiles next to the extract were stored';
  return 'tilemaker is not installed and no prebuilt .mbtiles lies next to the extract: imported without map tiles (the maps show no streets)';
}

/** The region import's tiles step: counts `tiles`; the origin of the tiles goes to the import's output (stderr). */
export const tilesStep: ImportStep = {
  name: 'tiles',
  async run(q, regionId, _osm, source) {
    const { tiles, origin } = await importTiles(q, regionId, source.path);
    if (origin !== 'tilemaker') process.stderr.write(`region import: ${tilesNote(origin)}\n`);
    return { tiles };
  },
  remove: deleteTiles,
};
