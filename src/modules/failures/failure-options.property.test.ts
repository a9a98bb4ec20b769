// Properties of failure_options (fast-check): the blocker decides "allowed", no caller outside the rule ever fails a stop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useMessages } from '../../http/i18n.ts';
import { blockerMessage, messages } from './failure-messages.ts';
import { FAILURE_OUTCOMES, failureOptions, failingRoleOf, outcomeBlocker, rendersFailureOptions, type FailureBlocker, type FailureContext } from './failure-options.ts';

// The words are installed at start-up with every other catalog (src/messages.ts); here, these alone.
useMessages([messages]);
const inEnglish = (blocker: FailureBlocker) => blockerMessage(blocker, 'en');

type UserRole = 'admin' | 'manager' | 'driver' | 'customer';
const stopStatus = fc.constantFrom('scheduled', 'approaching', 'arrived', 'completed', 'failed', 'cancelled');
const stopType = fc.constantFrom('pickup', 'dropoff', 'task', 'return');
const outcomes = fc.subarray([...FAILURE_OUTCOMES]);
const context: fc.Arbitrary<FailureContext> = fc.record({
  caller: fc.record({ role: fc.constantFrom<UserRole>('admin', 'manager', 'driver', 'customer'), userId: fc.constantFrom('u1', 'u2'), seesTour: fc.boolean() }),
  stop: fc.record({ type: stopType, status: stopStatus, tourId: fc.option(fc.constant('t1'), { nil: null }) }),
  tour: fc.option(fc.record({ status: fc.constantFrom('scheduled', 'pickable', 'claimed', 'en_route', 'completed'), driverId: fc.option(fc.constantFrom('u1', 'u2'), { nil: null }), stopCount: fc.nat(120) }), { nil: null }),
  booking: fc.option(fc.record({ stops: fc.array(fc.record({ type: stopType, status: stopStatus }), { maxLength: 30 }) }), { nil: null }),
  service: fc.record({
    stopTypes: fc.constant(['pickup', 'dropoff', 'task', 'return']),
    returnStopType: fc.constantFrom('return', 'dropoff', null, 'teleport'),
    maxStopsPerBooking: fc.integer({ min: 2, max: 30 }),
    maxStopsPerTour: fc.integer({ min: 2, max: 120 }),
    failureOutcomes: fc.record({ admin: outcomes, manager: outcomes, driver: outcomes }),
  }),
});

describe('failure options properties', () => {
  it('renders exactly where the rule says, and then every outcome is allowed iff it has no blocker', () => {
    fc.assert(
      fc.property(context, (c) => {
        const options = failureOptions(c, inEnglish);
        expect(options !== null).toBe(rendersFailureOptions(c));
        if (!options) return;
        for (const outcome of FAILURE_OUTCOMES) {
          const blocker = outcomeBlocker(c, outcome);
          expect(options.outcomes[outcome]).toMatchObject({ allowed: blocker === null, reason_key: blocker });
        }
      }),
    );
  });

  it('never lets a customer, a manager who does not see the tour or another driver fail a stop', () => {
    fc.assert(
      fc.property(context, fc.constantFrom(...FAILURE_OUTCOMES), (c, outcome) => {
        const outsider =
          c.caller.role === 'customer' || (c.caller.role === 'manager' && !c.caller.seesTour) || (c.caller.role === 'driver' && c.tour?.driverId !== c.caller.userId);
        if (outsider) {
          expect(failingRoleOf(c)).toBeNull();
          expect(outcomeBlocker(c, outcome)).toBe('not_permitted');
        }
      }),
    );
  });

  it('never allows an outcome the service does not offer to the role, nor a *_now outcome off an en_route tour', () => {
    fc.assert(
      fc.property(context, fc.constantFrom(...FAILURE_OUTCOMES), (c, outcome) => {
        const role = failingRoleOf(c);
        const blocker = outcomeBlocker(c, outcome);
        if (role && !c.service.failureOutcomes[role].includes(outcome)) expect(blocker).not.toBeNull();
        if (outcome.endsWith('_now') && c.tour?.status !== 'en_route') expect(blocker).not.toBeNull();
        if (blocker === null) expect(['approaching', 'arrived']).toContain(c.stop.status);
      }),
    );
  });
});
