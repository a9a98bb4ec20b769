// The region import's roads step (decision 1520): the extract's car graph, built in memory and stored as one row.
import { sql } from 'drizzle-orm';
import type { ImportStep } from '../import-steps.ts';
import { encodeRoadGraph } from './encoding.ts';
import { buildRoadGraph } from './graph.ts';

export const roadsStep: ImportStep = {
  name: 'roads',
  async run(q, regionId, osm) {
    const graph = buildRoadGraph(osm);
    const nodes = graph.nodeLat.length;
    const edges = graph.edgeTo.length;
    await q.execute(sql`INSERT INTO region_road_graphs (region_id, nodes, edges, data) VALUES (${regionId}, ${nodes}, ${edges}, ${Buffer.from(encodeRoadGraph(graph))})`);
    return { road_nodes: nodes, road_edges: edges };
  },
  async remove(q, regionId) {
    await q.execute(sql`DELETE FROM region_road_graphs WHERE region_id = ${regionId}`);
  },
};
