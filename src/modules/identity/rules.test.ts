import { describe, expect, it } from 'vitest';
import type { UserRole } from '../../http/actor.ts';
import { canonicalTimeZone, isCurrency, membershipErrors, polygonErrors } from './rules.ts';

describe('membershipErrors', () => {
  const cases: [UserRole, number, boolean][] = [
    ['manager', 0, false],
    ['manager', 1, true],
    ['manager', 3, true],
    ['driver', 0, false],
    ['driver', 1, true],
    ['driver', 2, false],
    ['admin', 0, true],
    ['admin', 1, false],
    ['customer', 0, true],
    ['customer', 1, false],
  ];
  for (const [role, count, valid] of cases) {
    it(`${valid ? 'accepts' : 'rejects'} a ${role} in ${count} organizations`, () => {
      const ids = Array.from({ length: count }, (_, i) => `org-${i}`);
      const errors = membershipErrors(role, ids);
      expect(errors.length === 0).toBe(valid);
      if (!valid) expect(errors[0]?.pointer).toBe('/user/organization_ids');
    });
  }
});

describe('isCurrency', () => {
  for (const [code, valid] of [['EUR', true], ['USD', true], ['JPY', true], ['eur', false], ['EU', false], ['XYZQ', false], ['ABC', false]] as const) {
    it(`${valid ? 'accepts' : 'rejects'} ${code}`, () => expect(isCurrency(code)).toBe(valid));
  }
});

describe('canonicalTimeZone', () => {
  it('accepts IANA names', () => expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin'));
  it('canonicalises the case', () => expect(canonicalTimeZone('america/new_york')).toBe('America/New_York'));
  it('accepts UTC', () => expect(canonicalTimeZone('UTC')).toBe('UTC'));
  it('rejects unknown zones', () => expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull());
});

describe('polygonErrors', () => {
  const square = [[13.3, 52.4], [13.5, 52.4], [13.5, 52.6], [13.3, 52.6], [13.3, 52.4]];
  it('accepts a closed ring', () => expect(polygonErrors([square], '/b')).toEqual([]));
  it('rejects an open ring', () => {
    expect(polygonErrors([square.slice(0, 4).concat([[13.3, 52.5]])], '/b')[0]?.pointer).toBe('/b/coordinates/0');
  });
  it('rejects a latitude out of range', () => {
    expect(polygonErrors([[[0, 0], [0, 95], [1, 1], [0, 0]]], '/b')[0]?.pointer).toBe('/b/coordinates/0/1');
  });
  it('rejects a longitude out of range', () => {
    expect(polygonErrors([[[0, 0], [181, 0], [1, 1], [0, 0]]], '/b')[0]?.pointer).toBe('/b/coordinates/0/1');
  });
});
