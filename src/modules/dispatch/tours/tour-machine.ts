// The tour state machine of docs/api-guide.md "Bookings, stops and tours" as one transition table: who may fire which action from which state.
import type { TourStatus } from '../tables.ts';

export type TourAction =
  | 'schedule'
  | 'ready_to_pick'
  | 'hold'
  | 'claim'
  | 'unclaim'
  | 'start'
  | 'pick'
  | 'ditch'
  | 'force_assign'
  | 'force_unassign'
  | 'cancel'
  | 'expire_claim'
  | 'complete';

/** dispatcher = admin or manager; driver_eligible = a driver who may take the tour; own_driver = the tour's driver. */
export type TourActor = 'dispatcher' | 'eligible_driver' | 'own_driver' | 'system';

interface Transition {
  from: readonly TourStatus[];
  to: TourStatus;
  by: TourActor;
  /** Whether the tour has a driver afterwards: 'keep' leaves it as it was. */
  driver: 'assign' | 'release' | 'keep';
}

export const OPEN_TOUR_STATUSES: readonly TourStatus[] = ['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route'];
export const TOUR_STATUSES: readonly TourStatus[] = [...OPEN_TOUR_STATUSES, 'completed', 'cancelled'];

export const TOUR_TRANSITIONS: Record<TourAction, Transition> = {
  schedule: { from: ['to_be_dispatched'], to: 'scheduled', by: 'dispatcher', driver: 'keep' },
  ready_to_pick: { from: ['to_be_dispatched', 'scheduled'], to: 'pickable', by: 'dispatcher', driver: 'keep' },
  hold: { from: ['scheduled', 'pickable'], to: 'to_be_dispatched', by: 'dispatcher', driver: 'keep' },
  claim: { from: ['scheduled'], to: 'claimed', by: 'eligible_driver', driver: 'assign' },
  unclaim: { from: ['claimed'], to: 'scheduled', by: 'own_driver', driver: 'release' },
  start: { from: ['claimed'], to: 'en_route', by: 'own_driver', driver: 'keep' },
  pick: { from: ['pickable'], to: 'en_route', by: 'eligible_driver', driver: 'assign' },
  ditch: { from: ['en_route'], to: 'pickable', by: 'own_driver', driver: 'release' },
  force_assign: { from: ['to_be_dispatched', 'scheduled', 'pickable'], to: 'claimed', by: 'dispatcher', driver: 'assign' },
  force_unassign: { from: ['claimed', 'en_route'], to: 'scheduled', by: 'dispatcher', driver: 'release' },
  // A tour cancelled with a driver keeps it: the executing organization still sees it (docs/api-guide.md "Who sees what").
  cancel: { from: OPEN_TOUR_STATUSES, to: 'cancelled', by: 'dispatcher', driver: 'keep' },
  expire_claim: { from: ['claimed'], to: 'scheduled', by: 'system', driver: 'release' },
  complete: { from: ['en_route'], to: 'completed', by: 'system', driver: 'keep' },
};

export type TourStep = { ok: true; to: TourStatus; driver: Transition['driver'] } | { ok: false; reason: 'wrong_state' | 'not_allowed' };

const DRIVER_KINDS: readonly TourActor[] = ['eligible_driver', 'own_driver'];

/** The role behind an actor kind: whether a driver holds the tour is the tour's state, not the caller's role. */
const roleOf = (actor: TourActor) => (DRIVER_KINDS.includes(actor) ? 'driver' : actor);

/**
 * The outcome of firing `action` on a tour in `from` as `by`. A role that may never fire the action is refused
 * before the state is looked at (`not_allowed`, answered 403). A driver's action that does not fit the tour — claiming
 * the tour it already holds, starting one it does not hold — is a state conflict (`wrong_state`, 409), like any
 * other action from the wrong state (decision 0154).
 */
export function tourTransition(from: TourStatus, action: TourAction, by: TourActor): TourStep {
  const transition = TOUR_TRANSITIONS[action];
  if (roleOf(transition.by) !== roleOf(by)) return { ok: false, reason: 'not_allowed' };
  if (transition.by !== by || !transition.from.includes(from)) return { ok: false, reason: 'wrong_state' };
  return { ok: true, to: transition.to, driver: transition.driver };
}

export const isOpenTour = (status: TourStatus): boolean => OPEN_TOUR_STATUSES.includes(status);

/** Statuses in which a driver holds the tour (its organization executes it): the tours live tracking follows and a re-plan starts from. */
export const HELD_BY_DRIVER_STATUSES: readonly TourStatus[] = ['claimed', 'en_route'];
export const isHeldByDriver = (status: string): boolean => (HELD_BY_DRIVER_STATUSES as readonly string[]).includes(status);
