// The coalescing window of tour.driver_location_updated webhooks: at most one per tour per window, latest position.
export const LOCATION_WEBHOOK_WINDOW_SECONDS = 10;

/**
 * When the pending webhook of a tour goes out. A position that finds one pending joins it (the event is built
 * from the latest position when it fires); otherwise it opens a new window. Because a window opens only after
 * the previous one fired, two webhooks of a tour are always at least one window apart, and a position waits at
 * most one window.
 */
export function coalescedDueAt(pendingDueAt: Date | null, now: Date, windowSeconds = LOCATION_WEBHOOK_WINDOW_SECONDS): Date {
  return pendingDueAt ?? new Date(now.getTime() + windowSeconds * 1000);
}

/** The emission times a stream of positions produces under coalescedDueAt (the worker runs jobs when due). */
export function coalescedEmissions(positionTimes: readonly number[], windowSeconds = LOCATION_WEBHOOK_WINDOW_SECONDS): number[] {
  const emitted: number[] = [];
  let pending: number | null = null;
  for (const at of [...positionTimes].sort((a, b) => a - b)) {
    if (pending !== null && pending <= at) {
      emitted.push(pending);
      pending = null;
    }
    pending = coalescedDueAt(pending === null ? null : new Date(pending), new Date(at), windowSeconds).getTime();
  }
  if (pending !== null) emitted.push(pending);
  return emitted;
}
