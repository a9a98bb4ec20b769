// `tourbook serve`: checks the port, opens and migrates the database, listens, then creates the bootstrap tenant.
import type http from 'node:http';
import net from 'node:net';
import { loadConfig, ConfigError, type Config, type Role } from '../config.ts';
import { requireMasterKey } from '../crypto/master-key.ts';
import { createLogger, createRuntime } from '../runtime.ts';
import { CliError } from './cli-error.ts';

/** The environment with `--port`/`--host` in place of PORT/HOST (a flag wins), checked like them. */
function withFlags(values: { port?: string; host?: string }): NodeJS.ProcessEnv {
  const flags = { ...(values.port !== undefined ? { PORT: values.port } : {}), ...(values.host !== undefined ? { HOST: values.host } : {}) };
  try {
    loadConfig(flags);
  } catch (err) {
    if (err instanceof ConfigError) throw new ConfigError(err.message.replace(/\bPORT\b/g, '--port').replace(/\bHOST\b/g, '--host'));
    throw err;
  }
  return { ...process.env, ...flags };
}

export async function serve(values: { role?: string; port?: string; host?: string }): Promise<void> {
  const config = loadConfig(withFlags(values), values.role ? { role: values.role as Role } : {});
  if (!['api', 'worker', 'all'].includes(config.role)) throw new ConfigError(`--role must be api, worker or all`);
  // Before the port and the database: a server without a master key would store secrets in plain text (decision 0207).
  requireMasterKey(config);
  requireSharedBlobs(config);
  // Before anything is created: a busy port must not cost the bootstrap tenant's one-time token.
  if (config.role !== 'worker') await ensurePortFree(config);
  const log = await createLogger(config);
  // The database opens first; the HTTP app and the rest load while PGlite reads its files and compiles its
  // WebAssembly off the main thread (decision 0137).
  const opening = createRuntime(config, { migrate: !config.databaseUrl, log, announce: true });
  const appModule = config.role !== 'worker' ? import('../app.ts') : null;
  const workerModule = config.role !== 'api' ? import('../worker/loop.ts') : null;
  const identity = import('../modules/identity/index.ts');
  // Should the open fail, these are not awaited: their failure must not be reported instead of the open's.
  for (const loading of [appModule, workerModule, identity]) loading?.catch(() => undefined);
  const runtime = await opening;
  const { deps } = runtime;
  const stops: (() => Promise<void>)[] = [];

  // From here a stop request closes the database cleanly, also during the rest of the start: an embedded database
  // killed instead replays its write-ahead log at the next start.
  let stopping = false;
  // In-flight requests and the worker's work in hand finish within the grace period; then the process exits anyway
  // (leases run out and another worker takes the work again; decision 1402).
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, grace_seconds: config.shutdownGraceSeconds }, 'Shutting down');
    const forced = setTimeout(() => {
      log.warn('Shutdown grace period over: exiting with work in hand');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1000);
    forced.unref();
    await Promise.all(stops.map((stop) => stop().catch((err: unknown) => log.error({ err }, 'stopping failed'))));
    await runtime.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  let address: string | null = null;
  let firstAnswer: Promise<void> | undefined;
  if (appModule) {
    const { buildApp } = await appModule;
    const app = await buildApp(deps);
    try {
      address = await app.listen({ port: config.port, host: config.host });
    } catch (err) {
      await runtime.close();
      throw portError(err, config);
    }
    stops.push(() => app.close());
    firstAnswer = firstResponse(app.server, WORKER_GRACE_MS);
  }
  if (workerModule) {
    const { startWorker } = await workerModule;
    const worker = startWorker(deps, firstAnswer ? { startAfter: firstAnswer } : {});
    // The worker's sleeps are unref'd timers: a worker-only process whose database connections all dropped (a
    // failover) had nothing left in its event loop and exited without a word. This keeps it running until it stops.
    const running = setInterval(() => undefined, 60_000);
    stops.push(async () => {
      await worker.stop();
      clearInterval(running);
    });
  }
  // The worker role has no API: its metrics and health have their own port (decision 1403).
  if (config.role === 'worker' && config.workerMetricsPort !== null) {
    const { startMetricsServer } = await import('../worker/metrics-server.ts');
    const server = await startMetricsServer(config.workerMetricsPort, config.host).catch((err: unknown) => {
      throw portError(err, { ...config, port: config.workerMetricsPort ?? 0 });
    });
    stops.push(() => server.close());
    log.info(`Worker metrics: http://${config.host}:${server.port}/metrics (health /healthz)`);
  }

  // Only once the service listens: a token printed by a process that then dies is lost.
  // Exactly one of several processes starting together creates it, and only that one prints its token (decision 1405).
  const { createBootstrapTenant, createBootstrapSignInLink } = await identity;
  const created = await createBootstrapTenant(deps, config.bootstrapAdminToken ? { adminToken: config.bootstrapAdminToken } : {});
  if (created) {
    log.info(`Created the bootstrap tenant ${created.tenant.id}; its admin token is on standard error, with a one-time sign-in link for the console`);
    // The admin sets a password at this link and signs in to the console: no API call needed (decision 1602).
    const link = await createBootstrapSignInLink(deps, created.tenant.id, created.admin_user_id, address ? demoUrl(address) : undefined);
    process.stderr.write(`Sign in to the console (the link works once, until ${link.expires_at}): ${link.url}\n`);
    // The demo finds the service at the default address by itself; anywhere else it needs the URL (issue 28).
    const elsewhere = address && (config.port !== 3000 || config.host !== '127.0.0.1') ? ` --url ${demoUrl(address)}` : '';
    // Never in the log, which is shipped and kept; plain lines on stderr, whatever LOG_LEVEL says (decision 0208).
    process.stderr.write(
      `Admin token (shown once): ${created.admin_token}\n` + `Load demo data from a second terminal: npx tourbook demo${elsewhere} --token ${created.admin_token}\n`,
    );
  }
  // Ready comes last: whoever waits for it has every line before it.
  log.info(
    config.databaseUrl
      ? 'Lost the admin token? `npx tourbook admin-key create` mints a new admin API key.'
      : 'Lost the admin token? Stop the service, then `npx tourbook admin-key create` mints a new admin API key.',
  );
  if (address) {
    const base = config.publicUrl ?? address;
    log.info(`Ready: ${base} (console ${base}/console, API reference ${base}/docs, OpenAPI ${base}/openapi.json)`);
  } else {
    log.info('Ready: worker running');
  }
}

