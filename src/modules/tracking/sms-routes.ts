// The SMS gateway's callbacks (docs/api-guide.md "Recipient messages", decision 1762): Kannel's dlr-url and its
// sms-service URL for replies, public routes authenticated by SMS_CALLBACK_SECRET in the URL. Kannel fetches a dlr-url
// with GET; the contract's POST is taken as well, for both.
import type { FastifyPluginAsyncTypebox, TSchema } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { checkCallbackSecret, receiveKannelInbound, receiveKannelStatus } from './messages.ts';
import { KannelInboundQuery, KannelStatusQuery } from './schemas.ts';

const tags = ['tracking'];

interface Callback<Q extends TSchema> {
  url: string;
  /** The GET route's operation id is this with `Get` after it. */
  operationId: string;
  summary: string;
  querystring: Q;
  receive: (query: Static<Q>) => Promise<unknown>;
}

export const smsRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    // Kannel's post-url sends the reply's text as the body (text/plain, or a form); the query carries what we read.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => done(null, body));
    const route = callbackRoute(app, deps);
    route({ url: '/api/sms/kannel/status', operationId: 'kannelStatus', summary: "Kannel's delivery receipt for an SMS (its dlr-url)", querystring: KannelStatusQuery, receive: (query) => receiveKannelStatus(deps, query) });
    route({ url: '/api/sms/kannel/inbound', operationId: 'kannelInbound', summary: 'A reply to an SMS through Kannel (its sms-service URL): STOP, STOPP or ABMELDEN opts the number out', querystring: KannelInboundQuery, receive: (query) => receiveKannelInbound(deps, query) });
  };

/** One callback as a public GET and POST: the secret checked first (a caller without it learns nothing), 204 after. */
function callbackRoute(app: FastifyInstance, deps: Deps) {
  const secret = async (request: FastifyRequest) => checkCallbackSecret(deps.config, (request.query as { secret?: string } | undefined)?.secret);
  return <Q extends TSchema>(callback: Callback<Q>): void => {
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: callback.url,
        config: { auth: 'public' },
        onRequest: secret,
        schema: { tags, operationId: `${callback.operationId}${method === 'GET' ? 'Get' : ''}`, summary: callback.summary, querystring: callback.querystring, response: { 204: { type: 'null' } } },
        handler: async (request, reply) => {
          await callback.receive(request.query as Static<Q>);
          return reply.status(204).send();
        },
      });
    }
  };
}
