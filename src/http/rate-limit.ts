// Per-credential token buckets (in-process): RateLimit-* headers on every authenticated response, 429 when empty.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../deps.ts';
import { AppError } from './errors.ts';
import type { Messages } from './i18n.ts';
import { isInternalRequest } from './etag.ts';

export const messages: Messages = {
  'error.rate_limited': {
    en: 'Too many requests for this credential; retry after {seconds} s.',
    de: 'Zu viele Anfragen für diese Zugangsdaten; erneut versuchen in {seconds} s.',
  },
  'error.bulk_rate_limited': {
    en: 'Too many bulk items for this credential; retry after {seconds} s.',
    de: 'Zu viele Sammel-Einträge für diese Zugangsdaten; erneut versuchen in {seconds} s.',
  },
  'error.auth_failures': {
    en: 'Too many failed authentications from your address; retry after {seconds} s.',
    de: 'Zu viele fehlgeschlagene Anmeldungen von Ihrer Adresse; erneut versuchen in {seconds} s.',
  },
};

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBucketLimit {
  perSecond: number;
  burst: number;
}

/** Refills a bucket to `nowMs` and takes `cost` tokens when there are as many. Pure: the caller keeps the bucket. */
export function take(bucket: Bucket, limit: TokenBucketLimit, nowMs: number, cost = 1): { allowed: boolean; bucket: Bucket } {
  const elapsed = Math.max(0, nowMs - bucket.at) / 1000;
  const tokens = Math.min(limit.burst, bucket.tokens + elapsed * limit.perSecond);
  if (tokens >= cost) return { allowed: true, bucket: { tokens: tokens - cost, at: nowMs } };
  return { allowed: false, bucket: { tokens, at: nowMs } };
}

/** Seconds until `cost` tokens are available again (Retry-After) and until the bucket is full (RateLimit-Reset). */
export function waits(bucket: Bucket, limit: TokenBucketLimit, cost = 1): { retryAfter: number; reset: number } {
  return {
    retryAfter: Math.max(1, Math.ceil((cost - bucket.tokens) / limit.perSecond)),
    reset: Math.max(0, Math.ceil((limit.burst - bucket.tokens) / limit.perSecond)),
  };
}

/** Buckets idle long enough to be full again carry no information and are dropped. */
const MAX_BUCKETS = 100_000;

export function registerRateLimit(app: FastifyInstance, deps: Deps): void {
  const limit = deps.config.rateLimit;
  const buckets = new Map<string, Bucket>();

  // Runs after authentication (registered after the auth hook), so the actor's credential is known.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.actor || isInternalRequest(request)) return;
    const nowMs = deps.clock.now().getTime();
    if (buckets.size >= MAX_BUCKETS) {
      for (const [id, b] of buckets) if (take(b, limit, nowMs).bucket.tokens >= limit.burst) buckets.delete(id);
    }
    const id = request.actor.credentialId;
    const result = take(buckets.get(id) ?? { tokens: limit.burst, at: nowMs }, limit, nowMs);
    buckets.set(id, result.bucket);
    const { retryAfter, reset } = waits(result.bucket, limit);
    reply.header('ratelimit-limit', String(limit.burst));
    reply.header('ratelimit-remaining', String(Math.floor(result.bucket.tokens)));
    reply.header('ratelimit-reset', String(reset));
    if (!result.allowed) {
      throw new AppError(429, 'rate_limited', { key: 'error.rate_limited', params: { seconds: retryAfter } }, [], {}, {
        'retry-after': String(retryAfter),
      });
    }
  });
}

/**
 * preHandler of a bulk route. The call itself took one token of the credential's bucket like any request; its items
 * take one token each from a second bucket per credential, refilled at the same rate, whose burst holds at least one
 * full call (`maxItems`). So a bulk create never outruns what the same creates one by one would be allowed, and an
 * import does not empty the bucket the console's other requests draw from (decision 0320).
 */
export function bulkItemRateLimit(deps: Deps, maxItems: number, itemsOf: (request: FastifyRequest) => number) {
  const buckets = new LRUCache<string, Bucket>({ max: MAX_BUCKETS });
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.actor) return;
    const limit = { perSecond: deps.config.rateLimit.perSecond, burst: Math.max(deps.config.rateLimit.burst, maxItems) };
    const nowMs = deps.clock.now().getTime();
    const id = request.actor.credentialId;
    const cost = itemsOf(request);
    const result = take(buckets.get(id) ?? { tokens: limit.burst, at: nowMs }, limit, nowMs, cost);
    buckets.set(id, result.bucket);
    if (!result.allowed) {
      const { retryAfter } = waits(result.bucket, limit, cost);
      throw new AppError(429, 'rate_limited', { key: 'error.bulk_rate_limited', params: { seconds: retryAfter } }, [], {}, { 'retry-after': String(retryAfter) });
    }
  };
}

/**
 * Token buckets of failures keyed by something an attacker controls (a client address, an e-mail), kept in an
 * LRU: spraying keys evicts the least recently failed ones instead of wiping every lockout at once (the Map this
 * replaces was cleared at 100k entries). Only failures take tokens; an empty bucket refuses before any work.
 */
export interface FailureThrottle {
  /** Throws 429 (`messageKey`) when `key` has no failures left; otherwise returns how to record one. */
  check(key: string, nowMs: number, messageKey: string): { recordFailure: () => void };
}

export function failureThrottle(limit: () => TokenBucketLimit, max = 100_000): FailureThrottle {
  const buckets = new LRUCache<string, Bucket>({ max });
  return {
    check(key, nowMs, messageKey) {
      const current = limit();
      const attempt = take(buckets.get(key) ?? { tokens: current.burst, at: nowMs }, current, nowMs);
      if (!attempt.allowed) {
        buckets.set(key, attempt.bucket);
        const { retryAfter } = waits(attempt.bucket, current);
        throw new AppError(429, 'rate_limited', { key: messageKey, params: { seconds: retryAfter } }, [], {}, { 'retry-after': String(retryAfter) });
      }
      return { recordFailure: () => void buckets.set(key, attempt.bucket) };
    },
  };
}

/**
 * Failed authentications per client address, shared by the token check and sign-in (decision 0113): invalid
 * tokens cost a database lookup each and sign-in a scrypt hash, so a sprayer is slowed down per address.
 * `request.ip` is the socket's peer: behind a proxy every client shares the proxy's bucket.
 */
export const authFailuresByAddress = (deps: Deps): FailureThrottle => {
  let throttle = throttles.get(deps);
  if (!throttle) {
    throttle = failureThrottle(() => deps.config.authFailureLimit);
    throttles.set(deps, throttle);
  }
  return throttle;
};
const throttles = new WeakMap<Deps, FailureThrottle>();

/**
 * Authenticates with `authenticate`; a 401 counts against the caller's address and becomes 429 once the address
 * has no failures left. Valid credentials are never refused here: a neighbour behind the same address guessing
 * tokens does not lock out the honest clients there.
 */
export async function authenticateThrottled<T>(deps: Deps, request: FastifyRequest, authenticate: () => Promise<T>): Promise<T> {
  try {
    return await authenticate();
  } catch (err) {
    if (err instanceof AppError && err.status === 401) {
      authFailuresByAddress(deps).check(request.ip, deps.clock.now().getTime(), 'error.auth_failures').recordFailure();
    }
    throw err;
  }
}
