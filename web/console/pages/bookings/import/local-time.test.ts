import { describe, expect, it } from 'vitest';
import { readTime, zonedToUtc } from './local-time.ts';

const at = (text: string, date = '', zone = 'Europe/Monaco') => readTime(text, date, zone);

describe('readTime', () => {
  it('reads a time with a zone as written', () => {
    expect(at('2026-12-01T14:00:00Z')).toEqual({ at: '2026-12-01T14:00:00.000Z' });
    expect(at('2026-12-01T14:00:00+02:00')).toEqual({ at: '2026-12-01T12:00:00.000Z' });
  });

  it('reads a time without a zone in the service area’s zone: winter +01:00, summer +02:00', () => {
    expect(at('2026-12-01 14:00')).toEqual({ at: '2026-12-01T13:00:00.000Z' });
    expect(at('2026-07-01T14:00')).toEqual({ at: '2026-07-01T12:00:00.000Z' });
    expect(at('01.12.2026 09:30')).toEqual({ at: '2026-12-01T08:30:00.000Z' });
    expect(at('2026-12-01 14:00', '', 'America/New_York')).toEqual({ at: '2026-12-01T19:00:00.000Z' });
  });

  it('joins a time-only cell with the row’s date, ISO or German', () => {
    expect(at('14:00', '2026-12-01')).toEqual({ at: '2026-12-01T13:00:00.000Z' });
    expect(at('9.15 Uhr', '24.07.2026')).toEqual({ at: '2026-07-24T07:15:00.000Z' });
    expect(at('14:00')).toEqual({ problem: 'needs_date' });
    expect(at('14:00', 'tomorrow')).toEqual({ problem: 'not_a_time' });
  });

  it('refuses what is not a time', () => {
    for (const text of ['noon', '2026-13-01 10:00', '2026-02-30 10:00', '25:00', '2026-12-01T10:00:00+99']) expect(at(text, '2026-12-01')).toEqual({ problem: 'not_a_time' });
  });

  it('handles the DST changes: the skipped hour is read as the hour after, the doubled hour as its first', () => {
    // Europe/Monaco 2026: clocks go 02:00 → 03:00 on 29 March and 03:00 → 02:00 on 25 October.
    expect(at('2026-03-29 01:30')).toEqual({ at: '2026-03-29T00:30:00.000Z' });
    expect(at('2026-03-29 02:30')).toEqual({ at: '2026-03-29T01:30:00.000Z' });
    expect(at('2026-03-29 03:30')).toEqual({ at: '2026-03-29T01:30:00.000Z' });
    expect(at('2026-10-25 02:30')).toEqual({ at: '2026-10-25T00:30:00.000Z' });
    expect(at('2026-10-25 03:30')).toEqual({ at: '2026-10-25T02:30:00.000Z' });
    expect(zonedToUtc({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, 'America/New_York').toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });
});
