import { describe, expect, it } from 'vitest';
import { dropoffsBeforePickups } from './tour-order.ts';

const s = (id: string, bookingId: string | null, type: string) => ({ id, bookingId, type });

describe('pickups before drop-offs', () => {
  it('accepts pickups followed by their drop-offs, interleaved across bookings', () => {
    expect(dropoffsBeforePickups([s('p1', 'b1', 'pickup'), s('p2', 'b2', 'pickup'), s('d1', 'b1', 'dropoff'), s('d2', 'b2', 'dropoff')], [])).toEqual([]);
  });

  it('names a drop-off placed before its booking’s pickup', () => {
    expect(dropoffsBeforePickups([s('d1', 'b1', 'dropoff'), s('p1', 'b1', 'pickup')], [])).toEqual(['d1']);
  });

  it('ignores another booking’s pickup and tour-only stops', () => {
    expect(dropoffsBeforePickups([s('d1', 'b1', 'dropoff'), s('p2', 'b2', 'pickup'), s('x', null, 'pickup')], [])).toEqual([]);
  });

  it('names a package drop-off before the package’s pickup whatever the stop types', () => {
    expect(dropoffsBeforePickups([s('b', 'b1', 'task'), s('a', 'b1', 'task')], [{ pickupStopId: 'a', dropoffStopId: 'b' }])).toEqual(['b']);
  });

  it('accepts a drop-off whose pickup is on another tour', () => {
    expect(dropoffsBeforePickups([s('d1', 'b1', 'dropoff')], [{ pickupStopId: 'p1', dropoffStopId: 'd1' }])).toEqual([]);
  });
});
