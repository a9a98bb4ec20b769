// The Analytics page's periods: a service area's days, including one a daylight-saving change makes 23 hours long.
import { describe, expect, it } from 'vitest';
import { datesOf, isDate, periodOf, presetDays } from './period.ts';

describe('analytics periods', () => {
  const berlinMorning = Date.parse('2026-03-30T06:00:00Z');

  it('makes yesterday and the seven days before today of the area, never today', () => {
    expect(presetDays('yesterday', 'Europe/Berlin', berlinMorning)).toEqual({ first: '2026-03-29', last: '2026-03-29' });
    expect(presetDays('last_7_days', 'Europe/Berlin', berlinMorning)).toEqual({ first: '2026-03-23', last: '2026-03-29' });
    // 23:30 UTC on the 29th is already the 30th in Berlin, still the 29th in New York.
    const late = Date.parse('2026-03-29T23:30:00Z');
    expect(presetDays('yesterday', 'Europe/Berlin', late).first).toBe('2026-03-29');
    expect(presetDays('yesterday', 'America/New_York', late).first).toBe('2026-03-28');
  });

  it('answers the area’s midnights, a 23-hour day on the change to summer time', () => {
    expect(periodOf({ first: '2026-03-29', last: '2026-03-29' }, 'Europe/Berlin')).toEqual({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' });
    expect(periodOf({ first: '2026-11-01', last: '2026-11-07' }, 'Europe/Berlin')).toEqual({ from: '2026-10-31T23:00:00.000Z', to: '2026-11-07T23:00:00.000Z' });
    expect(periodOf({ first: '2026-06-01', last: '2026-06-01' }, 'UTC')).toEqual({ from: '2026-06-01T00:00:00.000Z', to: '2026-06-02T00:00:00.000Z' });
  });

  it('lists every date of the days and checks a date field', () => {
    expect(datesOf({ first: '2026-02-27', last: '2026-03-02' })).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(datesOf({ first: '2026-03-02', last: '2026-03-01' })).toEqual([]);
    expect(isDate('2026-03-02')).toBe(true);
    expect(isDate('2026-3-2')).toBe(false);
    expect(isDate('')).toBe(false);
    expect(isDate(null)).toBe(false);
  });
});
