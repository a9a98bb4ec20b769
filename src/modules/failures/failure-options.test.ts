import { describe, expect, it } from 'vitest';
import { useMessages } from '../../http/i18n.ts';
import {
  FAILURE_OUTCOMES,
  completionRequirementsFail,
  failureOptions,
  isPickupThenDropoff,
  outcomeBlocker,
  type FailingRole,
  type FailureBlocker,
  type FailureContext,
  type FailureOutcome,
} from './failure-options.ts';
import { blockerMessage, messages } from './failure-messages.ts';

const inEnglish = (blocker: FailureBlocker) => blockerMessage(blocker, 'en');
const inGerman = (blocker: FailureBlocker) => blockerMessage(blocker, 'de');

// The rule answers in these texts; start-up installs them with every other catalog (src/messages.ts).
useMessages([messages]);

const DRIVER = 'driver-1';

const callerFor = (role: FailingRole): FailureContext['caller'] => ({
  role,
  userId: role === 'driver' ? DRIVER : `${role}-1`,
  seesTour: role !== 'driver',
});

/** An arrived drop-off of a pickup-then-drop-off booking on an en_route tour, with room everywhere: every outcome open. */
function context(role: FailingRole, change: (c: FailureContext) => void = () => undefined): FailureContext {
  const c: FailureContext = {
    caller: callerFor(role),
    stop: { type: 'dropoff', status: 'arrived', tourId: 'tour-1' },
    tour: { status: 'en_route', driverId: DRIVER, stopCount: 3 },
    booking: { stops: [{ type: 'pickup', status: 'completed' }, { type: 'dropoff', status: 'arrived' }, { type: 'dropoff', status: 'scheduled' }] },
    service: {
      stopTypes: ['pickup', 'dropoff', 'task', 'return'],
      returnStopType: 'return',
      maxStopsPerBooking: 25,
      maxStopsPerTour: 100,
      failureOutcomes: { admin: [...FAILURE_OUTCOMES], manager: [...FAILURE_OUTCOMES], driver: [...FAILURE_OUTCOMES] },
    },
  };
  change(c);
  return c;
}

type Expected = Record<FailureOutcome, FailureBlocker | null>;
const all = (blocker: FailureBlocker | null): Expected =>
  Object.fromEntries(FAILURE_OUTCOMES.map((o) => [o, blocker])) as Expected;
const only = (outcomes: FailureOutcome[], blocker: FailureBlocker): Expected =>
  Object.fromEntries(FAILURE_OUTCOMES.map((o) => [o, outcomes.includes(o) ? blocker : null])) as Expected;
const NOW: FailureOutcome[] = ['reattempt_now', 'return_now'];
const RETURNS: FailureOutcome[] = ['return_now', 'return_later'];
const RECOVERIES: FailureOutcome[] = ['reattempt_later', 'reattempt_now', 'return_later', 'return_now'];

const fullBooking = (c: FailureContext) => {
  c.booking = { stops: [{ type: 'pickup', status: 'completed' }, ...Array.from({ length: 24 }, () => ({ type: 'dropoff', status: 'scheduled' }))] };
  c.booking.stops[1]!.status = 'arrived';
};

