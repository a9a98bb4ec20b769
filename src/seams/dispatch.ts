// Dispatch's seams (Deps.hooks.dispatch): other modules react inside dispatch's transactions, and dispatch renders what
// they own (stop ETAs, a booking's tip distribution). Declared below the modules so that Deps names them without
// importing dispatch (decision 0212); dispatch calls them, live and compensation answer them (src/hooks.ts).
import type { Placeholder } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/client.ts';
import type { JsonPart } from '../db/json-read.ts';
import type { TravelSource } from './travel.ts';

/** A stop's ETA as live tracking keeps it (`stopEtas`): the tour it was computed on and the travel source of its times. */
export interface StopEta {
  tourId: string;
  eta: Date;
  /** Null on an ETA stored before its source was kept (migration 0027). */
  travelSource: TravelSource | null;
}

/** The tours a settled change touched (`trackedToursChanged`). */
export interface TrackedToursChanged {
  tenantId: string;
  at: Date;
  /** Tours touched by the change; `tracked` while a driver holds them (claimed or en route) after it. */
  tours: { id: string; tracked: boolean }[];
  /** What caused it: the settle event (start, stop_completed, fail_stop, dispatch, stop_added, cancel, …). */
  event: string;
}

/** What may move a tip's distribution (`tipFactsChanged`). */
export interface DispatchChange {
  tenantId: string;
  at: Date;
  /** Tours that completed in this change. */
  completedTourIds: string[];
  /** Bookings whose tip changed, or that reached a final state (all their stops final), in this change. */
  bookingIds: string[];
}

/** A booking's `tip_distribution` (docs/api-guide.md "Tour compensation, tips and legacy earnings"), decided and stored by the compensation module. */
export interface BookingTipDistribution {
  tour_id: string | null;
  status: string;
  reason: string;
}

/** Where tipDistribution takes each booking's evaluated outcome from: nowhere (just created), a read, or given. */
export type TipDistributionSource = { fresh: boolean } | { evaluated: Map<string, BookingTipDistribution | null> };

/**
 * The reactions are called inside the transaction of the dispatch write that caused them, after its rows and events
 * are written and settled, with the transaction handle only. A hook that throws rolls the write back. The readers
 * add another module's data to what dispatch renders.
 */
export interface DispatchHooks {
  /** Every settled change touching tours (never with none): live tracking recomputes or drops their ETAs (decision 0903). */
  trackedToursChanged(tx: Tx, change: TrackedToursChanged): Promise<void>;
  /** Tours completed, bookings finished or a tip changed (never with none): compensation schedules tip distribution. */
  tipFactsChanged(tx: Tx, change: DispatchChange): Promise<void>;
  /** Each stop's ETA with the tour it was computed on and its travel source (live tracking); called with at least one stop. */
  stopEtas(q: Queryable, tenantId: string, stopIds: readonly string[]): Promise<Map<string, StopEta>>;
  /**
   * Each booking's tip_distribution (compensation). `fresh`: the bookings were just created, so nothing was evaluated
   * for them yet and nothing needs reading; `evaluated`: the outcomes were read already (by `tipOutcomeRead`).
   */
  tipDistribution(
    q: Queryable,
    tenantId: string,
    bookings: { id: string; tip: { amount: number } | null }[],
    options: TipDistributionSource,
  ): Promise<Map<string, BookingTipDistribution>>;
  /**
   * Compensation's part of the one-statement booking read (decision 0312): the booking's evaluated tip outcome, bound
   * to the read's own placeholders. Null when no module stores outcomes.
   */
  tipOutcomeRead: ((tenantId: Placeholder, bookingId: Placeholder) => JsonPart<BookingTipDistribution | null>) | null;
}

/** Every reaction a no-op and every reader empty: the default until a module wires its part (src/hooks.ts). */
export const NO_DISPATCH_HOOKS: DispatchHooks = {
  trackedToursChanged: async () => undefined,
  tipFactsChanged: async () => undefined,
  stopEtas: async () => new Map(),
  tipDistribution: async () => new Map(),
  tipOutcomeRead: null,
};
