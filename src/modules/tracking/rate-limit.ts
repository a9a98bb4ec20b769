// The public tracking routes' limit per client address: they have no credential to count against (decision 1100).
import type { FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { Messages } from '../../http/i18n.ts';
import { take, waits } from '../../http/rate-limit.ts';

export const messages: Messages = {
  'error.tracking_rate_limited': {
    en: 'Too many requests from your address; retry after {seconds} s.',
    de: 'Zu viele Anfragen von Ihrer Adresse; erneut versuchen in {seconds} s.',
  },
};

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per address at the per-credential rate (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST), in an LRU so that
 * spraying addresses evicts the idlest buckets. `request.ip` is the socket's peer: behind a proxy all share one.
 */
export function addressRateLimit(deps: Deps) {
  const buckets = new LRUCache<string, Bucket>({ max: 100_000 });
  return async (request: FastifyRequest): Promise<void> => {
    const limit = deps.config.rateLimit;
    const nowMs = deps.clock.now().getTime();
    const result = take(buckets.get(request.ip) ?? { tokens: limit.burst, at: nowMs }, limit, nowMs);
    buckets.set(request.ip, result.bucket);
    if (!result.allowed) {
      const { retryAfter } = waits(result.bucket, limit);
      throw new AppError(429, 'rate_limited', { key: 'error.tracking_rate_limited', params: { seconds: retryAfter } }, [], {}, { 'retry-after': String(retryAfter) });
    }
  };
}