const CASES: { name: string; change: (c: FailureContext) => void; expected: Expected; driverExpected?: Expected }[] = [
  { name: 'everything in order', change: () => undefined, expected: all(null) },
  { name: 'approaching instead of arrived', change: (c) => void (c.stop.status = 'approaching'), expected: all(null) },
  // check 1b: the service's failure_outcomes for the role
  {
    name: 'the service offers the role only skip_recovery',
    change: (c) => void (c.service.failureOutcomes = { admin: ['skip_recovery'], manager: ['skip_recovery'], driver: ['skip_recovery'] }),
    expected: only(RECOVERIES, 'outcome_disabled'),
  },
  {
    name: 'the service offers the role nothing',
    change: (c) => void (c.service.failureOutcomes = { admin: [], manager: [], driver: [] }),
    expected: all('outcome_disabled'),
  },
  // check 2: a tour stop in approaching or arrived
  {
    name: 'the stop is not on a tour',
    change: (c) => void ((c.stop.tourId = null), (c.tour = null)),
    expected: all('stop_not_on_tour'),
    // without a tour nobody is "the tour's driver"
    driverExpected: all('not_permitted'),
  },
  ...['to_be_dispatched', 'scheduled', 'completed', 'failed', 'cancelled'].map((status) => ({
    name: `the stop is ${status}`,
    change: (c: FailureContext) => void (c.stop.status = status),
    expected: all('stop_not_in_progress'),
  })),
  // check 3: tour en_route for *_now
  ...['claimed', 'completed', 'cancelled', 'pickable'].map((status) => ({
    name: `the tour is ${status}`,
    change: (c: FailureContext) => void (c.tour!.status = status),
    expected: only(NOW, 'tour_not_active'),
  })),
  // check 4: return stop type
  { name: 'returns are disabled (no return stop type)', change: (c) => void (c.service.returnStopType = null), expected: only(RETURNS, 'return_stop_type_invalid') },
  {
    name: 'the return stop type is not one of the service stop types',
    change: (c) => void (c.service.stopTypes = ['pickup', 'dropoff']),
    expected: only(RETURNS, 'return_stop_type_invalid'),
  },
  // check 5: pickup-then-drop-off shape and a failing drop-off
  { name: 'the failing stop is the pickup', change: (c) => void (c.stop.type = 'pickup'), expected: only(RETURNS, 'booking_not_returnable') },
  {
    name: 'the booking is pickup-only',
    change: (c) => void (c.booking = { stops: [{ type: 'pickup', status: 'arrived' }] }),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'the booking has two pickups',
    change: (c) => void c.booking!.stops.splice(1, 0, { type: 'pickup', status: 'completed' }),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'the booking starts with a drop-off',
    change: (c) => void c.booking!.stops.reverse(),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'the booking’s first stop is a drop-off, every other one too',
    change: (c) => void (c.booking!.stops[0]!.type = 'dropoff'),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'the booking’s first stop is a task',
    change: (c) => void (c.booking!.stops[0]!.type = 'task'),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'the booking holds a task stop',
    change: (c) => void c.booking!.stops.push({ type: 'task', status: 'scheduled' }),
    expected: only(RETURNS, 'booking_not_returnable'),
  },
  {
    name: 'a cancelled extra pickup does not spoil the shape',
    change: (c) => void c.booking!.stops.push({ type: 'pickup', status: 'cancelled' }),
    expected: all(null),
  },
  // a tour-only stop: returns fail on shape, reattempts have no booking to append to
  {
    name: 'the stop has no booking',
    change: (c) => void (c.booking = null),
    expected: { skip_recovery: null, reattempt_later: 'stop_without_booking', reattempt_now: 'stop_without_booking', return_later: 'booking_not_returnable', return_now: 'booking_not_returnable' },
  },
  // check 6: booking stop limit
  { name: 'the booking is at its stop limit', change: fullBooking, expected: only(RECOVERIES, 'booking_stop_limit_reached') },
  {
    name: 'cancelled stops do not count towards the booking limit',
    change: (c) => {
      fullBooking(c);
      c.booking!.stops[2]!.status = 'cancelled';
    },
    expected: all(null),
  },
  // check 7: tour stop limit
  { name: 'the tour is at its stop limit', change: (c) => void (c.tour!.stopCount = 100), expected: only(NOW, 'tour_stop_limit_reached') },
  { name: 'the tour is one below its stop limit', change: (c) => void (c.tour!.stopCount = 99), expected: all(null) },
  // order: the first failing check wins
  {
    name: 'tour not active and full: the tour state is named',
    change: (c) => void ((c.tour!.status = 'claimed'), (c.tour!.stopCount = 100)),
    expected: only(NOW, 'tour_not_active'),
  },
  {
    name: 'no return type and a bad shape: the return type is named',
    change: (c) => void ((c.service.returnStopType = null), (c.stop.type = 'pickup')),
    expected: only(RETURNS, 'return_stop_type_invalid'),
  },
  {
    name: 'booking and tour full: the booking limit is named',
    change: (c) => {
      fullBooking(c);
      c.tour!.stopCount = 100;
    },
    expected: only(RECOVERIES, 'booking_stop_limit_reached'),
  },
  {
    name: 'a bad shape and a full booking: the shape is named for returns',
    change: (c) => {
      fullBooking(c);
      c.stop.type = 'pickup';
    },
    expected: { skip_recovery: null, reattempt_later: 'booking_stop_limit_reached', reattempt_now: 'booking_stop_limit_reached', return_later: 'booking_not_returnable', return_now: 'booking_not_returnable' },
  },
  {
    name: 'outcome disabled and stop not in progress: the service configuration is named',
    change: (c) => void ((c.service.failureOutcomes = { admin: [], manager: [], driver: [] }), (c.stop.status = 'scheduled')),
    expected: all('outcome_disabled'),
  },
];

describe('outcomeBlocker: docs/api-guide.md "Failed stops" checks, in order, for every failing role', () => {
  for (const role of ['admin', 'manager', 'driver'] as const) {
    describe(`as ${role}`, () => {
      it.each(CASES)('$name', ({ change, expected, driverExpected }) => {
        const c = context(role, change);
        const actual = Object.fromEntries(FAILURE_OUTCOMES.map((o) => [o, outcomeBlocker(c, o)]));
        expect(actual).toEqual(role === 'driver' ? (driverExpected ?? expected) : expected);
      });
    });
  }

  it('reads the failure_outcomes list of the caller’s own role', () => {
    for (const role of ['admin', 'manager', 'driver'] as const) {
      const c = context(role, (x) => {
        x.service.failureOutcomes = { admin: ['return_now'], manager: ['reattempt_now'], driver: ['reattempt_later'] };
      });
      const allowed = FAILURE_OUTCOMES.filter((o) => outcomeBlocker(c, o) === null);
      expect(allowed).toEqual([{ admin: 'return_now', manager: 'reattempt_now', driver: 'reattempt_later' }[role]]);
    }
  });
});

