// Prometheus metrics (prom-client): requests and their latency by route and status, outbox lag, jobs due, deliveries.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Deps } from '../deps.ts';
import { queryRows } from '../db/sql.ts';
import { isInternalRequest } from './etag.ts';

/** Process-wide metrics other modules increment (one registry per process, like the process itself). */
const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'tourbook_' });

const deliveries = new Counter({
  name: 'tourbook_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (succeeded, failed, exhausted).',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

/** The hook for the webhook worker: count one delivery attempt's outcome. */
export function recordDeliveryOutcome(outcome: 'succeeded' | 'failed' | 'exhausted'): void {
  deliveries.inc({ outcome });
}

const routingFallbacks = new Counter({
  name: 'tourbook_routing_fallbacks_total',
  help: 'Routing requests answered by the straight-line fallback because the provider failed (timeout, error, bad_response).',
  labelNames: ['provider', 'reason'] as const,
  registers: [processRegistry],
});

/** The hook for the routing providers: count one fallback to straight-line routing. */
export function recordRoutingFallback(provider: string, reason: string): void {
  routingFallbacks.inc({ provider, reason });
}

/** Route label: the route pattern, never the raw URL (ids would explode the series count). */
const routeLabel = (url: string | undefined): string => url ?? 'unmatched';

/** Per-app metrics: the request series and the database gauges read at scrape time. */
export function registerMetrics(app: FastifyInstance, deps: Deps): { scrape(): Promise<{ contentType: string; body: string }> } {
  const registry = new Registry();
  // The histogram's _count series is the request count: one observation per request, no separate counter.
  const latency = new Histogram({
    name: 'tourbook_http_request_duration_seconds',
    help: 'HTTP requests and their latency by method, route and status (_count = requests).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'tourbook_outbox_lag_seconds',
    help: 'Age of the oldest event not yet dispatched by the worker (0 when none is waiting).',
    registers: [registry],
    async collect() {
      const [row] = await queryRows<{ oldest: Date | string | null }>(
        deps.db,
        sql`SELECT min(occurred_at) AS oldest FROM events WHERE dispatched_at IS NULL`,
      );
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : null;
      this.set(oldest === null ? 0 : Math.max(0, (deps.clock.now().getTime() - oldest) / 1000));
    },
  });
  new Gauge({
    name: 'tourbook_jobs_due',
    help: 'Jobs whose due time has passed and that no worker has finished.',
    registers: [registry],
    async collect() {
      const [row] = await queryRows<{ n: number }>(
        deps.db,
        sql`SELECT count(*)::int AS n FROM jobs WHERE status IN ('pending', 'running') AND due_at <= ${deps.clock.now()}`,
      );
      this.set(row?.n ?? 0);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    if (isInternalRequest(request)) return;
    const labels = { method: request.method, route: routeLabel(request.routeOptions.url), status: String(reply.statusCode) };
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  return {
    async scrape() {
      const body = (await registry.metrics()) + (await processRegistry.metrics());
      return { contentType: registry.contentType, body };
    },
  };
}

/** The process-wide series alone (webhook deliveries, routing fallbacks, the process): what a worker process has. */
export async function scrapeProcessMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: processRegistry.contentType, body: await processRegistry.metrics() };
}
