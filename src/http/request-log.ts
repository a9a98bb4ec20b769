// One log line per request at `info`: method, route, status, duration, request id (decision 0132).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** Probes and scrapes arrive every few seconds and say nothing new: they log at `debug`. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export function registerRequestLog(app: FastifyInstance): void {
  // A callback hook, not an async one, and nothing built when the level is off: it runs on every request.
  app.addHook('onResponse', (request, reply, done) => {
    // The route pattern (ids left out) groups lines; a request that matched no route logs its path.
    const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const level = PROBES.has(route) ? 'debug' : 'info';
    // Every logger Tourbook gives Fastify is pino's (runtime.ts, the test app); Fastify's type omits isLevelEnabled.
    if ((request.log as unknown as Logger).isLevelEnabled(level)) {
      const ms = Math.round(reply.elapsedTime * 10) / 10;
      const line = { method: request.method, route, status: reply.statusCode, ms, request_id: request.id };
      request.log[level](line, `${request.method} ${route} ${reply.statusCode} ${ms} ms (request ${request.id})`);
    }
    done();
  });
}
