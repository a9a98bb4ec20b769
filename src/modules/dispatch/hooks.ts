// Dispatch's seams, wired in the composition root (src/hooks.ts): other modules react inside dispatch's transactions
// (DispatchHooks), and the failures module decides what dispatch renders and checks of failures (FailureRules).
// Both exist because those modules import dispatch: dispatch importing them back would be an import loop.
import type { Static } from '@sinclair/typebox';
import type { Placeholder } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.ts';
import type { JsonPart } from '../../db/json-read.ts';
import type { Actor } from '../../http/actor.ts';
import type { ServiceConfig } from '../services/index.ts';
import type { FailureOptions } from './bookings/schemas.ts';
import type { StopRow } from './stops/repository.ts';
import type { RecoveryStop } from './stops/fail-stop-on-tour.ts';
import type { TourRow } from './tours/repository.ts';

/**
 * Why a tour's stops changed (`tourStopsChanged`): stops dispatched or added onto it, reordered on it, taken off it
 * (moved to another tour, removal of a package, cancellation of a booking or of the tour), a stop completed or failed
 * on it (a `*_now` recovery stop joins it then), or the tour started.
 */
export type TourStopsChange = 'stops_inserted' | 'stops_moved' | 'stops_removed' | 'stop_completed' | 'stop_failed' | 'tour_started';

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

/**
 * The reactions are called inside the transaction of the dispatch write that caused them, after its rows and events
 * are written and settled, with the transaction handle only. A hook that throws rolls the write back. The readers
 * add another module's data to what dispatch renders.
 */
export interface DispatchHooks {
  /** A tour reached `completed` (its last open stop reached a final state). */
  tourCompleted(tx: Tx, tenantId: string, tourId: string): Promise<void>;
  /** A booking's tip was set or cleared. */
  bookingTipChanged(tx: Tx, tenantId: string, bookingId: string): Promise<void>;
  /** A tour's stops changed: inserted, moved, completed, failed, or the tour started. */
  tourStopsChanged(tx: Tx, tenantId: string, tourId: string, reason: TourStopsChange): Promise<void>;
  /** Every settled change touching tours (never with none): live tracking recomputes or drops their ETAs (decision 0903). */
  trackedToursChanged(tx: Tx, change: TrackedToursChanged): Promise<void>;
  /** Tours completed, bookings finished or a tip changed (never with none): compensation schedules tip distribution. */
  tipFactsChanged(tx: Tx, change: DispatchChange): Promise<void>;
  /** Each stop's ETA with the tour it was computed on (live tracking); called with at least one stop. */
  stopEtas(q: Queryable, tenantId: string, stopIds: readonly string[]): Promise<Map<string, { tourId: string; eta: Date }>>;
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

/** Where tipDistribution takes each booking's evaluated outcome from: nowhere (just created), a read, or given. */
export type TipDistributionSource = { fresh: boolean } | { evaluated: Map<string, BookingTipDistribution | null> };

/** Every reaction a no-op and every reader empty: the default until a module wires its part (src/hooks.ts). */
export const NO_DISPATCH_HOOKS: DispatchHooks = {
  tourCompleted: async () => undefined,
  bookingTipChanged: async () => undefined,
  tourStopsChanged: async () => undefined,
  trackedToursChanged: async () => undefined,
  tipFactsChanged: async () => undefined,
  stopEtas: async () => new Map(),
  tipDistribution: async () => new Map(),
  tipOutcomeRead: null,
};

/** failure_options as rendered on a stop under way (the wire shape). */
export type FailureOptionsView = Static<typeof FailureOptions>;

/** What failure_options are decided from, as dispatch holds it when rendering or failing a stop. */
export interface StopFailureFacts {
  stop: StopRow;
  tour: TourRow | null;
  /** The stop's booking's stops in booking order; null for a tour-only stop. */
  bookingStops: StopRow[] | null;
  /** The tour's stops that are not cancelled. */
  tourStopCount: number;
  service: ServiceConfig;
  /** Whether the caller sees the stop's tour (visibility rules). */
  seesTour: boolean;
}

/** A package failure a driver reported at a stop, with what the reason is checked against. */
export interface ReportedPackageFailure {
  reasonKey: string;
  stopType: string;
  interaction: 'pickup' | 'delivery';
  note: string | null | undefined;
}

/** The failures module's judgement of one reported package failure: a problem on one of its fields, or accepted. */
export type PackageFailureVerdict =
  | { problem: { field: 'reason_key' | 'note'; code: string; detail: string }; triggersReattempt?: undefined }
  | { problem: null; triggersReattempt: boolean };

/** The failures module's rules as dispatch needs them (implemented in failures/index.ts). */
export interface FailureRules {
  /** failure_options of a stop, or null where docs/api-guide.md "Bookings, stops and tours" does not render them. */
  stopFailureOptions(actor: Actor, facts: StopFailureFacts): FailureOptionsView | null;
  /** The deprecated completion_requirements.fail, derived from failure_options. */
  completionRequirementsFail(options: FailureOptionsView | null): boolean;
  /** Each reported package failure checked against the tenant's package failure reasons, in the order given. */
  packageFailureVerdicts(q: Queryable, actor: Actor, failures: ReportedPackageFailure[]): Promise<PackageFailureVerdict[]>;
  /** The stop a reattempt goes to: a full copy of the stop's place, contact, time window and notes. */
  reattemptStop(stop: StopRow): RecoveryStop['stop'];
}
