// Answers sent before their request body was read: the rest is drained (bounded) so the connection can carry the next
// request, or the connection is closed (decision 0115).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A route that streams its body (the multipart report upload) can refuse it after reading a part of it: 403, 404,
 * a bad grant, a file over the limit. The reader (busboy) stops there and the socket stays paused under the unread
 * rest, so the next request on a kept-alive connection waited for a socket timeout and a client still sending
 * never got its answer. The rest is read and thrown away, up to the route's own body limit — no more than the route
 * would have accepted; a body declared larger, or found larger, closes the connection instead.
 */
function drainOrClose(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const declared = Number(raw.headers['content-length'] ?? Number.NaN);
  if (declared > limit) {
    // Node closes the connection after this response; the client learns not to send the next request on it.
    reply.header('connection', 'close');
    raw.unpipe();
    return;
  }
  let seen = 0;
  raw.unpipe();
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit) raw.socket?.destroy();
  });
  raw.resume();
}

/** Registered on the root: every route's answers pass here, early refusals of streamed bodies included. */
export function registerUnreadBodies(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete && !request.raw.destroyed) drainOrClose(request, reply);
    return payload;
  });
}
