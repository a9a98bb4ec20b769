import { describe, expect, it } from 'vitest';
import { recoveryPlan, type StopShape } from './recovery.ts';

const group = (type: string, placeId: string) => `A-${type}-${placeId}`;

const stop = (overrides: Partial<StopShape & { id: string; status: string }> = {}): StopShape & { id: string; status: string } => ({
  id: 'failed-1',
  status: 'arrived',
  type: 'dropoff',
  placeId: 'place-d',
  lat: 52.51,
  lng: 13.41,
  address: { street: 'Torstraße' },
  contact: { name: 'Recipient' },
  group: 'A-dropoff-place-d',
  timeWindowStartsAt: new Date('2026-06-01T09:00:00Z'),
  timeWindowEndsAt: new Date('2026-06-01T12:00:00Z'),
  serviceDurationSeconds: 180,
  notes: 'Ring twice',
  ...overrides,
});
const pickup = stop({ id: 'pickup-1', type: 'pickup', placeId: 'place-p', lat: 52.5, lng: 13.4, address: { street: 'Chausseestraße' }, contact: { name: 'Sender' }, group: null, notes: 'Ramp 3' });

describe('recoveryPlan', () => {
  it('has nothing to recover for skip_recovery', () => {
    expect(recoveryPlan('skip_recovery', stop(), pickup, 'return', group)).toBeNull();
  });

  it.each([
    ['reattempt_now', true],
    ['reattempt_later', false],
  ] as const)('%s: a full copy of the stop, without its id or status (dispatch now: %s)', (outcome, dispatchNow) => {
    const { id: _id, status: _status, ...shape } = stop();
    expect(recoveryPlan(outcome, stop(), pickup, 'return', group)).toEqual({ kind: 'reattempt', dispatchNow, stop: shape });
  });

  it.each([
    ['return_now', true],
    ['return_later', false],
  ] as const)('%s: the return type at the pickup’s place, address and contact (dispatch now: %s)', (outcome, dispatchNow) => {
    expect(recoveryPlan(outcome, stop(), pickup, 'return', group)).toEqual({
      kind: 'return',
      dispatchNow,
      stop: {
        type: 'return',
        placeId: 'place-p',
        lat: 52.5,
        lng: 13.4,
        address: { street: 'Chausseestraße' },
        contact: { name: 'Sender' },
        group: 'A-return-place-p',
        timeWindowStartsAt: null,
        timeWindowEndsAt: null,
        serviceDurationSeconds: 180,
        notes: null,
      },
    });
  });

  it('a return to a pickup without a place has no group', () => {
    expect(recoveryPlan('return_later', stop(), { ...pickup, placeId: null }, 'return', group)?.stop.group).toBeNull();
  });

  it('refuses a return without a pickup or a return type: the rule should have stopped it', () => {
    expect(() => recoveryPlan('return_now', stop(), null, 'return', group)).toThrow();
    expect(() => recoveryPlan('return_now', stop(), pickup, null, group)).toThrow();
  });
});
