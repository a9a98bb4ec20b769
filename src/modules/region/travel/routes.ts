// The travel matrix route (contract §15, docs/api-guide.md "Road travel times"): durations and distances between up to
// 1,000 points, from the one source matrix.ts picks.
import { withExample } from '../../../http/openapi-components.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../../deps.ts';
import { actorOf } from '../../../http/actor.ts';
import { permissionTable } from '../../../http/permission-table.ts';
import { TravelSource } from '../../../http/travel-schemas.ts';
import { travelMatrix } from './matrix.ts';

/** The straight-line speed of a matrix asked without a service area: the service areas' default average speed. */
const STRAIGHT_LINE_KMH = 30;
export const MAX_MATRIX_POINTS = 1000;

const travelPermissions = permissionTable({ admin: ['routing_matrix'], manager: ['routing_matrix'], customer: [], driver: [] });


const MatrixBody = withExample(Type.Object(
  {
    points: Type.Array(Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) }, { additionalProperties: false }), {
      minItems: 2,
      maxItems: MAX_MATRIX_POINTS,
    }),
  },
  { additionalProperties: false },
), { points: [{ lat: 43.7396, lng: 7.4275 }, { lat: 43.7311, lng: 7.4197 }] });
const MatrixResponse = withExample(
  Type.Object({
    matrix: Type.Object({
      durations_s: Type.Array(Type.Array(Type.Number()), { description: 'Seconds from point i (row) to point j (column).' }),
      distances_m: Type.Array(Type.Array(Type.Number()), { description: 'Meters from point i (row) to point j (column).' }),
      source: TravelSource,
    }),
  }),
  { matrix: { durations_s: [[0, 212.4], [198.7, 0]], distances_m: [[0, 1689.2], [1544.1, 0]], source: 'road_network' } },
);

export const travelRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/routing/matrix',
      {
        // 1,000 points of JSON are well under the default body limit; the answer (2 × 10⁶ numbers) is large on purpose.
        schema: { tags: ['routing'], operationId: 'routingMatrix', summary: 'Travel times and distances between points (admin, manager)', body: MatrixBody, response: { 200: MatrixResponse } },
      },
      async (request) => {
        travelPermissions.require(actorOf(request), 'routing_matrix');
        const matrix = await travelMatrix(deps, request.body.points, STRAIGHT_LINE_KMH);
        return { matrix: { durations_s: matrix.seconds.map((row) => row.map(round1)), distances_m: matrix.meters.map((row) => row.map(round1)), source: matrix.source } };
      },
    );
  };

/** A tenth of a second or meter is finer than any source measures. */
const round1 = (value: number): number => Math.round(value * 10) / 10;
