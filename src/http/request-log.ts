// One log line per request at `info`: method, route, status, duration, request id (decision 0132).
import type { FastifyInstance } from 'fastify';

/** Probes and scrapes arrive every few seconds and say nothing new: they log at `debug`. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern (ids left out) groups lines; a request that matched no route logs its path.
    const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const ms = Math.round(reply.elapsedTime * 10) / 10;
    const line = { method: request.method, route, status: reply.statusCode, ms, request_id: request.id };
    const message = `${request.method} ${route} ${reply.statusCode} ${ms} ms (request ${request.id})`;
    if (PROBES.has(route)) request.log.debug(line, message);
    else request.log.info(line, message);
  });
}
