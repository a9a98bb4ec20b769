// The driver app benchmark's server process: the real app (with the built web pages) on a scratch database, and a
// tenant whose admin token the bench uses to set up drivers and tours.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTenant } from '../src/modules/identity/index.ts';
import { createRuntime } from '../src/runtime.ts';
import { reportReady } from './_harness.ts';

export interface DriverBenchInfo {
  url: string;
  token: string;
}

const runtime = await createRuntime(loadConfig(), { migrate: true });
const { admin_token: token } = await createTenant(runtime.deps, { name: 'Bench' });
const app = await buildApp(runtime.deps);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
reportReady({ url, token } satisfies DriverBenchInfo);
