// Region routes (docs/api-guide.md "Regions", "Geocoding"): the imported regions, and the geocoder.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { regionPermissions } from './permissions.ts';
import { listRegions } from './repository.ts';

const tags = ['regions'];

const Bbox = Type.Object({ min_lat: Type.Number(), min_lng: Type.Number(), max_lat: Type.Number(), max_lng: Type.Number() });
const RegionView = Type.Object({
  name: Type.String(),
  bbox: Bbox,
  imported_at: Type.String({ format: 'date-time' }),
  addresses: Type.Integer(),
  streets: Type.Integer(),
  road_nodes: Type.Integer(),
  road_edges: Type.Integer(),
});
const RegionList = Type.Object({ regions: Type.Array(RegionView) });

export const regionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/regions', { schema: { tags, operationId: 'listRegions', summary: 'List the imported regions (admin)', response: { 200: RegionList } } }, async (request) => {
      regionPermissions.require(actorOf(request), 'list_regions');
      const regions = await listRegions(deps.db);
      return {
        // A count a step did not report (the roads step before its first import) is 0.
        regions: regions.map((r) => ({
          name: r.name,
          bbox: r.bbox,
          imported_at: r.importedAt.toISOString(),
          addresses: r.counts.addresses ?? 0,
          streets: r.counts.streets ?? 0,
          road_nodes: r.counts.road_nodes ?? 0,
          road_edges: r.counts.road_edges ?? 0,
        })),
      };
    });
  };
