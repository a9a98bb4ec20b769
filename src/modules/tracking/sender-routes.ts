// The sender identity's routes (docs/tracking.md "Sender", decision 1784): the admin's GET/PATCH /api/admin/sender and
// its logo, and the logo behind a tracking token for the recipient's page and e-mails.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Deps } from '../../deps.ts';
import { actorOf } from '../../http/actor.ts';
import { IMAGE_TYPES } from '../../shared/image-type.ts';
import { addressRateLimit } from './rate-limit.ts';
import { TokenParams } from './schemas.ts';
import { deleteSenderLogo, getSender, putSenderLogo, readSenderLogo, readTrackingLogo, updateSender } from './sender.ts';
import { LogoBody, SenderBody, SenderEnvelope } from './sender-schemas.ts';

const tags = ['tracking'];
const LogoQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) });
const LOGO_RESPONSE = { produces: [...IMAGE_TYPES], response: { 200: Type.Unsafe({ description: 'The logo (JPEG, PNG or WebP)' }) } };

/**
 * A logo's address carries its hash (`?v=`): asked for by the current one, it never changes and may be kept a year; by
 * any other, it is revalidated each time.
 */
function sendLogo(reply: FastifyReply, logo: { bytes: Uint8Array; contentType: string; sha256: string }, v: string | undefined, scope: 'public' | 'private') {
  const current = v !== undefined && v.length >= 12 && logo.sha256.startsWith(v);
  return reply
    .header('content-type', logo.contentType)
    .header('cache-control', current ? `${scope}, max-age=31536000, immutable` : `${scope}, no-cache`)
    .header('etag', `"${logo.sha256}"`)
    .send(Buffer.from(logo.bytes));
}

export const senderRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const limited = addressRateLimit(deps);
    app.get(
      '/api/admin/sender',
      { schema: { tags, operationId: 'getSender', summary: "Who the tenant's recipients are told by: name, colour, logo, e-mail From and Reply-To, SMS sender id", response: { 200: SenderEnvelope } } },
      async (request) => ({ sender: await getSender(deps, actorOf(request)) }),
    );
    app.patch(
      '/api/admin/sender',
      { schema: { tags, operationId: 'updateSender', summary: 'Change the sender identity (the fields given; null clears one)', body: SenderBody, response: { 200: SenderEnvelope } } },
      async (request) => ({ sender: await updateSender(deps, actorOf(request), request.body.sender) }),
    );
    app.get(
      '/api/admin/sender/logo',
      { schema: { tags, operationId: 'getSenderLogo', summary: "The sender's logo", querystring: LogoQuery, ...LOGO_RESPONSE } },
      async (request, reply) => sendLogo(reply, await readSenderLogo(deps, actorOf(request)), request.query.v, 'private'),
    );
    app.put(
      '/api/admin/sender/logo',
      { bodyLimit: 512 * 1024, schema: { tags, operationId: 'putSenderLogo', summary: 'Set the logo: a JPEG, PNG or WebP of at most 256 KiB, as base64', body: LogoBody, response: { 200: SenderEnvelope } } },
      async (request) => ({ sender: await putSenderLogo(deps, actorOf(request), request.body.logo.image) }),
    );
    app.delete(
      '/api/admin/sender/logo',
      { schema: { tags, operationId: 'deleteSenderLogo', summary: 'Remove the logo', response: { 200: SenderEnvelope } } },
      async (request) => ({ sender: await deleteSenderLogo(deps, actorOf(request)) }),
    );
    app.get(
      '/api/tracking/:token/logo',
      {
        config: { auth: 'public' },
        onRequest: [limited],
        schema: { tags, operationId: 'getTrackingSenderLogo', summary: "The sender's logo on a booking's tracking page (the link's token)", params: TokenParams, querystring: LogoQuery, ...LOGO_RESPONSE },
      },
      async (request, reply) => sendLogo(reply, await readTrackingLogo(deps, request.params.token), request.query.v, 'public'),
    );
  };
