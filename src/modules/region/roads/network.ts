// A region's road network in this process (decision 1522): its graph decoded once from region_road_graphs, with its
// snap index and a search workspace, cached by region id — a re-import makes a new region id, so the next request
// loads the new graph and the old one ages out of the cache.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { queryRows } from '../../../db/sql.ts';
import { decodeRoadGraph } from './encoding.ts';
import type { RoadGraph } from './graph.ts';
import { SearchWorkspace } from './search.ts';
import { buildSnapIndex, type SnapIndex } from './snap.ts';

export interface RoadNetwork {
  regionId: string;
  graph: RoadGraph;
  snap: SnapIndex;
  workspace: SearchWorkspace;
}

/** Graphs kept per process: a few regions (an installation serving several cities), least recently used dropped. */
const CACHED_REGIONS = 4;
const cache = new Map<string, Promise<RoadNetwork | null>>();

export function roadNetworkOf(regionId: string, graph: RoadGraph): RoadNetwork {
  return { regionId, graph, snap: buildSnapIndex(graph), workspace: new SearchWorkspace(graph) };
}

async function load(q: Queryable, regionId: string): Promise<RoadNetwork | null> {
  const [row] = await queryRows<{ data: Uint8Array }>(q, sql`SELECT data FROM region_road_graphs WHERE region_id = ${regionId}`);
  return row ? roadNetworkOf(regionId, decodeRoadGraph(new Uint8Array(row.data))) : null;
}

/** The region's road network, or null when its import stored none. */
export async function roadNetwork(q: Queryable, regionId: string): Promise<RoadNetwork | null> {
  let entry = cache.get(regionId);
  if (entry) {
    cache.delete(regionId);
  } else {
    entry = load(q, regionId);
    // A failed load is not remembered: the next request tries again.
    entry.catch(() => cache.delete(regionId));
  }
  cache.set(regionId, entry);
  while (cache.size > CACHED_REGIONS) cache.delete(cache.keys().next().value!);
  return entry;
}
