// Wall-clock dates and times in a service area's time zone (the console shows and takes times there, not in the
// browser's zone: docs/console.md "Shifts"; decision 1601). Dates are `YYYY-MM-DD`, times `HH:MM`.

const partsCache = new Map<string, Intl.DateTimeFormat>();
const partsFormat = (timeZone: string): Intl.DateTimeFormat => {
  let format = partsCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    partsCache.set(timeZone, format);
  }
  return format;
};

/** The zone's wall clock at an instant, as the UTC instant with the same digits. */
function wallClock(at: number, timeZone: string): number {
  const parts = partsFormat(timeZone).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second'));
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateOfUtc = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** `date` at `time` on the zone's clock, as an ISO instant. A time a clock change skips lands after the change. */
export function zonedToIso(date: string, time: string, timeZone: string): string {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  const [h = 0, min = 0] = time.split(':').map(Number);
  const digits = Date.UTC(y, m - 1, d, h, min);
  // Two passes: the offset at the first guess may differ from the offset at the answer near a clock change.
  let at = digits - (wallClock(digits, timeZone) - digits);
  at = digits - (wallClock(at, timeZone) - at);
  return new Date(at).toISOString();
}

/** An instant's date and time on the zone's clock. */
export function isoToZoned(iso: string, timeZone: string): { date: string; time: string } {
  const wall = wallClock(Date.parse(iso), timeZone);
  const d = new Date(wall);
  return { date: dateOfUtc(wall), time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` };
}

/** Today's date on the zone's clock. */
export const todayIn = (timeZone: string, now: number = Date.now()): string => dateOfUtc(wallClock(now, timeZone));

export function addDays(date: string, days: number): string {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return dateOfUtc(Date.UTC(y, m - 1, d + days));
}

/** 0 for Monday … 6 for Sunday. */
export function weekdayOf(date: string): number {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** The Monday of the week `date` is in. */
export const mondayOf = (date: string): string => addDays(date, -weekdayOf(date));
