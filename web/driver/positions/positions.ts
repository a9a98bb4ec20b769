// Positions while a tour is en route (docs/driver-app.md "Positions"): one fix kept per interval, sent oldest first to
// POST /api/hailing/tours/{id}/driver_location. Without a connection the fixes wait (capped) and go out in order when
// it returns; the API keeps a late fix in the history without moving the current position (api-guide "Positions").
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

export type FixSender = (fix: Fix) => Promise<'sent' | 'dropped' | 'retry'>;

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

  /** Sends the waiting fixes in order; stops at the first that must wait for the connection. */
  flush(send: FixSender): Promise<void> {
    this.sending ??= (async () => {
      while (this.fixes.length) {
        const fix = this.fixes[0]!;
        const outcome = await send(fix).catch(() => 'retry' as const);
        if (outcome === 'retry') return;
        this.fixes = this.fixes.slice(1);
        this.save(this.fixes);
      }
    })().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }
}
