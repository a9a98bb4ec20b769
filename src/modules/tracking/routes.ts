// Public tracking routes (docs/tracking.md): no credential, open to every origin for GET (a shop embeds the read),
// never cached, limited per client address. The recipient templates' admin routes are registered alongside.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { pickLang } from '../../http/i18n.ts';
import { addressRateLimit } from './rate-limit.ts';
import { giveFeedback, readTracking, readTrackingProofPhoto } from './operations.ts';
import { proofImageHeaders } from '../dispatch/index.ts';
import { openTrackingStream } from './stream.ts';
import { listBookingMessages } from './messages.ts';
import { recipientOptionsRoutes } from './recipient-options-routes.ts';
import { senderRoutes } from './sender-routes.ts';
import { smsRoutes } from './sms-routes.ts';
import { templateRoutes } from './template-routes.ts';
import { unsubscribeRoutes } from './unsubscribe-routes.ts';
import { IdParams } from '../../http/schemas.ts';
import { actorOf } from '../../http/actor.ts';
import { FeedbackBody, ProofPhotoParams, RecipientMessageList, TokenParams, TrackingEnvelope } from './schemas.ts';

const tags = ['tracking'];

/** Every answer, errors too: no cache keeps a recipient's whereabouts, and any origin may read it (docs/tracking.md). */
const publicHeaders = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  reply.header('cache-control', 'no-store');
  reply.header('access-control-allow-origin', '*');
  reply.header('x-robots-tag', 'noindex');
};

const noStore = async (_request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  reply.header('cache-control', 'no-store');
};

export const trackingRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const limited = addressRateLimit(deps);
    // The recipient e-mails' one-click unsubscribe, in a scope of its own for its form-body parser (decision 1104).
    await app.register(unsubscribeRoutes(deps));
    // The admin's recipient templates (decision 1109): authenticated, unlike everything else here.
    await app.register(templateRoutes(deps));
    // The admin's sender identity and its logo, which the tracking page shows through the token (decision 1784).
    await app.register(senderRoutes(deps));
    // The recipient's options through the token: instructions for the driver, a later day (decision 1788).
    await app.register(recipientOptionsRoutes(deps));
    // The SMS gateway's receipts and replies (decision 1762), in a scope of their own for their form-body parser.
    await app.register(smsRoutes(deps));
    app.get(
      '/api/hailing/bookings/:id/messages',
      { schema: { tags, operationId: 'listBookingMessages', summary: "Every e-mail and SMS told to the booking's recipients, with its delivery state", params: IdParams, response: { 200: RecipientMessageList } } },
      async (request) => ({ messages: await listBookingMessages(deps, actorOf(request), request.params.id) }),
    );
    app.get(
      '/api/tracking/:token',
      {
        config: { auth: 'public' },
        onRequest: [publicHeaders, limited],
        schema: { tags, operationId: 'getTracking', summary: "A booking's tracking for its recipient (no authentication; the link's token)", params: TokenParams, response: { 200: TrackingEnvelope } },
      },
      async (request) => ({ tracking: await readTracking(deps, request.params.token, pickLang(request.headers['accept-language'])) }),
    );
    app.get(
      '/api/tracking/:token/live',
      {
        config: { auth: 'public' },
        onRequest: [publicHeaders, limited],
        schema: {
          tags,
          operationId: 'streamTracking',
          summary: 'The tracking object again on every change (text/event-stream, `event: tracking`)',
          params: TokenParams,
        },
      },
      async (request, reply) => openTrackingStream(deps, request.params.token, pickLang(request.headers['accept-language']), request, reply),
    );
    app.get(
      '/api/tracking/:token/stops/:index/proof/photo',
      {
        config: { auth: 'public' },
        onRequest: [publicHeaders, limited],
        schema: {
          tags,
          operationId: 'getTrackingProofPhoto',
          summary: "The proof photo of one of the recipient's completed stops (by its index in `stops`)",
          params: ProofPhotoParams,
          produces: ['image/jpeg', 'image/png', 'image/webp'],
          response: { 200: Type.Unsafe({ description: 'The photo, `Cache-Control: private, no-store`' }) },
        },
      },
      async (request, reply) => {
        const image = await readTrackingProofPhoto(deps, request.params.token, Number(request.params.index));
        return reply.headers(proofImageHeaders(image)).send(image.bytes);
      },
    );
    // The tracking page posts from its own origin; no CORS for writes (docs/tracking.md).
    app.post(
      '/api/tracking/:token/feedback',
      {
        config: { auth: 'public' },
        onRequest: [noStore, limited],
        schema: { tags, operationId: 'giveTrackingFeedback', summary: 'The recipient rates the delivery, once, after the last drop-off', params: TokenParams, body: FeedbackBody, response: { 200: TrackingEnvelope } },
      },
      async (request) => ({ tracking: await giveFeedback(deps, request.params.token, request.body.feedback, pickLang(request.headers['accept-language'])) }),
    );
  };
