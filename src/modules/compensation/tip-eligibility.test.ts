import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tipOutcome, tourTips, type TipBooking, type TipOutcome, type TipTour } from './tip-eligibility.ts';

const tour = (id: string, overrides: Partial<TipTour> = {}): TipTour => ({ id, status: 'completed', currency: 'EUR', strategy: 'completed_dropoffs_on_tour', ...overrides });
const tours = (...list: TipTour[]) => new Map(list.map((t) => [t.id, t]));
const eur = (amount: number) => ({ amount, currency: 'EUR' });
const d = (status: string, tourId: string | null) => ({ status, tourId });

describe('tip eligibility', () => {
  it.each([
    ['a booking without tip', { tip: null, dropoffs: [d('completed', 'T1')] }, tours(tour('T1')), [null, 'not_eligible', 'no_tip', 0]],
    ['a zero tip', { tip: eur(0), dropoffs: [d('completed', 'T1')] }, tours(tour('T1')), [null, 'not_eligible', 'no_tip', 0]],
    ['a booking without drop-offs', { tip: eur(300), dropoffs: [] }, tours(), [null, 'not_eligible', 'no_dropoffs', 0]],
    ['an unresolved drop-off', { tip: eur(300), dropoffs: [d('completed', 'T1'), d('scheduled', 'T2')] }, tours(tour('T1')), [null, 'pending', 'dropoffs_unresolved', 0]],
    ['a drop-off not yet dispatched', { tip: eur(300), dropoffs: [d('to_be_dispatched', null)] }, tours(), [null, 'pending', 'dropoffs_unresolved', 0]],
    ['every drop-off failed', { tip: eur(300), dropoffs: [d('failed', 'T1'), d('cancelled', null)] }, tours(tour('T1')), [null, 'not_eligible', 'no_completed_dropoff', 0]],
    ['completed drop-offs on two tours', { tip: eur(300), dropoffs: [d('completed', 'T1'), d('completed', 'T2')] }, tours(tour('T1'), tour('T2')), [null, 'not_eligible', 'dropoffs_split_across_tours', 0]],
    ['a noop service', { tip: eur(300), dropoffs: [d('completed', 'T1')] }, tours(tour('T1', { strategy: 'noop' })), ['T1', 'not_eligible', 'distribution_off', 0]],
    ['a tour still under way', { tip: eur(300), dropoffs: [d('completed', 'T1')] }, tours(tour('T1', { status: 'en_route' })), ['T1', 'pending', 'tour_not_completed', 0]],
    ['a cancelled tour', { tip: eur(300), dropoffs: [d('completed', 'T1')] }, tours(tour('T1', { status: 'cancelled' })), ['T1', 'not_eligible', 'tour_cancelled', 0]],
    ['another currency', { tip: { amount: 300, currency: 'USD' }, dropoffs: [d('completed', 'T1')] }, tours(tour('T1')), ['T1', 'paused', 'currency_mismatch', 0]],
    ['all drop-offs completed on one tour', { tip: eur(300), dropoffs: [d('completed', 'T1'), d('completed', 'T1')] }, tours(tour('T1')), ['T1', 'awarded', 'completed_dropoffs_on_tour', 300]],
    ['one completed, one failed on a later tour', { tip: eur(300), dropoffs: [d('completed', 'T1'), d('failed', 'T2')] }, tours(tour('T1'), tour('T2', { status: 'en_route' })), ['T1', 'awarded', 'completed_dropoffs_on_tour', 300]],
  ] as [string, Omit<TipBooking, 'id'>, Map<string, TipTour>, [string | null, string, string, number]][])('%s', (_name, booking, known, [tourId, status, reason, amount]) => {
    expect(tipOutcome({ id: 'B', ...booking }, known)).toEqual({ bookingId: 'B', tourId, status, reason, amount });
  });

  it('sums awarded tips per tour and names the bookings that pause it', () => {
    const outcomes: TipOutcome[] = [
      { bookingId: 'b1', tourId: 'T1', status: 'awarded', reason: 'completed_dropoffs_on_tour', amount: 100 },
      { bookingId: 'b2', tourId: 'T1', status: 'awarded', reason: 'completed_dropoffs_on_tour', amount: 250 },
      { bookingId: 'b3', tourId: 'T1', status: 'paused', reason: 'currency_mismatch', amount: 0 },
      { bookingId: 'b4', tourId: 'T2', status: 'awarded', reason: 'completed_dropoffs_on_tour', amount: 999 },
    ];
    expect(tourTips('T1', outcomes)).toEqual({ tips: 350, mismatchedBookingIds: ['b3'] });
    expect(tourTips('T3', outcomes)).toEqual({ tips: 0, mismatchedBookingIds: [] });
  });
});

