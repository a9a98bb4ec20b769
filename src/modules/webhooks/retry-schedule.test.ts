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

  it('has no delay before any attempt other than 2 to 8', () => {
    expect(nextAttemptDelayMs(0, null, 0.5)).toBeNull();
    expect(nextAttemptDelayMs(-1, null, 0.5)).toBeNull();
    expect(nextAttemptDelayMs(0, 120_000, 0.5)).toBeNull();
  });

  it('spreads the delay by ±10 % of the scheduled one', () => {
    // 300 s after the second attempt: 270 s at random 0, 315 s at random 0.75, 330 s at the (open) top.
    expect(nextAttemptDelayMs(2, null, 0)).toBe(270_000);
    expect(nextAttemptDelayMs(2, null, 0.75)).toBe(315_000);
    expect(nextAttemptDelayMs(2, null, 0.25)).toBe(285_000);
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
    // Delay-seconds are digits only: anything else is read as a date, and these are none.
    ['120abc', null],
    ['abc120', null],
    ['', null],
    [undefined, null],
  ])('%s → %s ms', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
});
