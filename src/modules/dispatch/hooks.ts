// Dispatch's seams, wired in the composition root (src/hooks.ts): other modules react inside dispatch's transactions
// (DispatchHooks), and the failures module decides what dispatch renders and checks of failures (FailureRules).
// Both exist because those modules import dispatch: dispatch importing them back would be an import loop.
import type { Static } from '@sinclair/typebox';
import type { Queryable, Tx } from '../../db/client.ts';
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

/**
 * Called inside the transaction of the dispatch write that caused them, after its rows and events are written and
 * settled, with the transaction handle only. A hook that throws rolls the write back.
 */
export interface DispatchHooks {
  /** A tour reached `completed` (its last open stop reached a final state). */
  tourCompleted(tx: Tx, tenantId: string, tourId: string): Promise<void>;
  /** A booking's tip was set or cleared. */
  bookingTipChanged(tx: Tx, tenantId: string, bookingId: string): Promise<void>;
  /** A tour's stops changed: inserted, moved, completed, failed, or the tour started. */
  tourStopsChanged(tx: Tx, tenantId: string, tourId: string, reason: TourStopsChange): Promise<void>;
}

/** Every hook a no-op: the default until a module wires its reaction. */
export const NO_DISPATCH_HOOKS: DispatchHooks = {
  tourCompleted: async () => undefined,
  bookingTipChanged: async () => undefined,
  tourStopsChanged: async () => undefined,
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
  /** failure_options of a stop, or null where SPEC.md does not render them. */
  stopFailureOptions(actor: Actor, facts: StopFailureFacts): FailureOptionsView | null;
  /** The deprecated completion_requirements.fail, derived from failure_options. */
  completionRequirementsFail(options: FailureOptionsView | null): boolean;
  /** Each reported package failure checked against the tenant's package failure reasons, in the order given. */
  packageFailureVerdicts(q: Queryable, actor: Actor, failures: ReportedPackageFailure[]): Promise<PackageFailureVerdict[]>;
  /** The stop a reattempt goes to: a full copy of the stop's place, contact, time window and notes. */
  reattemptStop(stop: StopRow): RecoveryStop['stop'];
}
