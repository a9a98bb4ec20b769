// Read-your-writes with read replicas (decision 1401): a successful write answers with the primary's WAL position in
// `Tourbook-Consistency` (header and cookie); a request that sends it back reads from a replica only once the
// replica has replayed that far.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { LSN_RE, parseLsn, readConsistency } from '../db/replicas.ts';
import { badParameter } from './errors.ts';

export const CONSISTENCY_HEADER = 'tourbook-consistency';
const COOKIE = 'tourbook_consistency';
/** Long enough for any replica within the lag bound to have caught up; the cookie is only a floor. */
const COOKIE_MAX_AGE_SECONDS = 300;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function cookieValue(header: string | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === COOKIE && value && LSN_RE.test(value)) return value;
  }
  return null;
}

export function registerConsistency(app: FastifyInstance, deps: Deps): void {
  const router = deps.replicas;
  if (!router) return;
  // `run` wraps the rest of the request (later hooks, the handler): the store is the request's own.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers[CONSISTENCY_HEADER];
    if (header !== undefined && (typeof header !== 'string' || !LSN_RE.test(header))) {
      done(badParameter('parameter_invalid', 'Tourbook-Consistency', 'Tourbook-Consistency must be a WAL position this API returned, e.g. 0/16B3748.', { in: 'header' }));
      return;
    }
    const tokens = [header, cookieValue(request.headers.cookie)].filter((t): t is string => typeof t === 'string').map(parseLsn);
    const minLsn = tokens.length ? tokens.reduce((a, b) => (a > b ? a : b)) : null;
    readConsistency.run({ minLsn }, done);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (READS.has(request.method) || reply.statusCode >= 400) return payload;
    const lsn = await router.primaryLsn().catch(() => null);
    if (lsn) {
      void reply.header(CONSISTENCY_HEADER, lsn);
      void reply.header('set-cookie', `${COOKIE}=${lsn}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict`);
    }
    return payload;
  });
}