// ── Property: the triggers the system uses are enough, in any order ─────────────────────────────────────────────
// A random world of tours and bookings whose drop-offs are spread over the tours. Its drop-offs reach their final
// state one by one in a random order, interleaved with tip changes; a tour completes when its last drop-off is
// final. The system re-evaluates only on its triggers (a tour completes: the bookings on it; a booking's last
// drop-off becomes final: that booking; a tip changes: that booking), and stores the outcomes. Whatever the order,
// the stored outcomes and tips per tour equal one evaluation of the final state from scratch, and evaluating again
// changes nothing.

const world = fc
  .record({
    tourCount: fc.integer({ min: 1, max: 4 }),
    mismatchTour: fc.option(fc.integer({ min: 0, max: 3 })),
    bookings: fc.array(
      fc.record({
        tip: fc.option(fc.record({ amount: fc.integer({ min: 0, max: 1000 }), currency: fc.constantFrom('EUR', 'EUR', 'EUR', 'USD') })),
        dropoffs: fc.array(fc.record({ tour: fc.integer({ min: 0, max: 3 }), result: fc.constantFrom('completed', 'completed', 'failed', 'cancelled') }), { maxLength: 3 }),
      }),
      { maxLength: 8 },
    ),
  })
  .chain((w) => {
    const stopCount = w.bookings.reduce((n, b) => n + b.dropoffs.length, 0);
    const tipChanges = fc.array(fc.record({ booking: fc.nat(), tip: fc.option(fc.record({ amount: fc.integer({ min: 0, max: 1000 }), currency: fc.constantFrom('EUR', 'USD') })) }), { maxLength: 4 });
    // An order of stop completions (a permutation) with tip changes interleaved at random positions.
    return fc.record({ w: fc.constant(w), order: fc.shuffledSubarray([...Array(stopCount).keys()], { minLength: stopCount, maxLength: stopCount }), tipChanges, tipAt: fc.array(fc.nat(), { maxLength: 4 }) });
  });

describe('tip distribution (property)', () => {
  it('is idempotent and independent of the order of completions and tip changes', () => {
    fc.assert(
      fc.property(world, ({ w, order, tipChanges, tipAt }) => {
        const tourIds = [...Array(w.tourCount).keys()].map((i) => `T${i}`);
        const stops = w.bookings.flatMap((b, bi) => b.dropoffs.map((dr) => ({ booking: bi, tourId: tourIds[dr.tour % w.tourCount]!, result: dr.result, status: 'scheduled' })));
        const tips: TipBooking['tip'][] = w.bookings.map((b) => b.tip);
        const tourState = new Map(tourIds.map((id, i) => [id, tour(id, { status: 'en_route', currency: w.mismatchTour === i ? 'USD' : 'EUR' })]));
        const bookingOf = (bi: number): TipBooking => ({ id: `B${bi}`, tip: tips[bi] ?? null, dropoffs: stops.filter((s) => s.booking === bi).map((s) => d(s.status, s.tourId)) });
        const stored = new Map<string, TipOutcome>();
        const evaluate = (bi: number) => stored.set(`B${bi}`, tipOutcome(bookingOf(bi), tourState));

        const steps: ({ kind: 'stop'; index: number } | { kind: 'tip'; booking: number; tip: TipBooking['tip'] })[] = order.map((index) => ({ kind: 'stop' as const, index }));
        tipChanges.forEach((change, i) => steps.splice(Math.min(tipAt[i] ?? 0, steps.length), 0, { kind: 'tip', booking: change.booking, tip: change.tip }));
        for (const step of steps) {
          if (step.kind === 'tip') {
            if (!w.bookings.length) continue;
            const bi = step.booking % w.bookings.length;
            tips[bi] = step.tip;
            evaluate(bi);
            continue;
          }
          const stop = stops[step.index]!;
          stop.status = stop.result;
          const bi = stop.booking;
          if (stops.filter((s) => s.booking === bi).every((s) => s.status !== 'scheduled')) evaluate(bi);
          const t = tourState.get(stop.tourId)!;
          if (stops.filter((s) => s.tourId === t.id).every((s) => s.status !== 'scheduled')) {
            tourState.set(t.id, { ...t, status: 'completed' });
            for (const other of new Set(stops.filter((s) => s.tourId === t.id).map((s) => s.booking))) evaluate(other);
          }
        }

        const scratch = w.bookings.map((_b, bi) => tipOutcome(bookingOf(bi), tourState));
        for (const outcome of scratch) {
          // A booking never touched by a trigger has nothing stored: it is one nothing would award.
          const kept = stored.get(outcome.bookingId);
          if (kept) expect(kept).toEqual(outcome);
          else expect(outcome.status).not.toBe('awarded');
        }
        for (const id of tourIds) {
          expect(tourTips(id, stored.values())).toEqual(tourTips(id, scratch));
          // Evaluating again is a no-op.
          expect(tourTips(id, w.bookings.map((_b, bi) => tipOutcome(bookingOf(bi), tourState)))).toEqual(tourTips(id, scratch));
        }
      }),
      { numRuns: 500 },
    );
  });
});
