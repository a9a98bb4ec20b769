// A service area's SMS quiet hours (contract §18, decision 1772): whether an instant falls inside them on the area's
// clock, and the instant they end. Pure: the clock and the zone are given; DST is the zone's (Intl's) business.

export interface QuietHours {
  /** "HH:MM", local time in the area's zone. */
  from: string;
  to: string;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function localParts(at: Date, timeZone: string): LocalParts {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute! };
}

/** The zone's offset from UTC at an instant, in milliseconds (to the minute). */
function offsetMs(at: number, timeZone: string): number {
  const p = localParts(new Date(at), timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(at / 60_000) * 60_000;
}

/**
 * The instant the area's clock reads the given wall time. A wall time the clock shows twice (autumn) is its first
 * showing; one it skips (spring: 02:30 in Berlin) is read with the offset before the change, which lands after the gap.
 */
export function zonedInstant(local: { year: number; month: number; day: number; minutes: number }, timeZone: string): Date {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, 0, local.minutes);
  const candidates = [...new Set([offsetMs(asUtc - 43_200_000, timeZone), offsetMs(asUtc + 43_200_000, timeZone)])].map((o) => asUtc - o);
  const shown = candidates.filter((c) => {
    const p = localParts(new Date(c), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) === asUtc;
  });
  return new Date(shown.length ? Math.min(...shown) : Math.max(...candidates));
}

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
