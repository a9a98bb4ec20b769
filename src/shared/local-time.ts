// Wall-clock arithmetic in an IANA zone with Intl alone (no library): the parts an instant shows on a zone's clock, the
// instant a wall time is shown, and moving an instant by whole local days. DST is the zone's (Intl's) business.

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
export function localParts(at: Date, timeZone: string): LocalParts {
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
 * The instant the zone's clock reads the given wall time. A wall time the clock shows twice (autumn) is its first
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

/** The day `at` shows on the zone's clock, as YYYY-MM-DD. */
export function localDay(at: Date, timeZone: string): string {
  const p = localParts(at, timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** Whole days from one YYYY-MM-DD to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** The YYYY-MM-DD `days` after `day`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The instant showing the same wall time as `at`, `days` local days later: 09:00 stays 09:00 across a DST change
 * (a wall time the new day skips lands after the gap, as zonedInstant reads it).
 */
export function shiftLocalDays(at: Date, days: number, timeZone: string): Date {
  const p = localParts(at, timeZone);
  const day = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
  const seconds = at.getUTCSeconds() * 1000 + at.getUTCMilliseconds();
  return new Date(zonedInstant({ year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), minutes: p.hour * 60 + p.minute }, timeZone).getTime() + seconds);
}
