// Per-credential token buckets (in-process): RateLimit-* headers on every authenticated response, 429 when empty.
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps.ts';
import { AppError } from './errors.ts';
import { defineMessages } from './i18n.ts';
import { isInternalRequest } from './etag.ts';

defineMessages({
  'error.rate_limited': {
    en: 'Too many requests for this credential; retry after {seconds} s.',
    de: 'Zu viele Anfragen für diese Zugangsdaten; erneut versuchen in {seconds} s.',
  },
});

interface Bucket {
  tokens: number;
  at: number;
}

export interface TokenBucketLimit {
  perSecond: number;
  burst: number;
}

/** Refills a bucket to `nowMs` and takes one token when there is one. Pure: the caller keeps the bucket. */
export function take(bucket: Bucket, limit: TokenBucketLimit, nowMs: number): { allowed: boolean; bucket: Bucket } {
  const elapsed = Math.max(0, nowMs - bucket.at) / 1000;
  const tokens = Math.min(limit.burst, bucket.tokens + elapsed * limit.perSecond);
  if (tokens >= 1) return { allowed: true, bucket: { tokens: tokens - 1, at: nowMs } };
  return { allowed: false, bucket: { tokens, at: nowMs } };
}

/** Seconds until one token is available again (Retry-After) and until the bucket is full (RateLimit-Reset). */
export function waits(bucket: Bucket, limit: TokenBucketLimit): { retryAfter: number; reset: number } {
  return {
    retryAfter: Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond)),
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
