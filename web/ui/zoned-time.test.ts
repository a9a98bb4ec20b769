import { describe, expect, it } from 'vitest';
import { addDays, isoToZoned, mondayOf, todayIn, weekdayOf, zonedToIso } from './zoned-time.ts';

describe('zoned time', () => {
  it('reads a wall-clock time in the zone, also across a clock change', () => {
    expect(zonedToIso('2026-12-01', '07:00', 'Europe/Monaco')).toBe('2026-12-01T06:00:00.000Z');
    expect(zonedToIso('2026-07-01', '07:00', 'Europe/Monaco')).toBe('2026-07-01T05:00:00.000Z');
    expect(zonedToIso('2026-12-01', '07:00', 'America/New_York')).toBe('2026-12-01T12:00:00.000Z');
    // 2026-03-29 02:30 does not exist in Central Europe: it lands after the change, at 03:30 summer time.
    expect(isoToZoned(zonedToIso('2026-03-29', '02:30', 'Europe/Berlin'), 'Europe/Berlin').time).toBe('03:30');
    // The day before and after the autumn change keeps its clock time.
    expect(zonedToIso('2026-10-25', '07:00', 'Europe/Berlin')).toBe('2026-10-25T06:00:00.000Z');
    expect(zonedToIso('2026-10-24', '07:00', 'Europe/Berlin')).toBe('2026-10-24T05:00:00.000Z');
  });

  it('shows an instant on the zone’s clock', () => {
    expect(isoToZoned('2026-12-01T23:30:00.000Z', 'Europe/Monaco')).toEqual({ date: '2026-12-02', time: '00:30' });
    expect(isoToZoned('2026-12-01T23:30:00.000Z', 'UTC')).toEqual({ date: '2026-12-01', time: '23:30' });
    expect(todayIn('Asia/Tokyo', Date.parse('2026-12-01T20:00:00Z'))).toBe('2026-12-02');
  });

  it('counts days and weeks', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(weekdayOf('2026-11-30')).toBe(0); // a Monday
    expect(weekdayOf('2026-12-06')).toBe(6);
    expect(mondayOf('2026-12-06')).toBe('2026-11-30');
    expect(mondayOf('2026-11-30')).toBe('2026-11-30');
  });
});
