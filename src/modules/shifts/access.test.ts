import { describe, expect, it } from 'vitest';
import { overlaps, shiftAccess } from './access.ts';

describe('shiftAccess', () => {
  const driverId = 'driver';
  it.each([
    ['admin', 'someone', [], 'write'],
    ['manager', 'someone', ['org-a'], 'write'],
    ['manager', 'someone', ['org-b'], 'none'],
    ['manager', 'someone', [], 'none'],
    ['driver', 'driver', ['org-a'], 'read'],
    ['driver', 'other-driver', ['org-a'], 'none'],
    ['customer', 'someone', ['org-a'], 'none'],
  ] as const)('%s (%s, organizations %j) → %s', (role, userId, organizationIds, expected) => {
    expect(shiftAccess({ role, userId, organizationIds: [...organizationIds] }, driverId, ['org-a'])).toBe(expected);
  });
});

describe('overlaps (half-open)', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 11, 1, h));
  const shift = (a: number, b: number) => ({ startsAt: at(a), endsAt: at(b) });
  it.each([
    [shift(8, 12), shift(12, 16), false],
    [shift(8, 12), shift(11, 13), true],
    [shift(8, 12), shift(9, 10), true],
    [shift(9, 10), shift(8, 12), true],
    [shift(8, 12), shift(4, 8), false],
    [shift(8, 12), shift(13, 14), false],
  ])('%j and %j → %s', (a, b, expected) => {
    expect(overlaps(a, b)).toBe(expected);
  });
});
