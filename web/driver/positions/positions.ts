// Positions while a tour is en route (docs/driver-app.md "Positions"): one fix kept per interval, sent oldest first.
// Without a connection the fixes wait (capped) and go out in order when it returns, batched: up to 720 of one tour in
// one request (POST /api/hailing/tours/{id}/driver_locations, decision 1207); the API keeps late fixes in the history
// and moves the current position once, to the newest (api-guide "Positions").
// A refused fix (the tour ended meanwhile) is dropped: a position is not a driver's action.

/** One fix per 10 s: webhooks coalesce positions to one per tour per 10 s (decision 1203), more is not seen. */
export const INTERVAL_MS = 10_000;
/** Two hours of fixes at the interval: enough for a long dead zone, bounded on the phone. */
export const MAX_WAITING = 720;

export interface Fix {
  tourId: string;
  lat: number;
  lng: number;
  heading?: number;
  speed?: number;
  accuracy?: number;
  recorded_at: string;
}

/**
 * What the API said to fixes of one tour: stored; to be tried again later; or refused — `bad` names the fixes it
 * refused by their index in the batch (the others may go again), none named means all of them.
 */
export type SendOutcome = { kind: 'sent' } | { kind: 'retry' } | { kind: 'dropped'; bad?: number[] };

/** Sends fixes of one tour, oldest first (one, or a batch of up to MAX_WAITING). */
export type FixSender = (tourId: string, fixes: Fix[]) => Promise<SendOutcome>;

export class PositionBuffer {
  private fixes: Fix[];
  private lastRecorded = 0;
  private sending: Promise<void> | null = null;

  constructor(
    private readonly save: (fixes: Fix[]) => void,
    initial: Fix[] = [],
    private readonly interval = INTERVAL_MS,
  ) {
    this.fixes = initial.slice(-MAX_WAITING);
  }

  get waiting(): readonly Fix[] {
    return this.fixes;
  }

  /** Keeps the fix when the interval has passed since the last kept one (by the device's fix time). */
  record(fix: Fix): boolean {
    const at = Date.parse(fix.recorded_at);
    if (at - this.lastRecorded < this.interval) return false;
    this.lastRecorded = at;
    this.fixes = [...this.fixes, fix].slice(-MAX_WAITING);
    this.save(this.fixes);
    return true;
  }

  /**
   * Sends the waiting fixes in order, as many of one tour at a time as there are; stops at the first batch that must
   * wait for the connection. Fixes recorded meanwhile wait for the next round.
   */
  flush(send: FixSender): Promise<void> {
    this.sending ??= (async () => {
      while (this.fixes.length) {
        const tourId = this.fixes[0]!.tourId;
        const end = this.fixes.findIndex((fix) => fix.tourId !== tourId);
        const batch = this.fixes.slice(0, end === -1 ? this.fixes.length : end);
        const outcome = await send(tourId, batch).catch((): SendOutcome => ({ kind: 'retry' }));
        if (outcome.kind === 'retry') return;
        // The fixes named as bad go; when some were named, the others are sent again (each round removes one or more).
        const named = outcome.kind === 'dropped' ? (outcome.bad ?? []).flatMap((i) => batch[i] ?? []) : [];
        const gone = new Set(named.length ? named : batch);
        this.fixes = this.fixes.filter((fix) => !gone.has(fix));
        this.save(this.fixes);
      }
    })().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }
}

/** The indexes of the fixes a batch's 422 names (`/locations/3/lat` → 3). */
export function badFixes(problem: unknown): number[] {
  const errors = problem && typeof problem === 'object' ? (problem as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors)) return [];
  const indexes = errors.map((error) => /^\/locations\/(\d+)(\/|$)/.exec(String((error as { pointer?: unknown })?.pointer ?? ''))?.[1]).filter((i): i is string => i !== undefined);
  return [...new Set(indexes.map(Number))];
}
