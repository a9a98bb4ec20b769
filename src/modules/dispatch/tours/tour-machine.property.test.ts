// Properties of the tour machine (fast-check): the table decides alone, terminal states stay terminal, no oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPEN_TOUR_STATUSES, TOUR_STATUSES, TOUR_TRANSITIONS, tourTransition, type TourAction, type TourActor } from './tour-machine.ts';

const ACTIONS = Object.keys(TOUR_TRANSITIONS) as TourAction[];
const ACTORS: TourActor[] = ['dispatcher', 'eligible_driver', 'own_driver', 'system'];
const status = fc.constantFrom(...TOUR_STATUSES);
const action = fc.constantFrom(...ACTIONS);
const actor = fc.constantFrom(...ACTORS);

describe('tour machine properties', () => {
  it('allows a step exactly when the actor is the transition’s and the state one of its sources', () => {
    fc.assert(
      fc.property(status, action, actor, (from, act, by) => {
        const step = tourTransition(from, act, by);
        const t = TOUR_TRANSITIONS[act];
        expect(step.ok).toBe(t.by === by && t.from.includes(from));
        if (step.ok) expect(TOUR_STATUSES).toContain(step.to);
      }),
    );
  });

  it('refuses the wrong kind of caller identically in every state (the answer reveals no state)', () => {
    fc.assert(
      fc.property(status, status, action, actor, (a, b, act, by) => {
        fc.pre(TOUR_TRANSITIONS[act].by !== by);
        expect(tourTransition(a, act, by)).toEqual(tourTransition(b, act, by));
        expect(tourTransition(a, act, by)).toEqual({ ok: false, reason: 'not_allowed' });
      }),
    );
  });

  it('never leaves completed or cancelled, along any sequence of attempted steps', () => {
    fc.assert(
      fc.property(status, fc.array(fc.tuple(action, actor), { maxLength: 40 }), (start, steps) => {
        let current = start;
        let closed = !OPEN_TOUR_STATUSES.includes(current);
        for (const [act, by] of steps) {
          const step = tourTransition(current, act, by);
          if (step.ok) {
            expect(closed, `${current} --${act}--> ${step.to}`).toBe(false);
            current = step.to;
          }
          closed ||= !OPEN_TOUR_STATUSES.includes(current);
        }
      }),
    );
  });
});
