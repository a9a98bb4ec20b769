// Live tracking routes: driver positions in, the position history, stream tickets and the live stream.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { credentialOf } from '../../http/auth.ts';
import { setNextLink } from '../../http/pagination.ts';
import { EmptyBody, IdParams, bodyOptional } from '../../http/schemas.ts';
import { sha256Hex } from '../../shared/secrets.ts';
import { liveHubOf } from './hub.ts';
import { openLiveStream } from './operations/open-stream.ts';
import { listTourPositions } from './operations/positions.ts';
import { recordDriverLocation } from './operations/record-driver-location.ts';
import { recordDriverLocations } from './operations/record-driver-locations.ts';
import { createLiveTicket } from './operations/tickets.ts';
import { DriverLocationBody, DriverLocationsBody, LiveQuery, LocationEnvelope, LocationsEnvelope, PositionList, PositionListQuery, TicketEnvelope } from './schemas.ts';

const tags = ['live'];

export const liveRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const hub = liveHubOf(deps);
    // Streams end before the server waits for open connections, or shutdown would wait for ever.
    app.addHook('preClose', async () => hub.stop());

    app.post(
      '/api/hailing/tours/:id/driver_location',
      { schema: { tags, operationId: 'recordDriverLocation', summary: "The tour's driver reports its position", params: IdParams, body: DriverLocationBody, response: { 200: LocationEnvelope } } },
      async (request) => recordDriverLocation(deps, actorOf(request), request.params.id, request.body),
    );
    app.post(
      '/api/hailing/tours/:id/driver_locations',
      { schema: { tags, operationId: 'recordDriverLocations', summary: "The tour's driver reports the positions it kept while offline, in one request", params: IdParams, body: DriverLocationsBody, response: { 200: LocationsEnvelope } } },
      async (request) => recordDriverLocations(deps, actorOf(request), request.params.id, request.body),
    );
    app.get(
      '/api/hailing/tours/:id/positions',
      { schema: { tags, operationId: 'listTourPositions', summary: "A tour's position history, newest first", params: IdParams, querystring: PositionListQuery, response: { 200: PositionList } } },
      async (request, reply) => {
        const page = await listTourPositions(deps, actorOf(request), request.params.id, request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return page;
      },
    );
    app.post(
      '/api/live/tickets',
      { schema: { tags, operationId: 'createLiveTicket', summary: 'A single-use ticket (60 s) to open the live stream from a browser', body: EmptyBody, response: { 201: TicketEnvelope } }, preValidation: bodyOptional },
      async (request, reply) => reply.status(201).send(await createLiveTicket(deps, actorOf(request), sha256Hex(credentialOf(request)?.token ?? ''))),
    );
    app.get(
      '/api/live',
      {
        // Authenticated by the operation: a ticket in the query string or the usual headers.
        config: { auth: 'public' },
        schema: { tags, operationId: 'openLiveStream', summary: 'The live stream (text/event-stream) of visible tour and booking events and driver positions', querystring: LiveQuery },
      },
      async (request, reply) => openLiveStream(deps, hub, request, request.query, reply),
    );
  };
