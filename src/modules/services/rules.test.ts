import { describe, expect, it } from 'vitest';
import { defaultReturnStopType, mergeFailureOutcomes, serviceConfigErrors } from './rules.ts';
import type { FailureOutcome } from './tables.ts';

const ALL_OUTCOMES: FailureOutcome[] = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'];

describe('serviceConfigErrors', () => {
  const cases: { stopTypes: string[]; returnStopType: string | null; valid: boolean }[] = [
    { stopTypes: ['pickup', 'dropoff', 'return'], returnStopType: 'return', valid: true },
    { stopTypes: ['pickup', 'dropoff'], returnStopType: null, valid: true },
    { stopTypes: ['pickup', 'dropoff'], returnStopType: 'return', valid: false },
    { stopTypes: ['pickup', 'back'], returnStopType: 'back', valid: true },
  ];
  for (const c of cases) {
    it(`${c.valid ? 'accepts' : 'rejects'} return_stop_type ${String(c.returnStopType)} with stop_types [${c.stopTypes.join(', ')}]`, () => {
      const errors = serviceConfigErrors(c);
      expect(errors.length === 0).toBe(c.valid);
      if (!c.valid) expect(errors[0]?.pointer).toBe('/service/return_stop_type');
    });
  }
});

describe('mergeFailureOutcomes', () => {
  const current = { admin: ALL_OUTCOMES, manager: ALL_OUTCOMES, driver: ALL_OUTCOMES };
  it('replaces only the roles given', () => {
    expect(mergeFailureOutcomes(current, { driver: ['skip_recovery'] })).toEqual({ admin: ALL_OUTCOMES, manager: ALL_OUTCOMES, driver: ['skip_recovery'] });
  });
  it('keeps everything without input', () => {
    expect(mergeFailureOutcomes(current, undefined)).toEqual(current);
  });
  it('accepts an empty list to switch a role off', () => {
    expect(mergeFailureOutcomes(current, { manager: [] }).manager).toEqual([]);
  });
});

describe('defaultReturnStopType', () => {
  it('is return when the service has a return stop type', () => {
    expect(defaultReturnStopType(['pickup', 'dropoff', 'return'])).toBe('return');
  });
  it('disables returns when the service has no return stop type', () => {
    expect(defaultReturnStopType(['pickup', 'dropoff'])).toBeNull();
  });
});
