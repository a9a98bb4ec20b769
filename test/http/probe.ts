// A second app on a test's database with probe routes that no product route offers: a write that waits on a gate,
// a write that fails with a 500, a counter, a deprecated route. Probing the conventions, not the product.
import type { FastifyReply } from 'fastify';
import { buildApp, type App } from '../../src/app.ts';
import { deprecatedRoute } from '../../src/compat/http.ts';
import type { TestApp } from '../app.ts';

export interface Probe {
  app: App;
  /** How many times a probe write handler actually ran. */
  runs: number;
  /** Lets the pending /api/probe/slow request finish. */
  release(): void;
  /** Resolves once a /api/probe/slow request is inside its handler (holding its idempotency key). */
  slowEntered(): Promise<void>;
  request(method: string, url: string, token: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown> }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON
}

export async function buildProbe(t: TestApp): Promise<Probe> {
  const app = await buildApp(t.deps);
  let open: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (open = resolve));
  let entered: () => void = () => undefined;
  let inside = new Promise<void>((resolve) => (entered = resolve));
  const probe: Probe = {
    app,
    runs: 0,
    release: () => open(),
    slowEntered: () => inside,
    async request(method, url, token, body, headers = {}) {
      const res = await app.inject({
        method: method as 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      const json = /json/.test(String(res.headers['content-type'] ?? '')) && res.body ? JSON.parse(res.body) : undefined;
      return { status: res.statusCode, body: json, headers: res.headers };
    },
  };
  // Probe writes take any JSON object (routes without a body schema refuse a body, issue 11).
  const anyBody = { type: 'object' };
  const created = (reply: FastifyReply) => {
    probe.runs += 1;
    return reply.status(201).header('location', `/api/probe/${probe.runs}`).send({ run: probe.runs });
  };
  app.post('/api/probe/echo', { schema: { hide: true, body: anyBody } }, async (_request, reply) => created(reply));
  // A route that declares its own, larger body limit, the way the report upload will.
  app.post('/api/probe/upload', { schema: { hide: true, body: anyBody }, bodyLimit: 4 * 1024 * 1024 }, async (_request, reply) => created(reply));
  app.post('/api/probe/slow', { schema: { hide: true, body: anyBody } }, async (_request, reply) => {
    entered();
    await gate;
    inside = new Promise<void>((resolve) => (entered = resolve));
    gate = new Promise<void>((resolve) => (open = resolve));
    return created(reply);
  });
  app.post('/api/probe/fail', { schema: { hide: true } }, async () => {
    probe.runs += 1;
    throw new Error('probe failure with internals');
  });
  app.get(
    '/api/probe/deprecated',
    { schema: { hide: true }, preHandler: deprecatedRoute(t.deps, 'hailing_failure_reasons') },
    async () => ({ ok: true }),
  );
  await app.ready();
  return probe;
}
