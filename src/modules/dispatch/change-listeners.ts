// Change listeners: modules that react to dispatch changes in their transaction (compensation's tip distribution) or
// add to its responses (a booking's tip_distribution) register here, so dispatch calls them without importing them.
import type { Queryable, Tx } from '../../db/client.ts';

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

/** A booking's `tip_distribution` (CONTRACT.md §7), decided and stored by the compensation module. */
export interface BookingTipDistribution {
  tour_id: string | null;
  status: string;
  reason: string;
}

/** `fresh`: the bookings were just created, so nothing was evaluated for them yet and nothing needs reading. */
type TipDistributionReader = (
  q: Queryable,
  tenantId: string,
  bookings: { id: string; tip: { amount: number } | null }[],
  options: { fresh: boolean },
) => Promise<Map<string, BookingTipDistribution>>;
let tipDistributionReader: TipDistributionReader | null = null;

export function provideTipDistribution(reader: TipDistributionReader): void {
  tipDistributionReader = reader;
}

export async function tipDistributionOf(
  q: Queryable,
  tenantId: string,
  bookings: { id: string; tip: { amount: number } | null }[],
  options: { fresh: boolean },
): Promise<Map<string, BookingTipDistribution>> {
  return tipDistributionReader ? tipDistributionReader(q, tenantId, bookings, options) : new Map();
}
