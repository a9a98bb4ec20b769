// Quiet hours on the area's clock: inside or not, and when they end, across midnight and the DST changes.
import { describe, expect, it } from 'vitest';
import { quietHoursEnd, zonedInstant } from './quiet-hours.ts';

const night = { from: '21:00', to: '07:00' };
const end = (at: string, quiet = night, zone = 'Europe/Berlin') => quietHoursEnd(new Date(at), quiet, zone)?.toISOString() ?? null;

describe('quiet hours', () => {
  it.each([
    ['2026-06-01T19:30:00Z', '2026-06-02T05:00:00.000Z'], // 21:30 CEST: ends 07:00 next morning
    ['2026-06-01T18:59:00Z', null], // 20:59
    ['2026-06-01T19:00:00Z', '2026-06-02T05:00:00.000Z'], // 21:00 is inside
    ['2026-06-01T03:00:00Z', '2026-06-01T05:00:00.000Z'], // 05:00, after midnight: ends the same morning
    ['2026-06-01T05:00:00Z', null], // 07:00 is outside
    ['2026-10-24T19:30:00Z', '2026-10-25T06:00:00.000Z'], // 21:30 CEST before the autumn change: 07:00 CET
    ['2026-03-28T20:30:00Z', '2026-03-29T05:00:00.000Z'], // 21:30 CET before the spring change: 07:00 CEST
  ])('at %s with 21:00-07:00 in Berlin ends at %s', (at, expected) => {
    expect(end(at)).toBe(expected);
  });

  it('reads hours that do not span midnight', () => {
    const lunch = { from: '12:00', to: '13:30' };
    expect(end('2026-06-01T10:15:00Z', lunch)).toBe('2026-06-01T11:30:00.000Z');
    expect(end('2026-06-01T11:30:00Z', lunch)).toBeNull();
    expect(end('2026-06-01T09:59:00Z', lunch)).toBeNull();
  });

  it("keeps to the area's zone", () => {
    expect(end('2026-06-01T19:30:00Z', night, 'America/New_York')).toBeNull(); // 15:30 there
    expect(end('2026-06-02T01:30:00Z', night, 'America/New_York')).toBe('2026-06-02T11:00:00.000Z');
  });

  it('is never quiet without hours', () => {
    expect(quietHoursEnd(new Date('2026-06-01T19:30:00Z'), null, 'Europe/Berlin')).toBeNull();
  });

  it('reads a skipped wall time after the gap and a repeated one at its first showing', () => {
    expect(zonedInstant({ year: 2026, month: 3, day: 29, minutes: 150 }, 'Europe/Berlin').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    expect(zonedInstant({ year: 2026, month: 10, day: 25, minutes: 150 }, 'Europe/Berlin').toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
});
