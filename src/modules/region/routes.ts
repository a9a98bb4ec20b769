// Region routes (docs/api-guide.md "Regions", "Geocoding"): the imported regions, and the geocoder.
import { withExample } from '../../http/openapi-components.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { notFound } from '../../http/errors.ts';
import { findServiceArea } from '../identity/index.ts';
import { geocode, setGeocoderProvider } from './geocode/geocoder.ts';
import { createProvider } from './geocode/provider.ts';
import { geocodePlacesScope, regionPermissions } from './permissions.ts';
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
const RegionList = withExample(Type.Object({ regions: Type.Array(RegionView) }), {
  regions: [{ name: 'monaco', bbox: { min_lat: 43.7148, min_lng: 7.349, max_lat: 43.77, max_lng: 7.491 }, imported_at: '2026-12-02T08:00:00.000Z', addresses: 57, streets: 576, road_nodes: 2266, road_edges: 4320 }],
});

const nullableText = Type.Union([Type.String(), Type.Null()]);
const GeocodeResultView = Type.Object({
  label: Type.String(),
  location: Type.Object({ lat: Type.Number(), lng: Type.Number() }),
  address: Type.Object({ street: nullableText, number: nullableText, zip_code: nullableText, city: nullableText, country: nullableText }),
  precision: Type.Union([Type.Literal('house'), Type.Literal('street'), Type.Literal('postcode'), Type.Literal('city')]),
  source: Type.Union([Type.Literal('places'), Type.Literal('region'), Type.Literal('nominatim'), Type.Literal('photon')]),
  fuzzy: Type.Optional(Type.Literal(true)),
});
const GeocodeResponse = withExample(
  Type.Object({
    results: Type.Array(GeocodeResultView, { maxItems: 10 }),
    notice: Type.Optional(Type.String({ description: 'Why the configured provider did not help (an outage, a timeout, its rate limit)' })),
  }),
  {
    results: [
      {
        label: 'Boulevard des Moulins 12, 98000 Monaco',
        location: { lat: 43.7417, lng: 7.4262 },
        address: { street: 'Boulevard des Moulins', number: '12', zip_code: '98000', city: 'Monaco', country: 'MC' },
        precision: 'house',
        source: 'region',
      },
    ],
  },
);
const GeocodeQuery = Type.Object({
  q: Type.String({ minLength: 1, maxLength: 500, description: 'The address as one line: "12 Boulevard des Moulins, 98000 Monaco"' }),
  service_area_id: Type.Optional(Type.String({ format: 'uuid' })),
});

export const regionRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    setGeocoderProvider(deps.config.geocoder ? createProvider(deps.config.geocoder) : null);
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

    app.get('/api/geocode', { schema: { tags, operationId: 'geocode', summary: 'Find an address: places, regions, then the configured provider', querystring: GeocodeQuery, response: { 200: GeocodeResponse } } }, async (request) => {
      const actor = actorOf(request);
      regionPermissions.require(actor, 'geocode');
      const { q, service_area_id } = request.query;
      if (service_area_id && !(await findServiceArea(deps.db, actor.tenantId, service_area_id))) throw notFound('service area');
      const answer = await geocode(deps.db, actor.tenantId, { line: q }, { customerId: geocodePlacesScope(actor), ...(service_area_id ? { serviceAreaId: service_area_id } : {}) });
      return { results: answer.results, ...(answer.notice ? { notice: answer.notice } : {}) };
    });
  };
