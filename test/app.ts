// buildTestApp: a real app on its own database (PGlite from the template, or a PostgreSQL database), a ManualClock,
// and a small HTTP client that talks to it through fastify.inject as an integrator would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openPglite, openPostgres, type Database } from '../src/db/client.ts';
import { wireHooks, type HookOverrides } from '../src/hooks.ts';
import type { Deps } from '../src/deps.ts';
import { createSolverPool } from '../src/optimizer/index.ts';
import { ManualClock } from '../src/shared/clock.ts';
import { randomBase62 } from '../src/shared/secrets.ts';
import { adminUrl } from './global-setup.ts';

export const OPERATOR_TOKEN = 'test-operator-token';

export interface TestResponse<T = any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  status: number;
  body: T;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Raw payload sent as is (for malformed-body tests). */
  raw?: string | Buffer;
}

export interface Client {
  token: string | null;
  request(method: string, url: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  get(url: string, options?: RequestOptions): Promise<TestResponse>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  put(url: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  patch(url: string, body?: unknown, options?: RequestOptions): Promise<TestResponse>;
  delete(url: string, options?: RequestOptions): Promise<TestResponse>;
}

export interface TestTenant {
  tenantId: string;
  adminUserId: string;
  adminToken: string;
  admin: Client;
}

export interface TestApp {
  app: App;
  deps: Deps;
  clock: ManualClock;
  config: Config;
  client(token: string | null): Client;
  anonymous: Client;
  createTenant(options?: { name?: string; extensions?: string[] }): Promise<TestTenant>;
  close(): Promise<void>;
}

/** The verb helpers over one request function. */
export function clientOf(token: string | null, request: Client['request']): Client {
  return {
    token,
    request,
    get: (url, options) => request('GET', url, undefined, options),
    post: (url, body, options) => request('POST', url, body, options),
    put: (url, body, options) => request('PUT', url, body, options),
    patch: (url, body, options) => request('PATCH', url, body, options),
    delete: (url, options) => request('DELETE', url, undefined, options),
  };
}

let databaseCounter = 0;

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = `tb_t_${inject('runId')}_${process.pid}_${databaseCounter++}_${randomBase62(6).toLowerCase()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Copying a template fails while another session is connected to it; parallel files can collide briefly.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        if (attempt >= 20 || !/being accessed by other users/.test(String(err))) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
    await admin.end();
    const database = openPostgres(adminUrl(url, name), 20);
    return {
      database,
      drop: async () => {
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await dropper.end();
      },
    };
  }
  const dump = fs.readFileSync(inject('pgliteTemplate'));
  const database = await openPglite({ loadDataDir: new Blob([dump]) });
  return { database, drop: async () => undefined };
}

/** `hooks` replaces seams of Deps.hooks (src/hooks.ts), e.g. to observe what dispatch tells other modules. */
export async function buildTestApp(overrides: Partial<Config> = {}, options: { hooks?: HookOverrides } = {}): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tourbook-data-'));
  const config = loadConfig(
    {},
    {
      dataDir,
      operatorToken: OPERATOR_TOKEN,
      webhooksAllowPrivateTargets: true,
      logLevel: process.env.LOG_LEVEL ?? 'silent',
      // Tests send many requests per second from one credential; the rate-limit test sets its own.
      rateLimit: { perSecond: 100_000, burst: 100_000 },
      authFailureLimit: { perSecond: 100_000, burst: 100_000 },
      // The cheapest cost hashParams accepts: tests hash many passwords; credentials.test.ts checks the real default.
      passwordHash: { logN: 10, r: 8, p: 1 },
      ...overrides,
    },
  );
  const clock = new ManualClock();
  const log = pino({ level: config.logLevel });
  const deps: Deps = { db: database.db, database, clock, config, log, hooks: wireHooks(options.hooks), optimizer: createSolverPool(config.optimizerThreads) };
  const app = await buildApp(deps);
  await app.ready();

  const client = (token: string | null): Client => {
    const request = async (method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<TestResponse> => {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (token) headers.authorization ??= `Bearer ${token}`;
      let payload: string | Buffer | undefined;
      if (options.raw !== undefined) payload = options.raw;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await app.inject({ method: method as 'GET', url, headers, ...(payload !== undefined ? { payload } : {}) });
      let parsed: unknown = undefined;
      if (res.body && /json/.test(String(res.headers['content-type'] ?? ''))) parsed = JSON.parse(res.body);
      return { status: res.statusCode, body: parsed, text: res.body, headers: res.headers as TestResponse['headers'] };
    };
    return clientOf(token, request);
  };

  const operator = client(OPERATOR_TOKEN);
  let tenantCounter = 0;

  return {
    app,
    deps,
    clock,
    config,
    client,
    anonymous: client(null),
    async createTenant(options = {}) {
      const res = await operator.post('/api/operator/tenants', {
        tenant: { name: options.name ?? `Tenant ${++tenantCounter}`, extensions: options.extensions ?? [] },
      });
      if (res.status !== 201) throw new Error(`tenant creation failed: ${res.status} ${res.text}`);
      return {
        tenantId: res.body.tenant.id,
        adminUserId: res.body.admin_user_id,
        adminToken: res.body.admin_token,
        admin: client(res.body.admin_token),
      };
    },
    async close() {
      await app.close();
      await deps.optimizer.close();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
