// Closing: the answers still written after a stop began say `Connection: close`, so a kept-alive client opens its
// next connection elsewhere (another API process behind the balancer) instead of on a socket about to go (decision 1402).
import type { FastifyInstance } from 'fastify';

export function registerClosingConnections(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) void reply.header('connection', 'close');
    return payload;
  });
}
