// `tourbook demo`: finds the running service (--url, TOURBOOK_URL, or HOST/PORT like serve) and loads the demo into it.
import { ConfigError } from '../config.ts';
import { runDemo } from '../demo.ts';
import { CliError } from './cli-error.ts';

/** The URL `serve` listens on with the same environment; an all-interfaces host is reached through loopback. */
export function serviceUrl(env: NodeJS.ProcessEnv): string {
  if (env.TOURBOOK_URL) return env.TOURBOOK_URL;
  const host = !env.HOST || env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST === '::' ? '[::1]' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${env.PORT || '3000'}`;
}

export async function demo(values: { url?: string; token?: string }): Promise<void> {
  const adminToken = values.token ?? process.env.TOURBOOK_ADMIN_TOKEN ?? process.env.BOOTSTRAP_ADMIN_TOKEN;
  if (!adminToken) throw new ConfigError('needs an admin token: --token, TOURBOOK_ADMIN_TOKEN or BOOTSTRAP_ADMIN_TOKEN (serve prints it on first start)');
  const baseUrl = values.url ?? serviceUrl(process.env);
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`"${baseUrl}" is not a URL (expected e.g. http://127.0.0.1:3000)`);
  }
  const health = await fetch(new URL('/healthz', baseUrl)).catch((err: unknown) => err as Error);
  if (health instanceof Error) {
    throw new CliError(
      `nothing answers at ${baseUrl}. Start the service first (npx tourbook serve), or point the demo at it with --url or TOURBOOK_URL ` +
        `(or the PORT/HOST you started it with).`,
    );
  }
  // Something answers: make sure it is Tourbook before the demo reads its answers as Tourbook's (issue 28: another
  // program's HTML page ended in a SyntaxError stack trace).
  const notTourbook = (why: string) =>
    new CliError(`${baseUrl} is not a Tourbook service (${why}). Point the demo at Tourbook with --url or TOURBOOK_URL (or the PORT/HOST you started it with).`);
  const healthBody = await health.text();
  if (!isTourbookHealth(health.status, healthBody)) throw notTourbook(`GET /healthz answered ${health.status} ${health.headers.get('content-type') ?? 'without a content type'}`);
  const me = await fetch(new URL('/api/user', baseUrl), { headers: { authorization: `Bearer ${adminToken}` } });
  if (me.status === 401) throw new CliError(`${baseUrl} refused the admin token. Use the one serve printed, or mint one: npx tourbook admin-key create`);
  try {
    await runDemo({ baseUrl, adminToken, log: (line) => console.log(line) });
  } catch (err) {
    if (err instanceof SyntaxError) throw notTourbook(`an answer was not JSON: ${err.message}`);
    throw err;
  }
}

/** Tourbook's liveness answer: 200 with `{"status": "ok"}` (GET /healthz in the API guide). */
function isTourbookHealth(status: number, body: string): boolean {
  if (status !== 200) return false;
  try {
    return (JSON.parse(body) as { status?: unknown }).status === 'ok';
  } catch {
    return false;
  }
}
