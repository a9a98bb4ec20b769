import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextAttemptDelayMs, parseRetryAfter } from './retry-schedule.ts';

const NOW = new Date('2026-06-01T08:00:00Z');

describe('retry schedule', () => {
  it.each([
    [1, 5_000],
    [2, 300_000],
    [3, 1_800_000],
    [4, 7_200_000],
    [5, 18_000_000],
    [6, 36_000_000],
    [7, 36_000_000],
  ])('after failed attempt %i waits %i ms, ±10 %% jitter', (attempts, base) => {
    expect(nextAttemptDelayMs(attempts, null, 0.5)).toBe(base);
    expect(nextAttemptDelayMs(attempts, null, 0)).toBe(Math.round(base * 0.9));
    expect(nextAttemptDelayMs(attempts, null, 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.1));
  });

  it('is exhausted after the eighth attempt', () => {
    expect(MAX_ATTEMPTS).toBe(8);
    expect(nextAttemptDelayMs(8, null, 0.5)).toBeNull();
  });

  it.each([
    ['a longer Retry-After wins', 1, 120_000, 120_000],
    ['a shorter Retry-After does not hasten the schedule', 3, 1_000, 1_800_000],
  ])('%s', (_name, attempts, retryAfter, expected) => {
    expect(nextAttemptDelayMs(attempts, retryAfter, 0.5)).toBe(expected);
  });
});

describe('Retry-After', () => {
  it.each([
    ['120', 120_000],
    ['0', 0],
    [' 30 ', 30_000],
    ['Mon, 01 Jun 2026 08:10:00 GMT', 600_000],
    ['Mon, 01 Jun 2026 07:00:00 GMT', 0],
    ['999999', 36_000_000],
    ['soon', null],
    [undefined, null],
  ])('%s → %s ms', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
});
