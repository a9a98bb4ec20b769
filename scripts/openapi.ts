// Prints the OpenAPI document the service serves at /openapi.json, without a database or a listening port.
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Deps } from '../src/deps.ts';
import { createSolverPool } from '../src/optimizer/index.ts';
import { systemClock } from '../src/shared/clock.ts';

/** The document as the running service builds it (routes only register; nothing touches the database). */
export async function openapiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({}, { logLevel: 'silent' });
  const unused = new Proxy({}, { get: () => { throw new Error('the OpenAPI export touched the database'); } });
  const deps = { db: unused, database: unused, clock: systemClock, config, log: pino({ level: 'silent' }), optimizer: createSolverPool(1) } as unknown as Deps;
  const app = await buildApp(deps);
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await openapiDocument(), null, 2)}\n`);
}
