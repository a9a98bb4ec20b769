// The tiles read lately, per database (decision 1780): a tile changes only with its region's next import, so a
// process answers a tile it read in the last 30 seconds without asking the database again. A write of tiles in this
// process, and the commit of an import or a deletion, forget them at once; another process's import shows here within
// the 30 seconds (browsers keep a tile an hour anyway: routes.ts). A tile that is not there is remembered too: maps
// ask for the tiles around a region.
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../../../db/client.ts';
import type { Clock } from '../../../shared/clock.ts';

export const TILE_CACHE_SECONDS = 30;
/** Monaco's z11–16 are 2.4 MB in all; a city's busy zooms fit in 64 MB. */
const TILE_CACHE_BYTES = 64 * 2 ** 20;

type Entry = { data: Uint8Array | null; generation: number };
/** Bumped by every forget: entries of an older generation are misses (a WeakMap cannot be cleared as a whole). */
let generation = 0;
const caches = new WeakMap<Queryable, LRUCache<string, Entry>>();

function cacheOf(db: Queryable, clock: Clock): LRUCache<string, Entry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new LRUCache<string, Entry>({
      maxSize: TILE_CACHE_BYTES,
      sizeCalculation: (entry) => (entry.data?.byteLength ?? 0) + 64,
      ttl: TILE_CACHE_SECONDS * 1000,
      // The injected clock, read on every lookup: lru-cache's default keeps a reading until a 1 ms timer fires, which
      // requests answered within one turn of the event loop never let happen (tests move the clock past the 30 s).
      perf: { now: () => clock.now().getTime() },
      ttlResolution: 0,
    });
    caches.set(db, cache);
  }
  return cache;
}

/** The tile z/x/y from the cache, else from `read` (and then cached). */
export async function cachedTile(db: Queryable, clock: Clock, z: number, x: number, y: number, read: () => Promise<Uint8Array | null>): Promise<Uint8Array | null> {
  const cache = cacheOf(db, clock);
  const key = `${z}/${x}/${y}`;
  const hit = cache.get(key);
  if (hit && hit.generation === generation) return hit.data;
  const readIn = generation;
  const data = await read();
  cache.set(key, { data, generation: readIn });
  return data;
}

/** Forgets every cached tile of this process: some region's tiles changed. */
export function forgetTiles(): void {
  generation += 1;
}
