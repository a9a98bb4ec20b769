// What dispatch renders and checks of failures (Deps.hooks.failureRules): failure_options, package failure reasons,
// the reattempt copy. Declared below the modules so that Deps names it without importing dispatch (decision 0212): the
// facts are rows of the database's tables (db/schema.ts gathers them) and plain shapes, not module types.
import type { Queryable } from '../db/client.ts';
import type { FailureOutcome, services, stops, tours } from '../db/schema.ts';
import type { Actor } from '../http/actor.ts';

type StopRow = typeof stops.$inferSelect;
type TourRow = typeof tours.$inferSelect;

/** One outcome of failure_options as rendered (dispatch's `FailureOutcomeOption` schema). */
export interface FailureOutcomeOptionView {
  allowed: boolean;
  reason: string | null;
  reason_key: string | null;
}

/** failure_options as rendered on a stop under way (the wire shape; dispatch's `FailureOptions` schema). */
export interface FailureOptionsView {
  outcomes: Record<FailureOutcome, FailureOutcomeOptionView>;
}

/** What failure_options are decided from, as dispatch holds it when rendering or failing a stop. */
export interface StopFailureFacts {
  stop: StopRow;
  tour: TourRow | null;
  /** The stop's booking's stops in booking order; null for a tour-only stop. */
  bookingStops: StopRow[] | null;
  /** The tour's stops that are not cancelled. */
  tourStopCount: number;
  /** The tour service's configuration. */
  service: Omit<typeof services.$inferSelect, 'tenantId'>;
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

/** What a recovery stop copies of the failed stop or of the pickup it returns to. */
export type RecoveryStopCopy = Pick<StopRow, 'type' | 'placeId' | 'lat' | 'lng' | 'address' | 'contact' | 'group' | 'timeWindowStartsAt' | 'timeWindowEndsAt' | 'serviceDurationSeconds' | 'notes'>;

/** The failures module's rules as dispatch needs them (answered by failures' `failureRules`). */
export interface FailureRules {
  /** failure_options of a stop, or null where docs/api-guide.md "Bookings, stops and tours" does not render them. */
  stopFailureOptions(actor: Actor, facts: StopFailureFacts): FailureOptionsView | null;
  /** The deprecated completion_requirements.fail, derived from failure_options. */
  completionRequirementsFail(options: FailureOptionsView | null): boolean;
  /** Each reported package failure checked against the tenant's package failure reasons, in the order given. */
  packageFailureVerdicts(q: Queryable, actor: Actor, failures: ReportedPackageFailure[]): Promise<PackageFailureVerdict[]>;
  /** The stop a reattempt goes to: a full copy of the stop's place, contact, time window and notes. */
  reattemptStop(stop: StopRow): RecoveryStopCopy;
}
