// Event log routes: GET /api/admin/events (admin), newest first, cursor-paginated.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../http/actor.ts';
import type { Deps } from '../deps.ts';
import { setNextLink } from '../http/pagination.ts';
import { listEventLog } from './operations.ts';
import { EventList, EventLogQuery } from './schemas.ts';

export const eventRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/admin/events',
      {
        schema: {
          tags: ['events'],
          operationId: 'listEvents', summary: 'The event log: every event recorded for the tenant, newest first',
          querystring: EventLogQuery,
          response: { 200: EventList },
        },
      },
      async (request, reply) => {
        const page = await listEventLog(deps, actorOf(request), request.query);
        setNextLink(request, reply, page.meta.next_cursor);
        return { events: page.items, meta: page.meta };
      },
    );
  };
