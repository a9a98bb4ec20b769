// The Analytics page's periods as days of one service area (decision 1746): yesterday, the seven days before today,
// or a range of dates, each turned into the API's `from` (included) and `to` (excluded) at that zone's midnights.
import { addDays, todayIn, zonedToIso } from '../../../ui/zoned-time.ts';

export type PeriodKind = 'yesterday' | 'last_7_days' | 'range';

/** The first and last day (both included), `YYYY-MM-DD` on the area's clock. */
export interface Days {
  first: string;
  last: string;
}

/** Today is never in a preset: its figures are still moving, and the morning's question is how the days before went. */
export function presetDays(kind: Exclude<PeriodKind, 'range'>, timeZone: string, now: number = Date.now()): Days {
  const today = todayIn(timeZone, now);
  return kind === 'yesterday' ? { first: addDays(today, -1), last: addDays(today, -1) } : { first: addDays(today, -7), last: addDays(today, -1) };
}

/** The API's period for these days: the first day's midnight to the midnight after the last, in the area's zone. */
export const periodOf = (days: Days, timeZone: string): { from: string; to: string } => ({
  from: zonedToIso(days.first, '00:00', timeZone),
  to: zonedToIso(addDays(days.last, 1), '00:00', timeZone),
});

/** Every date from the first to the last, so days without a finished stop are drawn as 0 (decision 1743). */
export function datesOf(days: Days): string[] {
  const dates: string[] = [];
  for (let d = days.first; d <= days.last && dates.length < 401; d = addDays(d, 1)) dates.push(d);
  return dates;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const isDate = (value: string | null | undefined): value is string => !!value && DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
