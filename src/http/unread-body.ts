// Answers sent before their request body was read: the rest is drained (bounded) so the answer arrives and the
// connection can carry the next request (decisions 0115, 1624).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Past the route's own limit, the rest of a refused body is still read and thrown away up to this many bytes
 * (decision 1624): closing under a client still sending made its kernel answer the client's next bytes with a reset,
 * and the client lost the 413 it had not read yet (a 2 MiB DELETE, issue 35).
 */
export const DRAIN_FLOOR_BYTES = 16 * 1024 * 1024;

/**
 * A route that streams its body (the multipart report upload) can refuse it after reading a part of it: 403, 404,
 * a bad grant, a file over the limit; a body over the limit is refused before a byte is read (413). The reader stops
 * there and the socket stays paused under the unread rest, so the next request on a kept-alive connection waited for
 * a socket timeout and a client still sending never got its answer. The rest is read and thrown away, up to the
 * route's own body limit or DRAIN_FLOOR_BYTES, whichever is larger, and the connection carries the next request; a
 * body found larger while draining has its connection destroyed then, long after its answer went out (decisions
 * 0115, 1624). Time is bounded by Node's requestTimeout, as for any upload.
 */
function drain(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  // Fastify answers a body declared over the limit with `Connection: close` (its content-type parser): Node would then
  // end the socket under the client still sending, the very loss this avoids. Registered before the closing hook
  // (src/http/shutdown.ts), so a stopping process still says close.
  if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
  const limit = Math.max(request.routeOptions.bodyLimit ?? 0, DRAIN_FLOOR_BYTES);
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
    if (!request.raw.complete && !request.raw.destroyed) drain(request, reply);
    return payload;
  });
}
