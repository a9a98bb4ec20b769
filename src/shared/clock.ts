// The injected source of time: production reads the system clock, tests move a ManualClock.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; used by tests and benchmarks. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-06-01T08:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | string): void {
    this.current = new Date(at).getTime();
  }
  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }
  advanceSeconds(seconds: number): Date {
    return this.advance(seconds * 1000);
  }
}
