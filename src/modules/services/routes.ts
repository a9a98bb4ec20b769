// Tour service and scheduling config routes under /api/admin/hailing (docs/api-guide.md "Bookings, stops and tours").
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { markDeprecated, stillServed } from '../../compat/http.ts';
import type { Deps } from '../../deps.ts';
import { setNextLink } from '../../http/pagination.ts';
import {
  createSchedulingConfig,
  createService,
  listSchedulingConfigs,
  listServices,
  showSchedulingConfig,
  showService,
  updateSchedulingConfig,
  updateService,
} from './operations.ts';
import {
  IdParams,
  ListQuery,
  SchedulingConfigCreateBody,
  SchedulingConfigList,
  SchedulingConfigResponse,
  SchedulingConfigUpdateBody,
  ServiceCreateBody,
  ServiceList,
  ServiceResponse,
  ServiceUpdateBody,
} from './schemas.ts';

const tags = ['services'];

export const serviceRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get('/api/admin/hailing/services', { schema: { tags, operationId: 'listServices', summary: 'List tour services', querystring: ListQuery, response: { 200: ServiceList } } }, async (request, reply) => {
      const page = await listServices(deps, actorOf(request), request.query);
      setNextLink(request, reply, page.meta.next_cursor);
      return { services: page.items, meta: page.meta };
    });

    app.post('/api/admin/hailing/services', { schema: { tags, operationId: 'createService', summary: 'Create a tour service', body: ServiceCreateBody, response: { 201: ServiceResponse } } }, async (request, reply) =>
      reply.status(201).send({ service: await createService(deps, actorOf(request), request.body.service) }),
    );

    app.get('/api/admin/hailing/services/:id', { schema: { tags, operationId: 'getService', summary: 'Show a tour service', params: IdParams, response: { 200: ServiceResponse } } }, async (request) => ({
      service: await showService(deps, actorOf(request), request.params.id),
    }));

    app.put(
      '/api/admin/hailing/services/:id',
      { schema: { tags, operationId: 'updateService', summary: 'Update a tour service (only the given fields)', params: IdParams, body: ServiceUpdateBody, response: { 200: ServiceResponse } } },
      async (request) => ({ service: await updateService(deps, actorOf(request), request.params.id, request.body.service) }),
    );

    // Every scheduling config carries the deprecated gradual_rollout_frequency_seconds, so every answer is marked.
    const deprecatedField = (request: FastifyRequest, reply: FastifyReply): boolean => {
      const served = stillServed(deps, actorOf(request), 'gradual_rollout_frequency_seconds');
      if (served) markDeprecated(reply, 'gradual_rollout_frequency_seconds');
      return served;
    };

    app.get(
      '/api/admin/hailing/scheduling_configs',
      { schema: { tags, operationId: 'listSchedulingConfigs', summary: 'List scheduling configs', querystring: ListQuery, response: { 200: SchedulingConfigList } } },
      async (request, reply) => {
        const page = await listSchedulingConfigs(deps, actorOf(request), request.query, deprecatedField(request, reply));
        setNextLink(request, reply, page.meta.next_cursor);
        return { scheduling_configs: page.items, meta: page.meta };
      },
    );

    app.post(
      '/api/admin/hailing/scheduling_configs',
      { schema: { tags, operationId: 'createSchedulingConfig', summary: 'Create a scheduling config', body: SchedulingConfigCreateBody, response: { 201: SchedulingConfigResponse } } },
      async (request, reply) =>
        reply.status(201).send({
          scheduling_config: await createSchedulingConfig(deps, actorOf(request), request.body.scheduling_config, deprecatedField(request, reply)),
        }),
    );

    app.get(
      '/api/admin/hailing/scheduling_configs/:id',
      { schema: { tags, operationId: 'getSchedulingConfig', summary: 'Show a scheduling config', params: IdParams, response: { 200: SchedulingConfigResponse } } },
      async (request, reply) => ({
        scheduling_config: await showSchedulingConfig(deps, actorOf(request), request.params.id, deprecatedField(request, reply)),
      }),
    );

    app.put(
      '/api/admin/hailing/scheduling_configs/:id',
      {
        schema: {
          tags,
          operationId: 'updateSchedulingConfig', summary: 'Update a scheduling config (only the given fields)',
          params: IdParams,
          body: SchedulingConfigUpdateBody,
          response: { 200: SchedulingConfigResponse },
        },
      },
      async (request, reply) => ({
        scheduling_config: await updateSchedulingConfig(deps, actorOf(request), request.params.id, request.body.scheduling_config, deprecatedField(request, reply)),
      }),
    );
  };
