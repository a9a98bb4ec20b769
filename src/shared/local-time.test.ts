import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, localDay, shiftLocalDays } from './local-time.ts';

describe('local days in a zone', () => {
  it('keeps the wall-clock time across a DST change', () => {
    // 24 October 2026, 09:00 in Berlin is CEST (07:00 UTC); a day later it is CET (08:00 UTC).
    expect(shiftLocalDays(new Date('2026-10-24T07:00:00Z'), 1, 'Europe/Berlin').toISOString()).toBe('2026-10-25T08:00:00.000Z');
    expect(shiftLocalDays(new Date('2026-03-28T08:30:00Z'), 2, 'Europe/Berlin').toISOString()).toBe('2026-03-30T07:30:00.000Z');
    expect(shiftLocalDays(new Date('2026-06-02T12:00:00Z'), 2, 'UTC').toISOString()).toBe('2026-06-04T12:00:00.000Z');
  });

  it("names the day on the zone's clock and counts days between", () => {
    expect(localDay(new Date('2026-06-02T23:00:00Z'), 'Europe/Berlin')).toBe('2026-06-03');
    expect(localDay(new Date('2026-06-02T23:00:00Z'), 'America/New_York')).toBe('2026-06-02');
    expect(daysBetween('2026-06-02', '2026-06-04')).toBe(2);
    expect(daysBetween('2026-10-24', '2026-10-26')).toBe(2);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
});
