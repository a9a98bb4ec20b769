// A service area's SMS quiet hours (contract §18, decision 1772): whether an instant falls inside them on the area's
// clock, and the instant they end. Pure: the clock and the zone are given; DST is the zone's (Intl's) business.
import { localParts, zonedInstant } from '../../shared/local-time.ts';

export interface QuietHours {
  /** "HH:MM", local time in the area's zone. */
  from: string;
  to: string;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

// The zone arithmetic is shared with the recipient's later day (decision 1788); re-exported for its tests.
export { zonedInstant };

/**
 * Null when `at` is outside the quiet hours; else the instant they end — today's `to` on the area's clock, or
 * tomorrow's when they span midnight and `at` is before it. `from` is inside, `to` is not.
 */
export function quietHoursEnd(at: Date, quiet: QuietHours | null, timeZone: string): Date | null {
  if (!quiet) return null;
  const from = minutesOf(quiet.from);
  const to = minutesOf(quiet.to);
  if (from === to) return null;
  const local = localParts(at, timeZone);
  const now = local.hour * 60 + local.minute;
  const inside = from < to ? now >= from && now < to : now >= from || now < to;
  if (!inside) return null;
  const nextDay = from > to && now >= from;
  const date = new Date(Date.UTC(local.year, local.month - 1, local.day + (nextDay ? 1 : 0)));
  const end = zonedInstant({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), minutes: to }, timeZone);
  // The hour an autumn night shows twice: `to` was shown before, in its first pass — the quiet hours are over.
  return end > at ? end : null;
}
