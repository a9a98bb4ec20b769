import { describe, expect, it } from 'vitest';
import { busynessOf, changedAreas } from './busyness.ts';

describe('busynessOf', () => {
  it.each([
    [0, 0, 0],
    [0, 5, 0],
    [1, 0, 100],
    [1, 1, 100],
    [5, 1, 100],
    [1, 2, 50],
    [1, 3, 30],
    [1, 4, 20],
    [2, 3, 60],
    [3, 10, 30],
    [1, 10, 10],
    [1, 11, 0],
    [9, 10, 90],
    [10, 10, 100],
  ])('%i open tours and %i busy drivers → %i', (openTours, busyDrivers, expected) => {
    expect(busynessOf(openTours, busyDrivers)).toBe(expected);
  });
});

describe('changedAreas', () => {
  const A = 'a';
  const B = 'b';
  it.each([
    ['a first reading above 0 is a change from 0', [{ serviceAreaId: A, openTours: 1, busyDrivers: 2 }], [], [{ serviceAreaId: A, busyness: 50, previousBusyness: 0 }]],
    ['a first reading of 0 is no change', [{ serviceAreaId: A, openTours: 0, busyDrivers: 2 }], [], []],
    ['the same step is no change', [{ serviceAreaId: A, openTours: 1, busyDrivers: 2 }], [[A, 50]], []],
    ['a new step is a change', [{ serviceAreaId: A, openTours: 1, busyDrivers: 4 }], [[A, 50]], [{ serviceAreaId: A, busyness: 20, previousBusyness: 50 }]],
    ['an area without open tours any more drops to 0', [], [[A, 30]], [{ serviceAreaId: A, busyness: 0, previousBusyness: 30 }]],
    [
      'areas are judged independently',
      [
        { serviceAreaId: A, openTours: 1, busyDrivers: 1 },
        { serviceAreaId: B, openTours: 1, busyDrivers: 1 },
      ],
      [[A, 100]],
      [{ serviceAreaId: B, busyness: 100, previousBusyness: 0 }],
    ],
  ] as const)('%s', (_name, loads, previous, expected) => {
    expect(changedAreas([...loads], new Map(previous.map(([k, v]) => [k, v])))).toEqual(expected);
  });
});
