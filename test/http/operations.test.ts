import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/events/outbox.ts';
import { recordDeliveryOutcome } from '../../src/http/metrics.ts';
import { buildTestApp, type TestApp } from '../app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

/** `name{labels} value` lines of the Prometheus text format. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').pop());
  }
  return null;
}

describe('health', () => {
  it('answers /healthz without a credential', async () => {
    const res = await t.anonymous.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('is ready when the database answers and every shipped migration is applied', async () => {
    const res = await t.anonymous.get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ready', checks: { database: { ok: true }, migrations: { ok: true } } });
  });

  it('is not ready (503) while a shipped migration is not applied', async () => {
    // Hide the latest applied migration from the check for a moment (cheaper than migrating a second database).
    const hide = sql`UPDATE drizzle.__drizzle_migrations SET created_at = -created_at
                      WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`;
    const restore = sql`UPDATE drizzle.__drizzle_migrations SET created_at = -created_at WHERE created_at < 0`;
    await t.deps.db.execute(hide);
    try {
      const res = await t.anonymous.get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'not_ready', checks: { database: { ok: true }, migrations: { ok: false } } });
      expect(res.body.checks.migrations.detail).toMatch(/1 of \d+ migrations not applied/);
    } finally {
      await t.deps.db.execute(restore);
    }
    expect((await t.anonymous.get('/readyz')).status).toBe(200);
  });
});

describe('GET /metrics', () => {
  it('exposes request counts and latency by route and status, outbox lag, jobs due and delivery outcomes', async () => {
    const tenant = await t.createTenant();
    await tenant.admin.get('/api/user');
    await t.anonymous.get('/api/user');
    await t.deps.db.transaction((tx) =>
      recordEvent(tx, { tenantId: tenant.tenantId, actor: 'system', type: 'tour.created', resourceId: null, data: {}, at: t.clock.now() }),
    );
    t.clock.advanceSeconds(90);
    recordDeliveryOutcome('succeeded');

    const res = await t.anonymous.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(sample(res.text, 'tourbook_http_request_duration_seconds_count', { route: '/api/user', status: '200', method: 'GET' })).toBe(1);
    expect(sample(res.text, 'tourbook_http_request_duration_seconds_count', { route: '/api/user', status: '401' })).toBe(1);
    expect(sample(res.text, 'tourbook_http_request_duration_seconds_bucket', { route: '/api/user', status: '200', le: '+Inf' })).toBe(1);
    expect(sample(res.text, 'tourbook_outbox_lag_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(res.text, 'tourbook_jobs_due')).toBe(0);
    expect(sample(res.text, 'tourbook_webhook_deliveries_total', { outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
  });
});

describe('OpenAPI', () => {
  it('is an OpenAPI 3.1 document listing every registered /api route with its method', async () => {
    const res = await t.anonymous.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const registered = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/') && !route.hidden && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(registered.length).toBeGreaterThan(3);
    expect(registered.filter((route) => !documented.has(route))).toEqual([]);
  });

  it('serves the API reference page at /docs', async () => {
    const res = await t.anonymous.get('/docs/');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<html/i);
  });
});
