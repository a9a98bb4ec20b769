// The SMS gateways' callbacks (docs/api-guide.md "Recipient messages"; decisions 1762, 1782, 1783), public routes:
// Kannel's dlr-url and sms-service URL and the SMPP bridge's receipts and replies, authenticated by SMS_CALLBACK_SECRET
// in the URL; Twilio's status callback and messaging webhook, authenticated by their X-Twilio-Signature. Kannel fetches
// a dlr-url with GET; the contract's POST is taken as well, for both.
import type { FastifyPluginAsyncTypebox, TSchema } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { checkCallbackSecret, checkTwilioSignature, receiveKannelStatus, receiveSmppStatus, receiveSmsReply, receiveTwilioStatus } from './messages.ts';
import { KannelInboundQuery, KannelStatusQuery, SmppCallbackQuery, SmppInboundBody, SmppStatusBody, TwilioInboundBody, TwilioStatusBody } from './schemas.ts';

const tags = ['tracking'];

/** What Twilio expects from a messaging webhook: TwiML; an empty Response sends nothing back to the phone. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

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
    // Twilio's form is parsed after its signature is checked (twilioRoute).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_request, body, done) => done(null, body));
    const route = callbackRoute(app, deps);
    route({ url: '/api/sms/kannel/status', operationId: 'kannelStatus', summary: "Kannel's delivery receipt for an SMS (its dlr-url)", querystring: KannelStatusQuery, receive: (query) => receiveKannelStatus(deps, query) });
    route({ url: '/api/sms/kannel/inbound', operationId: 'kannelInbound', summary: 'A reply to an SMS through Kannel (its sms-service URL): STOP, STOPP or ABMELDEN opts the number out', querystring: KannelInboundQuery, receive: (query) => receiveSmsReply(deps, query) });

    const twilio = twilioRoute(app, deps);
    twilio({
      url: '/api/sms/twilio/status',
      operationId: 'twilioStatus',
      summary: "Twilio's status callback for an SMS (its StatusCallback), signed with X-Twilio-Signature",
      body: TwilioStatusBody,
      response: { 204: { type: 'null' } },
      handle: async (body, reply) => {
        await receiveTwilioStatus(deps, body);
        return reply.status(204).send();
      },
    });
    twilio({
      url: '/api/sms/twilio/inbound',
      operationId: 'twilioInbound',
      summary: "A reply to an SMS through Twilio (the number's messaging webhook), signed with X-Twilio-Signature: STOP, STOPP or ABMELDEN opts the number out",
      body: TwilioInboundBody,
      response: { 200: { description: 'An empty TwiML response: nothing is sent back to the phone.', content: { 'text/xml': { schema: Type.String() } } } },
      handle: async (body, reply) => {
        await receiveSmsReply(deps, { from: body.From, text: body.Body });
        return reply.status(200).type('text/xml; charset=utf-8').send(EMPTY_TWIML);
      },
    });

    // The SMPP session (in the worker) hands each deliver_sm's receipt or reply here (decision 1783).
    const smppSecret = async (request: FastifyRequest) => checkCallbackSecret(deps.config, (request.query as { secret?: string } | undefined)?.secret, 'smpp');
    app.post(
      '/api/sms/smpp/status',
      {
        config: { auth: 'public' },
        onRequest: smppSecret,
        schema: { tags, operationId: 'smppStatus', summary: "An SMSC's delivery receipt, as our SMPP session read it (the SMPP bridge)", querystring: SmppCallbackQuery, body: SmppStatusBody, response: { 204: { type: 'null' } } },
      },
      async (request, reply) => {
        await receiveSmppStatus(deps, request.body);
        return reply.status(204).send();
      },
    );
    app.post(
      '/api/sms/smpp/inbound',
      {
        config: { auth: 'public' },
        onRequest: smppSecret,
        schema: { tags, operationId: 'smppInbound', summary: 'A reply to an SMS through the SMSC, as our SMPP session read it (the SMPP bridge): STOP, STOPP or ABMELDEN opts the number out', querystring: SmppCallbackQuery, body: SmppInboundBody, response: { 204: { type: 'null' } } },
      },
      async (request, reply) => {
        await receiveSmsReply(deps, request.body);
        return reply.status(204).send();
      },
    );
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

interface TwilioCallback<B extends TSchema> {
  url: string;
  operationId: string;
  summary: string;
  body: B;
  response: Record<number, unknown>;
  handle: (body: Static<B>, reply: FastifyReply) => Promise<unknown>;
}

/**
 * A Twilio callback: a form POST whose X-Twilio-Signature is checked against the raw form before it is validated, so a
 * caller without the Auth Token gets 403 whatever it sends; then the form is the body the schema checks.
 */
function twilioRoute(app: FastifyInstance, deps: Deps) {
  return <B extends TSchema>(callback: TwilioCallback<B>): void => {
    app.route({
      method: 'POST',
      url: callback.url,
      config: { auth: 'public' },
      preValidation: async (request) => {
        const params = typeof request.body === 'string' ? [...new URLSearchParams(request.body)] : [];
        const signature = request.headers['x-twilio-signature'];
        checkTwilioSignature(deps.config, request.url, params, typeof signature === 'string' ? signature : undefined);
        request.body = Object.fromEntries(params);
      },
      schema: { tags, operationId: callback.operationId, summary: callback.summary, consumes: ['application/x-www-form-urlencoded'], headers: Type.Object({ 'x-twilio-signature': Type.Optional(Type.String()) }), body: callback.body, response: callback.response },
      handler: async (request, reply) => callback.handle(request.body as Static<B>, reply),
    });
  };
}