describe('outcomeBlocker: who may run failure flows', () => {
  const CALLERS: { name: string; caller: FailureContext['caller']; permitted: boolean }[] = [
    { name: 'an admin', caller: { role: 'admin', userId: 'a', seesTour: false }, permitted: true },
    { name: 'a manager who sees the tour', caller: { role: 'manager', userId: 'm', seesTour: true }, permitted: true },
    { name: 'a manager who does not see the tour', caller: { role: 'manager', userId: 'm', seesTour: false }, permitted: false },
    { name: 'the tour’s driver', caller: { role: 'driver', userId: DRIVER, seesTour: true }, permitted: true },
    { name: 'another driver', caller: { role: 'driver', userId: 'driver-2', seesTour: true }, permitted: false },
    { name: 'a customer', caller: { role: 'customer', userId: 'c', seesTour: true }, permitted: false },
  ];
  it.each(CALLERS)('$name: permitted=$permitted', ({ caller, permitted }) => {
    const c = context('admin', (x) => void (x.caller = caller));
    for (const outcome of FAILURE_OUTCOMES) expect(outcomeBlocker(c, outcome)).toBe(permitted ? null : 'not_permitted');
    expect(failureOptions(c, inEnglish) === null).toBe(!permitted);
  });

  it('a driver is never permitted on a tour without a driver', () => {
    const c = context('driver', (x) => void (x.tour!.driverId = null));
    expect(outcomeBlocker(c, 'skip_recovery')).toBe('not_permitted');
  });
});

describe('failureOptions: the rendered object', () => {
  it('has exactly the five outcome keys, reason null when allowed', () => {
    const options = failureOptions(context('driver'), inEnglish);
    expect(Object.keys(options!.outcomes).sort()).toEqual([...FAILURE_OUTCOMES].sort());
    expect(options!.outcomes.return_now).toEqual({ allowed: true, reason: null, reason_key: null });
  });

  it('names the first failing check in the caller’s language', () => {
    const c = context('manager', (x) => void (x.service.returnStopType = null));
    expect(failureOptions(c, inEnglish)!.outcomes.return_later).toEqual({
      allowed: false,
      reason: 'The service has no valid return stop type.',
      reason_key: 'return_stop_type_invalid',
    });
    expect(failureOptions(c, inGerman)!.outcomes.return_later.reason).toBe('Der Service hat keinen gültigen Rückgabe-Stopptyp.');
  });

  it.each(['to_be_dispatched', 'scheduled', 'completed', 'failed', 'cancelled'])('is absent on a %s stop', (status) => {
    expect(failureOptions(context('admin', (x) => void (x.stop.status = status)), inEnglish)).toBeNull();
  });

  it('is absent on a stop not on a tour', () => {
    expect(failureOptions(context('admin', (x) => void ((x.stop.tourId = null), (x.tour = null))), inEnglish)).toBeNull();
  });

  // Either half missing is enough: a stop without a tour id, or a tour the caller did not load.
  it.each([
    ['a stop without a tour id', (x: FailureContext) => void (x.stop.tourId = null)],
    ['a stop whose tour is missing', (x: FailureContext) => void (x.tour = null)],
  ])('is absent on %s, and every outcome names stop_not_on_tour', (_name, change) => {
    const c = context('admin', change);
    expect(failureOptions(c, inEnglish)).toBeNull();
    for (const outcome of FAILURE_OUTCOMES) expect(outcomeBlocker(c, outcome)).toBe('stop_not_on_tour');
  });

  it('renders with every outcome disabled when the service offers the role none', () => {
    const options = failureOptions(context('driver', (x) => void (x.service.failureOutcomes.driver = [])), inEnglish);
    expect(Object.values(options!.outcomes).every((o) => !o.allowed && o.reason_key === 'outcome_disabled')).toBe(true);
  });
});

describe('completionRequirementsFail', () => {
  it('equals skip_recovery.allowed', () => {
    expect(completionRequirementsFail(failureOptions(context('admin'), inEnglish))).toBe(true);
    const disabled = failureOptions(context('admin', (x) => void (x.service.failureOutcomes.admin = ['return_now'])), inEnglish);
    expect(completionRequirementsFail(disabled)).toBe(false);
  });
  it('is false where failure_options are absent', () => {
    expect(completionRequirementsFail(null)).toBe(false);
    expect(completionRequirementsFail(undefined)).toBe(false);
  });
});

describe('isPickupThenDropoff', () => {
  it.each([
    [['pickup', 'dropoff'], true],
    [['pickup', 'dropoff', 'dropoff'], true],
    [['pickup'], false],
    [['dropoff', 'dropoff'], false],
    [['task', 'dropoff', 'dropoff'], false],
    [['dropoff', 'pickup'], false],
    [['pickup', 'pickup', 'dropoff'], false],
    [['pickup', 'dropoff', 'return'], false],
    [[], false],
  ])('%j → %s', (types, expected) => {
    expect(isPickupThenDropoff(types.map((type) => ({ type })))).toBe(expected);
  });
});
