// In-transaction hooks: modules that react to dispatch changes (compensation's tip distribution) register here, so
// dispatch calls them without importing them.
import type { Tx } from '../../db/client.ts';

export interface DispatchChange {
  tenantId: string;
  at: Date;
  /** Tours that completed in this change. */
  completedTourIds: string[];
  /** Bookings whose tip changed, or that reached a final state (all their stops final), in this change. */
  bookingIds: string[];
}

type Hook = (tx: Tx, change: DispatchChange) => Promise<void>;
const hooks: Hook[] = [];

export function onDispatchChange(hook: Hook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export async function dispatchChanged(tx: Tx, change: DispatchChange): Promise<void> {
  if (!change.completedTourIds.length && !change.bookingIds.length) return;
  for (const hook of hooks) await hook(tx, change);
}
