// Delivery analytics routes (docs/api-guide.md "Delivery analytics"): the figures of a period (JSON or CSV), a tour's plan against actual.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { getDeliveryAnalytics, getTourAnalytics } from './operations.ts';
import { DeliveriesQuery, DeliveryAnalyticsResponse, IdParams, TourAnalyticsResponse } from './schemas.ts';
import { analyticsCsv } from './views.ts';

const tags = ['analytics'];
const wantsCsv = (accept: string | undefined): boolean => /\btext\/csv\b/i.test(accept ?? '');

export const analyticsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/analytics/deliveries',
      {
        schema: {
          tags,
          operationId: 'getDeliveryAnalytics',
          summary: 'Delivery figures of a period (Accept: text/csv for the same figures as CSV)',
          querystring: DeliveriesQuery,
          produces: ['application/json', 'text/csv'],
          response: {
            200: {
              content: {
                'application/json': { schema: DeliveryAnalyticsResponse },
                'text/csv': { schema: Type.String({ description: 'One row per figure group; the header names the JSON members, nested ones joined with `_`.' }) },
              },
            },
          },
        },
      },
      async (request, reply) => {
        const analytics = await getDeliveryAnalytics(deps, actorOf(request), request.query);
        if (!wantsCsv(request.headers.accept)) return { analytics };
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="deliveries-${analytics.from.slice(0, 10)}-${analytics.to.slice(0, 10)}.csv"`)
          .send(analyticsCsv(analytics));
      },
    );

    app.get(
      '/api/analytics/tours/:id',
      { schema: { tags, operationId: 'getTourAnalytics', summary: "A tour's plan against what happened", params: IdParams, response: { 200: TourAnalyticsResponse } } },
      async (request) => ({ tour_analytics: await getTourAnalytics(deps, actorOf(request), request.params.id) }),
    );
  };
