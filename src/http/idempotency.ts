// Idempotency-Key on every write: claim the key before the handler runs, store the outcome, replay it on retries.
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import type { Actor } from './actor.ts';
import type { AppError } from './errors.ts';
import { badParameter, conflict, unprocessable } from './errors.ts';
import type { Messages } from './i18n.ts';
import { idempotencyKeys } from './tables.ts';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_KEY_LENGTH = 255;
/** docs/api-guide.md "Conventions": keys are kept 24 h; after that the same key starts a new request. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim whose request never finished (crashed process) can be taken over after this. */
const IN_FLIGHT_LEASE_MS = 60 * 1000;
/** Headers that belong to the outcome and come back on a replay (not rate-limit or request-id headers). */
const REPLAYED_HEADERS = ['content-type', 'location', 'etag', 'deprecation', 'sunset', 'link'];

export const messages: Messages = {
  'error.idempotency_key_reused': {
    en: 'This Idempotency-Key was already used for a different request.',
    de: 'Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet.',
  },
  'error.idempotency_key_in_use': {
    en: 'A request with this Idempotency-Key is still being processed; retry later.',
    de: 'Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet; versuchen Sie es später erneut.',
  },
};

export interface Claim {
  tenantId: string;
  /** Whose keys these are: the user, or the API key (decision 1620). */
  scopeId: string;
  key: string;
}

/**
 * A key belongs to the tenant and the user, so a driver's step queued offline replays after signing out and in
 * again (a new session is a new credential). An API key keeps keys of its own: one key may be shared by several
 * services of one user, whose keys must not meet (decision 1620).
 */
export const idempotencyScope = (actor: Pick<Actor, 'userId' | 'apiKeyId'>): string => actor.apiKeyId ?? actor.userId;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
    idempotentReplay: boolean;
  }
}

/** The request fingerprint: same key with another method, path or body is a different request. */
export function fingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${url}\n${JSON.stringify(body ?? null)}`)
    .digest('base64url');
}

const requestHash = (request: FastifyRequest): string => fingerprint(request.method, request.url, request.body);

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw badParameter('parameter_invalid', 'Idempotency-Key', `The Idempotency-Key header must be 1–${MAX_KEY_LENGTH} characters.`, { in: 'header' });
  }
  return key;
}

export type Decision = { kind: 'run' } | { kind: 'replay'; status: number; headers: Record<string, string>; body: string } | { kind: 'error'; error: AppError };

type KeyRow = typeof idempotencyKeys.$inferSelect;

const whereKey = (claimKey: Claim) =>
  and(eq(idempotencyKeys.tenantId, claimKey.tenantId), eq(idempotencyKeys.scopeId, claimKey.scopeId), eq(idempotencyKeys.key, claimKey.key));

/** What a request meets when its key is already stored: run again (expired, or abandoned by its own request), or not. */
function decide(row: KeyRow | undefined, hash: string, now: Date): Decision {
  const expired = !row || row.createdAt.getTime() + KEY_TTL_MS <= now.getTime();
  const abandoned = row && row.responseStatus === null && row.lockedUntil.getTime() <= now.getTime() && row.requestHash === hash;
  if (expired || abandoned) return { kind: 'run' };
  if (row.requestHash !== hash) {
    return { kind: 'error', error: unprocessable('idempotency_key_reused', { key: 'error.idempotency_key_reused' }) };
  }
  if (row.responseStatus === null) {
    return { kind: 'error', error: conflict('idempotency_key_in_use', { key: 'error.idempotency_key_in_use' }) };
  }
  return { kind: 'replay', status: row.responseStatus, headers: row.responseHeaders ?? {}, body: row.responseBody ?? '' };
}

/**
 * What a request with this key and fingerprint would meet, read without claiming the key: a bulk dry run writes
 * nothing, not even a claim (decision 0320).
 */
export async function peekKey(deps: Pick<Deps, 'db' | 'clock'>, claimKey: Claim, hash: string): Promise<Decision> {
  const [row] = await deps.db.select().from(idempotencyKeys).where(whereKey(claimKey));
  return decide(row, hash, deps.clock.now());
}

/**
 * Claims the key, or decides to replay / refuse. A new key, the common case, is claimed by one statement, atomic on
 * its own: no transaction around it, so no BEGIN and COMMIT round trips (decision 1453). A key already stored is read
 * under its row lock in a transaction, which takes the key over when the request may run again.
 */
async function claim(deps: Deps, claimKey: Claim, hash: string): Promise<Decision> {
  const now = deps.clock.now();
  const fresh = {
    ...claimKey,
    requestHash: hash,
    responseStatus: null,
    responseHeaders: null,
    responseBody: null,
    lockedUntil: new Date(now.getTime() + IN_FLIGHT_LEASE_MS),
    createdAt: now,
  };
  const where = whereKey(claimKey);
  for (;;) {
    const inserted = await deps.db.insert(idempotencyKeys).values(fresh).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (inserted.length) return { kind: 'run' };
    const decision = await deps.db.transaction(async (tx): Promise<Decision | null> => {
      const [row] = await tx.select().from(idempotencyKeys).where(where).for('update');
      // Deleted since the insert met it (its request answered a 5xx, or the purge): claimed by inserting again.
      if (!row) return null;
      const decided = decide(row, hash, now);
      if (decided.kind === 'run') await tx.update(idempotencyKeys).set(fresh).where(where);
      return decided;
    });
    if (decision) return decision;
  }
}

/** Stores the outcome, or releases the key after a 5xx: one statement, atomic on its own (no transaction around it). */
async function settle(deps: Deps, claimKey: Claim, reply: FastifyReply, payload: unknown): Promise<void> {
  const where = whereKey(claimKey);
  // A 5xx is not an outcome: release the key so the client can retry the same request.
  if (reply.statusCode >= 500) {
    await deps.db.delete(idempotencyKeys).where(where);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  await deps.db.update(idempotencyKeys).set({ responseStatus: reply.statusCode, responseHeaders: headers, responseBody: body }).where(where);
}

/**
 * Hooks on the root instance. The key is claimed in preValidation (the body is parsed, so the fingerprint covers it,
 * and validation failures are stored like any other 4xx outcome); the outcome is stored in onSend.
 * Scope: tenant + user (an API key: tenant + key), so only tenant-authenticated routes take keys.
 */
export function registerIdempotency(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('idempotencyClaim', null);
  app.decorateRequest('idempotentReplay', false);

  app.addHook('preValidation', async (request, reply) => {
    if (!WRITE_METHODS.has(request.method) || !request.actor) return;
    const key = keyOf(request);
    if (key === null) return;
    const claimKey = { tenantId: request.actor.tenantId, scopeId: idempotencyScope(request.actor), key };
    const decision = await claim(deps, claimKey, requestHash(request));
    if (decision.kind === 'error') throw decision.error;
    if (decision.kind === 'replay') {
      request.idempotentReplay = true;
      reply.status(decision.status).headers(decision.headers).header('idempotent-replayed', 'true');
      return reply.send(decision.body);
    }
    request.idempotencyClaim = claimKey;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimKey = request.idempotencyClaim;
    if (!claimKey || request.idempotentReplay) return payload;
    request.idempotencyClaim = null;
    await settle(deps, claimKey, reply, payload);
    return payload;
  });
}
