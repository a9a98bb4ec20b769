// The SMS gateway's callbacks (docs/api-guide.md "Recipient messages", decision 1762): Kannel's dlr-url and its
// sms-service URL for replies, public routes authenticated by SMS_CALLBACK_SECRET in the URL. Kannel fetches a dlr-url
// with GET; the contract's POST is taken as well, for both.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { checkCallbackSecret, receiveKannelInbound, receiveKannelStatus } from './messages.ts';
import { KannelInboundQuery, KannelStatusQuery } from './schemas.ts';

const tags = ['tracking'];

export const smsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Kannel's post-url sends the reply's text as the body (text/plain, or a form); the query carries what we read.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => done(null, body));
    // The secret first: a caller without it learns nothing of the parameters.
    const secret = async (request: FastifyRequest) => checkCallbackSecret(deps.config, (request.query as { secret?: string } | undefined)?.secret);
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: '/api/sms/kannel/status',
        config: { auth: 'public' },
        onRequest: secret,
        schema: { tags, operationId: `kannelStatus${method === 'GET' ? 'Get' : ''}`, summary: "Kannel's delivery receipt for an SMS (its dlr-url)", querystring: KannelStatusQuery, response: { 204: { type: 'null' } } },
        handler: async (request, reply) => {
          await receiveKannelStatus(deps, request.query);
          return reply.status(204).send();
        },
      });
      app.route({
        method,
        url: '/api/sms/kannel/inbound',
        config: { auth: 'public' },
        onRequest: secret,
        schema: { tags, operationId: `kannelInbound${method === 'GET' ? 'Get' : ''}`, summary: 'A reply to an SMS through Kannel (its sms-service URL): STOP, STOPP or ABMELDEN opts the number out', querystring: KannelInboundQuery, response: { 204: { type: 'null' } } },
        handler: async (request, reply) => {
          await receiveKannelInbound(deps, request.query);
          return reply.status(204).send();
        },
      });
    }
  };
