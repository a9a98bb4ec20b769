// Recovery stops of a failed stop (docs/api-guide.md "Failed stops" Stops and bookings, docs/api-guide.md "Failed stops"): what a return or a reattempt looks like. Pure.
import type { FailureOutcome } from './failure-options.ts';

/** The parts of a stop a recovery stop is built from. */
export interface StopShape {
  type: string;
  placeId: string | null;
  lat: number;
  lng: number;
  address: unknown;
  contact: unknown;
  group: string | null;
  timeWindowStartsAt: Date | null;
  timeWindowEndsAt: Date | null;
  serviceDurationSeconds: number;
  notes: string | null;
}

export interface RecoveryPlan<S extends StopShape> {
  kind: 'return' | 'reattempt';
  /** `*_now`: dispatched onto the failing tour right after the failed stop; `*_later`: waits on the booking. */
  dispatchNow: boolean;
  stop: Pick<S, keyof StopShape>;
}

/** A reattempt is a full copy of the stop; only ids, status, positions and timestamps are the new stop's own. */
export const reattemptStop = <S extends StopShape>(s: S): Pick<S, keyof StopShape> => ({
  type: s.type,
  placeId: s.placeId,
  lat: s.lat,
  lng: s.lng,
  address: s.address,
  contact: s.contact,
  group: s.group,
  timeWindowStartsAt: s.timeWindowStartsAt,
  timeWindowEndsAt: s.timeWindowEndsAt,
  serviceDurationSeconds: s.serviceDurationSeconds,
  notes: s.notes,
});

/**
 * The recovery stop for an outcome, or null for skip_recovery.
 * - reattempt: a full copy of the failed stop (same place, address, contact, group, time window, notes).
 * - return: the service's return stop type at the booking's pickup (its place, address and contact); the
 *   failed drop-off's time window does not apply to the way back, and the group is the automatic one of the
 *   pickup's place when there is a place (`automaticGroup`), none otherwise.
 */
export function recoveryPlan<S extends StopShape>(
  outcome: FailureOutcome,
  failed: S,
  pickup: S | null,
  returnStopType: string | null,
  automaticGroup: (type: string, placeId: string) => string,
): RecoveryPlan<S> | null {
  if (outcome === 'skip_recovery') return null;
  const dispatchNow = outcome === 'reattempt_now' || outcome === 'return_now';
  if (outcome === 'reattempt_now' || outcome === 'reattempt_later') return { kind: 'reattempt', dispatchNow, stop: reattemptStop(failed) };
  // failure_options guarantees both for a return; a violation here is a programming error, not bad input.
  if (!pickup || !returnStopType) throw new Error(`${outcome} needs the booking's pickup and a return stop type`);
  return {
    kind: 'return',
    dispatchNow,
    stop: {
      ...reattemptStop(failed),
      type: returnStopType,
      placeId: pickup.placeId,
      lat: pickup.lat,
      lng: pickup.lng,
      address: pickup.address,
      contact: pickup.contact,
      group: pickup.placeId ? automaticGroup(returnStopType, pickup.placeId) : null,
      timeWindowStartsAt: null,
      timeWindowEndsAt: null,
      notes: null,
    },
  };
}
