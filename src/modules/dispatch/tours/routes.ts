// Tours routes: dispatch (merge, insert), custom tour stops, the tour machine's actions, preferred drivers, visibility,
// the route along the roads.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../http/actor.ts';
import type { Deps } from '../../../deps.ts';
import { setNextLink } from '../../../http/pagination.ts';
import { bodyOptional, EmptyBody, IdParams } from '../../../http/schemas.ts';
import { earningsDeprecation } from '../legacy-earnings-field.ts';
import { stopPayloadDeprecation } from '../stops/index.ts';
import { CustomStopBody, PreferredDriversBody, StopEnvelope, ViewQuery } from '../bookings/index.ts';
import { dispatchIntoNewTour, insertStopsIntoTour } from './merge-and-insert.ts';
import { addTourStop, explainTourVisibility, patchTour, setTourPreferredDrivers, transitionTour } from './operations.ts';
import { getTour, listTours } from './get-tours.ts';
import { getTourRoute } from './tour-route.ts';
import { TravelRoute } from '../../../http/travel-schemas.ts';
import { Type } from '@sinclair/typebox';
import { ForceAssignBody, InsertStopsBody, MergeBody, TourEnvelope, TourList, TourListQuery, TourPatchBody, TourVisibilityEnvelope } from './schemas.ts';
import type { TourAction } from './tour-machine.ts';
import { MergeResponse } from '../planning/index.ts';

const tags = ['tours'];
const SIMPLE_ACTIONS: TourAction[] = ['schedule', 'ready_to_pick', 'hold', 'claim', 'unclaim', 'start', 'pick', 'ditch', 'force_unassign', 'cancel'];

export const tourRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Every route here but visibility renders stops, with the deprecated completion_requirements.fail.
    // Tours and bookings carry two deprecated items: completion_requirements.fail on their stops, and earnings.
    const rendersStops = [stopPayloadDeprecation(deps), earningsDeprecation(deps)];
    app.post(
      '/api/hailing/bookings/merge',
      { preHandler: rendersStops, schema: { tags, operationId: 'mergeIntoTour', summary: 'Dispatch stops into a new tour', body: MergeBody, response: { 201: MergeResponse } } },
      async (request, reply) => reply.status(201).send(await dispatchIntoNewTour(deps, actorOf(request), request.body)),
    );
    app.get(
      '/api/hailing/tours',
      { preHandler: rendersStops, schema: { tags, operationId: 'listTours', summary: 'List visible tours, newest first (history included)', querystring: TourListQuery, response: { 200: TourList } } },
      async (request, reply) => {
        const page = await listTours(deps, actorOf(request), request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return page;
      },
    );
    app.get(
      '/api/hailing/tours/:id',
      { preHandler: rendersStops, schema: { tags, operationId: 'getTour', summary: 'Show a tour', params: IdParams, querystring: ViewQuery, response: { 200: TourEnvelope } } },
      async (request) => ({ tour: await getTour(deps, actorOf(request), request.params.id, request.query.view) }),
    );
    app.get(
      '/api/hailing/tours/:id/route',
      {
        schema: {
          tags,
          operationId: 'getTourRoute',
          summary: 'The route along the roads through the remaining stops (from the driver while en route)',
          params: IdParams,
          response: { 200: Type.Object({ route: TravelRoute }) },
        },
      },
      async (request) => ({ route: await getTourRoute(deps, actorOf(request), request.params.id) }),
    );
    app.patch(
      '/api/hailing/tours/:id',
      { preHandler: rendersStops, schema: { tags, operationId: 'patchTour', summary: "Label or lock a tour (a plan never changes a locked tour's stops)", params: IdParams, body: TourPatchBody, response: { 200: TourEnvelope } } },
      async (request) => ({ tour: await patchTour(deps, actorOf(request), request.params.id, request.body.tour) }),
    );
    app.post(
      '/api/hailing/tours/:id/stops/insert',
      { preHandler: rendersStops, schema: { tags, operationId: 'insertStopsIntoTour', summary: 'Dispatch or move stops into an existing tour', params: IdParams, body: InsertStopsBody, response: { 200: TourEnvelope } } },
      async (request) => ({ tour: await insertStopsIntoTour(deps, actorOf(request), request.params.id, request.body) }),
    );
    app.post(
      '/api/hailing/tours/:id/stops',
      { preHandler: rendersStops, schema: { tags, operationId: 'insertTourStop', summary: 'Insert a custom tour-only stop', params: IdParams, body: CustomStopBody, response: { 201: StopEnvelope } } },
      async (request, reply) => reply.status(201).send({ stop: await addTourStop(deps, actorOf(request), request.params.id, request.body) }),
    );
    for (const action of SIMPLE_ACTIONS) {
      app.post(
        `/api/hailing/tours/:id/${action}`,
        { preHandler: rendersStops, schema: { tags, operationId: `${action.replace(/_(\w)/g, (_m: string, c: string) => c.toUpperCase())}Tour`, summary: `Tour action: ${action}`, params: IdParams, body: EmptyBody, response: { 200: TourEnvelope } }, preValidation: bodyOptional },
        async (request) => ({ tour: await transitionTour(deps, actorOf(request), request.params.id, action) }),
      );
    }
    app.post(
      '/api/hailing/tours/:id/force_assign',
      { preHandler: rendersStops, schema: { tags, operationId: 'forceAssignTour', summary: 'Tour action: force_assign', params: IdParams, body: ForceAssignBody, response: { 200: TourEnvelope } } },
      async (request) =>
        ({ tour: await transitionTour(deps, actorOf(request), request.params.id, 'force_assign', { driverId: request.body.driver_id, start: request.body.start ?? false }) }),
    );
    app.put(
      '/api/tours/:id/preferred_drivers',
      { preHandler: rendersStops, schema: { tags, operationId: 'setTourPreferredDrivers', summary: 'Set the preferred drivers of a tour', params: IdParams, body: PreferredDriversBody, response: { 200: TourEnvelope } } },
      async (request) => ({ tour: await setTourPreferredDrivers(deps, actorOf(request), request.params.id, request.body.preferred_driver_ids) }),
    );
    app.get(
      '/api/hailing/tours/:id/visibility',
      { schema: { tags, operationId: 'getTourVisibility', summary: 'Admins: which organizations see the tour, and why', params: IdParams, response: { 200: TourVisibilityEnvelope } } },
      async (request) => ({ visibility: await explainTourVisibility(deps, actorOf(request), request.params.id) }),
    );
  };
