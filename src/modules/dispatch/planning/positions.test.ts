// Open stops around fixed ones (inFreePositions): fixed stops never move, precedence with them holds, and the wanted
// order is kept wherever it may be.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dropoffsBeforePickups } from '../stops/index.ts';
import { inFreePositions } from './positions.ts';
import type { PlanStop } from './problem.ts';

const stop = (id: string, status = 'scheduled', over: Partial<PlanStop> = {}): PlanStop => ({
  id, bookingId: null, type: 'task', status: status as PlanStop['status'], lat: 0, lng: 0, timeWindowStartsAt: null, timeWindowEndsAt: null, serviceDurationSeconds: 0, ...over,
});
const fixed = (s: PlanStop) => s.status !== 'scheduled';
const ids = (stops: PlanStop[] | null) => stops?.map((s) => s.id) ?? null;
const link = (p: string, d: string) => ({ pickupStopId: p, dropoffStopId: d });

describe('inFreePositions', () => {
  const [a, b, c, d] = [stop('a'), stop('b'), stop('c'), stop('d')];
  const done = stop('done', 'completed');
  const cases: { name: string; tour: PlanStop[]; links: ReturnType<typeof link>[]; open: PlanStop[]; expected: string[] | null }[] = [
    { name: 'the open stops fill the free positions in the wanted order', tour: [a, done, b, c], links: [], open: [c, a, b], expected: ['c', 'done', 'a', 'b'] },
    { name: 'a drop-off whose pickup was served goes after that pickup, the rest keep their order', tour: [a, done, b, c], links: [link('done', 'a')], open: [a, c, b], expected: ['c', 'done', 'a', 'b'] },
    { name: 'an open pickup goes before its fixed drop-off', tour: [a, b, stop('x', 'cancelled'), c], links: [link('c', 'x')], open: [a, b, c], expected: ['a', 'c', 'x', 'b'] },
    {
      name: 'no filling: three stops due before a fixed one with two positions before it',
      tour: [a, b, stop('x', 'cancelled'), c],
      links: [link('a', 'x'), link('b', 'x'), link('c', 'x')],
      open: [a, b, c],
      expected: null,
    },
    {
      name: 'two stops due before a fixed one go first although another is wanted first',
      tour: [a, b, stop('x', 'cancelled'), c],
      links: [link('a', 'x'), link('b', 'x')],
      open: [c, a, b],
      expected: ['a', 'b', 'x', 'c'],
    },
    { name: 'nothing fixed: the wanted order', tour: [a, b, c, d], links: [], open: [d, c, b, a], expected: ['d', 'c', 'b', 'a'] },
  ];
  it.each(cases)('$name', ({ tour, links, open, expected }) => expect(ids(inFreePositions(tour, links, open, fixed))).toEqual(expected));

  it('from any valid tour and any wanted order of its open stops: fixed stops stay, precedence holds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('scheduled', 'scheduled', 'completed', 'failed', 'arrived'), { minLength: 1, maxLength: 9 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 9, maxLength: 9 }),
        (statuses, pairs, keys) => {
          const tour = statuses.map((status, i) => stop(`s${i}`, status));
          // Links from an earlier to a later position: the current order is valid, as every tour's is.
          const links = pairs.map(([x, y]) => [x % tour.length, y % tour.length] as const).filter(([x, y]) => x < y).map(([x, y]) => link(`s${x}`, `s${y}`));
          const open = tour.filter((s) => !fixed(s)).sort((x, y) => keys[Number(x.id.slice(1))]! - keys[Number(y.id.slice(1))]!);
          const order = inFreePositions(tour, links, open, fixed);
          // The current order is one filling, so there always is one.
          expect(order).not.toBeNull();
          if (!order) return;
          tour.forEach((s, i) => fixed(s) && expect(order[i]).toBe(s));
          expect(ids(order)!.sort()).toEqual(ids(tour)!.sort());
          expect(dropoffsBeforePickups(order.map((s) => ({ ...s, type: 'task' })), links)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
