import { describe, expect, it } from 'vitest';
import { TOUR_STATUSES, tourTransition, type TourAction, type TourActor } from './tour-machine.ts';
import type { TourStatus } from '../tables.ts';

// The whole machine, written out by hand from docs/api-guide.md "Bookings, stops and tours": [action, actor, from, to].
const ALLOWED: [TourAction, TourActor, TourStatus, TourStatus][] = [
  ['schedule', 'dispatcher', 'to_be_dispatched', 'scheduled'],
  ['ready_to_pick', 'dispatcher', 'to_be_dispatched', 'pickable'],
  ['ready_to_pick', 'dispatcher', 'scheduled', 'pickable'],
  ['hold', 'dispatcher', 'scheduled', 'to_be_dispatched'],
  ['hold', 'dispatcher', 'pickable', 'to_be_dispatched'],
  ['claim', 'eligible_driver', 'scheduled', 'claimed'],
  ['unclaim', 'own_driver', 'claimed', 'scheduled'],
  ['start', 'own_driver', 'claimed', 'en_route'],
  ['pick', 'eligible_driver', 'pickable', 'en_route'],
  ['ditch', 'own_driver', 'en_route', 'pickable'],
  ['force_assign', 'dispatcher', 'to_be_dispatched', 'claimed'],
  ['force_assign', 'dispatcher', 'scheduled', 'claimed'],
  ['force_assign', 'dispatcher', 'pickable', 'claimed'],
  ['force_unassign', 'dispatcher', 'claimed', 'scheduled'],
  ['force_unassign', 'dispatcher', 'en_route', 'scheduled'],
  ['cancel', 'dispatcher', 'to_be_dispatched', 'cancelled'],
  ['cancel', 'dispatcher', 'scheduled', 'cancelled'],
  ['cancel', 'dispatcher', 'pickable', 'cancelled'],
  ['cancel', 'dispatcher', 'claimed', 'cancelled'],
  ['cancel', 'dispatcher', 'en_route', 'cancelled'],
  ['expire_claim', 'system', 'claimed', 'scheduled'],
  ['complete', 'system', 'en_route', 'completed'],
];

const ACTIONS: TourAction[] = [
  'schedule', 'ready_to_pick', 'hold', 'claim', 'unclaim', 'start', 'pick', 'ditch',
  'force_assign', 'force_unassign', 'cancel', 'expire_claim', 'complete',
];
const ACTORS: TourActor[] = ['dispatcher', 'eligible_driver', 'own_driver', 'system'];

describe('tour state machine', () => {
  it.each(ALLOWED)('%s by %s moves a %s tour to %s', (action, actor, from, to) => {
    expect(tourTransition(from, action, actor)).toMatchObject({ ok: true, to });
  });

  // Every other (action, actor, state) combination is refused: the table above is the whole machine.
  const refused = ACTIONS.flatMap((action) =>
    ACTORS.flatMap((actor) =>
      TOUR_STATUSES.filter((from) => !ALLOWED.some(([a, b, f]) => a === action && b === actor && f === from)).map(
        (from) => [action, actor, from] as const,
      ),
    ),
  );

  it.each(refused)('refuses %s by %s on a %s tour', (action, actor, from) => {
    expect(tourTransition(from, action, actor).ok).toBe(false);
  });

  it('names the wrong state when the right actor fires from the wrong state', () => {
    expect(tourTransition('completed', 'cancel', 'dispatcher')).toEqual({ ok: false, reason: 'wrong_state' });
    expect(tourTransition('scheduled', 'start', 'dispatcher')).toEqual({ ok: false, reason: 'not_allowed' });
    expect(tourTransition('scheduled', 'schedule', 'own_driver')).toEqual({ ok: false, reason: 'not_allowed' });
  });

  // A driver holding the tour or not is the tour's state: the wrong one is a conflict (409), not a forbidden role (403).
  it.each([
    ['claim', 'own_driver', 'claimed'],
    ['pick', 'own_driver', 'claimed'],
    ['unclaim', 'eligible_driver', 'scheduled'],
    ['start', 'eligible_driver', 'scheduled'],
    ['ditch', 'eligible_driver', 'pickable'],
  ] as const)('answers %s by an %s on a %s tour as a wrong state', (action, actor, from) => {
    expect(tourTransition(from, action, actor)).toEqual({ ok: false, reason: 'wrong_state' });
  });

  it('assigns a driver on claim, pick and force_assign and releases it when the driver leaves', () => {
    expect(tourTransition('scheduled', 'claim', 'eligible_driver')).toMatchObject({ driver: 'assign' });
    expect(tourTransition('pickable', 'pick', 'eligible_driver')).toMatchObject({ driver: 'assign' });
    expect(tourTransition('en_route', 'ditch', 'own_driver')).toMatchObject({ driver: 'release' });
    expect(tourTransition('claimed', 'expire_claim', 'system')).toMatchObject({ driver: 'release' });
    expect(tourTransition('en_route', 'cancel', 'dispatcher')).toMatchObject({ driver: 'keep' });
  });
});
