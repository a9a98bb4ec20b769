// Webhook routes (admin): subscriptions, secret rotation, the delivery log, redelivery, recovery, test pings.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf } from '../../http/actor.ts';
import type { Deps } from '../../deps.ts';
import { setNextLink } from '../../http/pagination.ts';
import { bodyOptional, EmptyBody } from '../../http/schemas.ts';
import * as ops from './operations.ts';
import {
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  DeliveryResponse,
  ListQuery,
  RecoverBody,
  RecoveryResponse,
  WebhookCreateBody,
  WebhookList,
  WebhookParams,
  WebhookResponse,
  WebhookSecretResponse,
  WebhookUpdateBody,
} from './schemas.ts';

const tags = ['webhooks'];

export const webhookRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/api/admin/webhooks',
      { schema: { tags, operationId: 'listWebhooks', summary: 'List webhook subscriptions', querystring: ListQuery, response: { 200: WebhookList } } },
      async (request, reply) => {
        const result = await ops.listWebhooks(deps, actorOf(request), request.query);
        setNextLink(request, reply, result.meta.next_cursor);
        return result;
      },
    );

    app.post(
      '/api/admin/webhooks',
      { schema: { tags, operationId: 'createWebhook', summary: 'Create a webhook subscription (its secret is shown once)', body: WebhookCreateBody, response: { 201: WebhookSecretResponse } } },
      async (request, reply) => reply.status(201).send({ webhook: await ops.createWebhook(deps, actorOf(request), request.body.webhook) }),
    );

    app.get(
      '/api/admin/webhooks/:id',
      { schema: { tags, operationId: 'getWebhook', summary: 'Show a webhook subscription', params: WebhookParams, response: { 200: WebhookResponse } } },
      async (request) => ({ webhook: await ops.getWebhook(deps, actorOf(request), request.params.id) }),
    );

    app.patch(
      '/api/admin/webhooks/:id',
      { schema: { tags, operationId: 'updateWebhook', summary: 'Change a webhook subscription', params: WebhookParams, body: WebhookUpdateBody, response: { 200: WebhookResponse } } },
      async (request) => ({ webhook: await ops.updateWebhook(deps, actorOf(request), request.params.id, request.body.webhook) }),
    );

    app.delete(
      '/api/admin/webhooks/:id',
      { schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook subscription and its delivery log', params: WebhookParams, response: { 204: Type.Null() } } },
      async (request, reply) => {
        await ops.deleteWebhook(deps, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/admin/webhooks/:id/rotate_secret',
      { schema: { tags, operationId: 'rotateWebhookSecret', summary: 'Rotate the signing secret (the old one signs alongside for 24 h)', params: WebhookParams, body: EmptyBody, response: { 200: WebhookSecretResponse } }, preValidation: bodyOptional },
      async (request) => ({ webhook: await ops.rotateWebhookSecret(deps, actorOf(request), request.params.id) }),
    );

    app.get(
      '/api/admin/webhooks/:id/deliveries',
      { schema: { tags, operationId: 'listWebhookDeliveries', summary: 'The delivery log with every attempt', params: WebhookParams, querystring: DeliveryListQuery, response: { 200: DeliveryList } } },
      async (request, reply) => {
        const result = await ops.listDeliveries(deps, actorOf(request), request.params.id, request.query);
        setNextLink(request, reply, result.meta.next_cursor);
        return result;
      },
    );

    app.post(
      '/api/admin/webhooks/:id/deliveries/:delivery_id/redeliver',
      { schema: { tags, operationId: 'redeliverWebhookDelivery', summary: 'Send a delivery again now', params: DeliveryParams, body: EmptyBody, response: { 202: DeliveryResponse } }, preValidation: bodyOptional },
      async (request, reply) =>
        reply.status(202).send({ delivery: await ops.redeliver(deps, actorOf(request), request.params.id, request.params.delivery_id) }),
    );

    app.post(
      '/api/admin/webhooks/:id/recover',
      { schema: { tags, operationId: 'recoverWebhookDeliveries', summary: 'Re-queue every failed or exhausted delivery since a time', params: WebhookParams, body: RecoverBody, response: { 202: RecoveryResponse } } },
      async (request, reply) =>
        reply.status(202).send({ recovery: await ops.recoverDeliveries(deps, actorOf(request), request.params.id, request.body.since) }),
    );

    app.post(
      '/api/admin/webhooks/:id/test',
      { schema: { tags, operationId: 'testWebhook', summary: 'Send a webhook.test event to this subscription only', params: WebhookParams, body: EmptyBody, response: { 202: DeliveryResponse } }, preValidation: bodyOptional },
      async (request, reply) => reply.status(202).send({ delivery: await ops.sendTestEvent(deps, actorOf(request), request.params.id) }),
    );
  };
