// The retry schedule of docs/api-guide.md "Events and webhooks" with ±10 % jitter, and Retry-After parsing.

/** Delays before attempts 2…8 (attempt 1 is immediate); after the eighth failure a delivery is exhausted. */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600];
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
export const JITTER = 0.1;
/** A receiver may push the next attempt back, but not beyond the schedule's longest gap. */
export const RETRY_AFTER_CAP_SECONDS = 10 * 3600;

/**
 * Milliseconds until the next attempt after `attemptsMade` failed attempts, or null when the delivery is exhausted.
 * `random` is in [0, 1); the Retry-After delay wins when it is longer than the scheduled one.
 */
export function nextAttemptDelayMs(attemptsMade: number, retryAfterMs: number | null, random: number): number | null {
  const base = RETRY_DELAYS_SECONDS[attemptsMade - 1];
  if (base === undefined || attemptsMade < 1) return null;
  const jittered = Math.round(base * 1000 * (1 + JITTER * (2 * random - 1)));
  return retryAfterMs === null ? jittered : Math.max(jittered, retryAfterMs);
}

/** `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, 0), RETRY_AFTER_CAP_SECONDS * 1000);
}