/**
 * An API process on PostgreSQL serves report and proof files other API processes stored: a local blob folder must be
 * shared by all of them (a network file system) and say so, or the files live on S3 (decision 1404).
 */
function requireSharedBlobs(config: Config): void {
  if (config.role === 'worker' || !config.databaseUrl || config.s3 || config.blobDirShared) return;
  throw new ConfigError(
    `DATABASE_URL is set but report and proof files would go to a local folder (${config.dataDir}/blobs) that other API ` +
      'processes cannot read. Set S3_ENDPOINT (with S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) for an S3-compatible ' +
      'store, or BLOB_DIR_SHARED=true when DATA_DIR is shared by every API process (a network file system) or there is only one.',
  );
}

/** The listening address as a client on this machine reaches it: an all-interfaces address through loopback. */
function demoUrl(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}

/**
 * How long the worker of `--role all` waits for the first answered request before its first pass. Its first passes
 * (periodic jobs, the outbox, the delivery lanes) would otherwise share PGlite's one session with the first request, a
 * readiness probe usually, which then answers about 250 ms later (decision 0138). Nothing the worker does is due
 * within a second of a start.
 */
const WORKER_GRACE_MS = 1000;

/** Resolves when the server has answered its first request, or after `graceMs`, whichever comes first. */
function firstResponse(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    setTimeout(resolve, graceMs).unref();
    server.once('request', (_request: http.IncomingMessage, response: http.ServerResponse) => response.once('finish', () => resolve()));
  });
}

/** Binds the port once and lets it go: the cheapest way to learn it is taken before the database is touched. */
async function ensurePortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () => probe.close(() => resolve()));
  }).catch((err: unknown) => {
    throw portError(err, config);
  });
}

function portError(err: unknown, config: Config): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const other = config.port === 3000 ? 3001 : config.port + 1;
  if (code === 'EADDRINUSE') {
    return new CliError(
      `port ${config.port} on ${config.host} is already in use (another Tourbook, or another program). ` +
        `Stop it, or choose another port: PORT=${other} npx tourbook serve`,
    );
  }
  if (code === 'EACCES') return new CliError(`port ${config.port} needs administrator rights; choose one above 1023: PORT=${other} npx tourbook serve`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new CliError(`HOST=${config.host} is not an address of this machine; use HOST=127.0.0.1 (this machine) or HOST=0.0.0.0 (all interfaces)`);
  }
  return err;
}
