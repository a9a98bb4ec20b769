// What other modules plug into dispatch without dispatch importing them (no import loops): a hook run in the
// transaction of every settled change of tours that a driver holds, and the reader of stop ETAs that stops render.
import type { Queryable, Tx } from '../../db/client.ts';

export interface TrackedToursChanged {
  tenantId: string;
  at: Date;
  /** Tours touched by the change; `tracked` while a driver holds them (claimed or en route) after it. */
  tours: { id: string; tracked: boolean }[];
  /** What caused it: the settle event (start, stop_completed, fail_stop, dispatch, stop_added, cancel, …). */
  event: string;
}

export type TrackedToursHook = (tx: Tx, change: TrackedToursChanged) => Promise<void>;
/** Each stop's ETA with the tour it was computed on: a stop that moved to another tour since has none. */
export type StopEtaReader = (q: Queryable, tenantId: string, stopIds: readonly string[]) => Promise<Map<string, { tourId: string; eta: Date }>>;

const hooks: TrackedToursHook[] = [];
let etaReader: StopEtaReader | null = null;

/** Registered once at module load (live tracking recomputes ETAs: decision 0903). */
export function onTrackedToursChanged(hook: TrackedToursHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export async function trackedToursChanged(tx: Tx, change: TrackedToursChanged): Promise<void> {
  if (!change.tours.length) return;
  for (const hook of hooks) await hook(tx, change);
}

export function provideStopEtas(reader: StopEtaReader): void {
  etaReader = reader;
}

/** The ETAs of the given stops (none without a provider). */
export async function stopEtas(q: Queryable, tenantId: string, stopIds: readonly string[]): Promise<Map<string, { tourId: string; eta: Date }>> {
  return etaReader && stopIds.length ? etaReader(q, tenantId, stopIds) : new Map();
}
