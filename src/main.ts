// The tourbook command: serve | migrate | tenant create | demo — the composition root.
import { parseArgs } from 'node:util';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Role } from './config.ts';
import { countTenants } from './modules/identity/repository.ts';
import { createTenant } from './modules/identity/operations.ts';
import { createRuntime } from './runtime.ts';

const USAGE = `Usage: tourbook <command>

  serve [--role all|api|worker]          start the service (embedded database unless DATABASE_URL is set)
  migrate                                apply database migrations (server deployments)
  tenant create --name N [--extension busyness] [--json]
                                         create a tenant with its first admin and API key
  demo [--url U] [--token T]             load a small demo data set into a running service (default
                                         http://127.0.0.1:3000; token from TOURBOOK_ADMIN_TOKEN or BOOTSTRAP_ADMIN_TOKEN)
  keys rotate --new-key K                re-seal report file keys and webhook secrets under a new master key
`;

async function serve(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { role: { type: 'string' } } });
  const config = loadConfig(process.env, values.role ? { role: values.role as Role } : {});
  if (!['api', 'worker', 'all'].includes(config.role)) throw new ConfigError(`--role must be api, worker or all`);
  const runtime = await createRuntime(config, { migrate: !config.databaseUrl });
  const { deps } = runtime;
  const stops: (() => Promise<void>)[] = [];

  if ((await countTenants(deps.db)) === 0) {
    const created = await createTenant(deps, { name: 'Bootstrap' }, config.bootstrapAdminToken ? { adminToken: config.bootstrapAdminToken } : {});
    console.log(`Created the bootstrap tenant ${created.tenant.id}.`);
    console.log(`Admin token (shown once): ${created.admin_token}`);
  }

  if (config.role !== 'worker') {
    const app = await buildApp(deps);
    const address = await app.listen({ port: config.port, host: config.host });
    console.log(`Tourbook API on ${address} — reference at ${address}/docs, OpenAPI at ${address}/openapi.json`);
    stops.push(() => app.close());
  }
  if (config.role !== 'api') {
    const { startWorker } = await import('./worker/loop.ts');
    const worker = startWorker(deps);
    stops.push(() => worker.stop());
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.log.info({ signal }, 'shutting down');
    for (const stop of stops) await stop();
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

async function migrate(): Promise<void> {
  const config = loadConfig();
  const runtime = await createRuntime(config, { migrate: true });
  await runtime.close();
  console.log('Migrations applied.');
}

async function tenant(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'create') throw new ConfigError(USAGE);
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, extension: { type: 'string', multiple: true }, json: { type: 'boolean' } },
  });
  if (!values.name) throw new ConfigError('tenant create needs --name');
  for (const ext of values.extension ?? []) if (ext !== 'busyness') throw new ConfigError(`unknown extension ${ext}`);
  const config = loadConfig();
  const runtime = await createRuntime(config, { migrate: !config.databaseUrl });
  try {
    const created = await createTenant(runtime.deps, { name: values.name, extensions: (values.extension ?? []) as 'busyness'[] });
    if (values.json) {
      console.log(JSON.stringify({ tenant_id: created.tenant.id, admin_user_id: created.admin_user_id, admin_token: created.admin_token }));
    } else {
      console.log(`Tenant ${created.tenant.id} (${created.tenant.name}); admin user ${created.admin_user_id}`);
      console.log(`Admin token (shown once): ${created.admin_token}`);
    }
  } finally {
    await runtime.close();
  }
}

async function demo(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { url: { type: 'string' }, token: { type: 'string' } } });
  const adminToken = values.token ?? process.env.TOURBOOK_ADMIN_TOKEN ?? process.env.BOOTSTRAP_ADMIN_TOKEN;
  if (!adminToken) throw new ConfigError('demo needs an admin token: --token, TOURBOOK_ADMIN_TOKEN or BOOTSTRAP_ADMIN_TOKEN');
  const { runDemo } = await import('./demo.ts');
  await runDemo({ baseUrl: values.url ?? process.env.TOURBOOK_URL ?? 'http://127.0.0.1:3000', adminToken, log: (line) => console.log(line) });
}

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (command === 'serve') return await serve(rest);
    if (command === 'migrate') return await migrate();
    if (command === 'tenant') return await tenant(rest);
    if (command === 'demo') return await demo(rest);
    if (command === 'keys') return await (await import('./keys-command.ts')).keys(rest);
    console.log(USAGE);
    process.exitCode = command ? 2 : 0;
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && err.message.includes('Another Tourbook process'))) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

await main(process.argv.slice(2));
