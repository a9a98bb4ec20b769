// Window times as a spreadsheet writes them → instants. A time with a zone ("…Z", "+01:00") is taken as written;
// one without is the service area's local time (contract §14), converted with the zone's rules from Intl, so a day
// across a DST change gets the right offset. A local time that does not exist (the hour skipped in spring) is read
// with the offset before the change, i.e. the hour after it; one that exists twice (autumn) is the first of the two
// (decision 1582).

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

function localOf(instant: number, timeZone: string): LocalParts {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) % 24, minute: Number(parts.minute), second: Number(parts.second) };
}

const asUtc = (p: LocalParts): number => Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);

/** The zone's offset (ms east of UTC) at an instant. */
const offsetAt = (instant: number, timeZone: string): number => asUtc(localOf(Math.floor(instant / 1000) * 1000, timeZone)) - Math.floor(instant / 1000) * 1000;

/** The instant a local wall-clock time names in a zone. */
export function zonedToUtc(local: LocalParts, timeZone: string): Date {
  const wall = asUtc(local);
  const before = offsetAt(wall - 86_400_000 / 2, timeZone);
  const after = offsetAt(wall + 86_400_000 / 2, timeZone);
  const candidates = [wall - before, wall - after].filter((t) => asUtc(localOf(t, timeZone)) === wall).sort((a, b) => a - b);
  return new Date(candidates[0] ?? wall - before);
}

const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const GERMAN = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME_ONLY = /^(\d{1,2})[:.](\d{2})(?::(\d{2}))?(?:\s*uhr)?$/i;
const WITH_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/i;

export type TimeResult = { at: string } | { problem: 'not_a_time' | 'needs_date' };

function valid(p: LocalParts): boolean {
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.hour > 23 || p.minute > 59 || p.second > 59) return false;
  const d = new Date(Date.UTC(p.year, p.month - 1, p.day));
  return d.getUTCDate() === p.day;
}

const dateOf = (text: string): Pick<LocalParts, 'year' | 'month' | 'day'> | null => {
  const iso = ISO_LOCAL.exec(text);
  if (iso && iso[4] === undefined) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const de = GERMAN.exec(text);
  if (de && de[4] === undefined) return { year: Number(de[3]), month: Number(de[2]), day: Number(de[1]) };
  return null;
};

/**
 * A window cell → its instant (ISO 8601, UTC). `date` is the row's date column, for cells that hold only a time
 * ("14:00"); formats: ISO 8601 with or without a zone, "2026-12-01 14:00", German "01.12.2026 14:00".
 */
export function readTime(text: string, date: string, timeZone: string): TimeResult {
  const value = text.trim();
  if (WITH_ZONE.test(value) && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const at = Date.parse(value);
    return Number.isNaN(at) ? { problem: 'not_a_time' } : { at: new Date(at).toISOString() };
  }
  let parts: LocalParts | null = null;
  const iso = ISO_LOCAL.exec(value);
  const de = GERMAN.exec(value);
  const time = TIME_ONLY.exec(value);
  if (iso && iso[4] !== undefined) parts = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]), hour: Number(iso[4]), minute: Number(iso[5]), second: Number(iso[6] ?? 0) };
  else if (de && de[4] !== undefined) parts = { year: Number(de[3]), month: Number(de[2]), day: Number(de[1]), hour: Number(de[4]), minute: Number(de[5]), second: Number(de[6] ?? 0) };
  else if (time) {
    const day = dateOf(date.trim());
    if (!day) return { problem: date.trim() ? 'not_a_time' : 'needs_date' };
    parts = { ...day, hour: Number(time[1]), minute: Number(time[2]), second: Number(time[3] ?? 0) };
  }
  if (!parts || !valid(parts)) return { problem: 'not_a_time' };
  return { at: zonedToUtc(parts, timeZone).toISOString() };
}
