// failure_options: which fail-stop outcomes a caller may choose on a stop, and why not (docs/api-guide.md "Failed stops"). Pure.
import type { UserRole } from '../../http/actor.ts';
import { t, type Lang, type Messages } from '../../http/i18n.ts';

export const FAILURE_OUTCOMES = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'] as const;
export type FailureOutcome = (typeof FAILURE_OUTCOMES)[number];

/** The roles that can run stop-failure flows; each has its own list in `service.failure_outcomes`. */
export type FailingRole = 'admin' | 'manager' | 'driver';

/** Stop statuses from which a stop can be failed (docs/api-guide.md "Bookings, stops and tours"). */
export const FAILABLE_STOP_STATUSES: readonly string[] = ['approaching', 'arrived'];

/**
 * Everything the rule needs, as plain data the caller already holds when rendering a booking or a tour:
 * computing options for 20 stops never costs a query per stop.
 */
export interface FailureContext {
  caller: {
    role: UserRole;
    userId: string;
    /** For managers: whether the caller's organizations see the stop's tour (visibility rules). */
    seesTour: boolean;
  };
  stop: { type: string; status: string; tourId: string | null };
  /** The stop's tour; null for a stop not on a tour. `stopCount` counts its stops that are not cancelled. */
  tour: { status: string; driverId: string | null; stopCount: number } | null;
  /** The stop's booking with its stops in booking order; null for a tour-only stop. */
  booking: { stops: { type: string; status: string }[] } | null;
  service: {
    stopTypes: string[];
    returnStopType: string | null;
    maxStopsPerBooking: number;
    maxStopsPerTour: number;
    failureOutcomes: Record<FailingRole, readonly string[]>;
  };
}

/** The first failing check of an outcome, error_code-like; also the message key suffix. */
export type FailureBlocker =
  | 'not_permitted'
  | 'outcome_disabled'
  | 'stop_not_on_tour'
  | 'stop_not_in_progress'
  | 'tour_not_active'
  | 'return_stop_type_invalid'
  | 'booking_not_returnable'
  | 'stop_without_booking'
  | 'booking_stop_limit_reached'
  | 'tour_stop_limit_reached';

export interface OutcomeOption {
  allowed: boolean;
  reason: string | null;
  reason_key: FailureBlocker | null;
}

export interface FailureOptions {
  outcomes: Record<FailureOutcome, OutcomeOption>;
}

export const messages: Messages = {
  'failure_options.not_permitted': {
    en: 'Only administrators, managers who see the tour and the tour’s driver can fail stops.',
    de: 'Nur Administratoren, Manager, die die Tour sehen, und der Fahrer der Tour können Stopps fehlschlagen lassen.',
  },
  'failure_options.outcome_disabled': {
    en: 'The service does not offer this outcome to your role.',
    de: 'Der Service bietet dieses Ergebnis Ihrer Rolle nicht an.',
  },
  'failure_options.stop_not_on_tour': {
    en: 'Only stops on a tour can be failed.',
    de: 'Nur Stopps auf einer Tour können fehlschlagen.',
  },
  'failure_options.stop_not_in_progress': {
    en: 'Only a stop that is approaching or arrived can be failed.',
    de: 'Nur ein Stopp, der angefahren wird oder erreicht ist, kann fehlschlagen.',
  },
  'failure_options.tour_not_active': {
    en: 'The tour is no longer under way.',
    de: 'Die Tour ist nicht mehr unterwegs.',
  },
  'failure_options.return_stop_type_invalid': {
    en: 'The service has no valid return stop type.',
    de: 'Der Service hat keinen gültigen Rückgabe-Stopptyp.',
  },
  'failure_options.booking_not_returnable': {
    en: 'A return needs a pickup-then-drop-off booking and a failing drop-off.',
    de: 'Eine Rückgabe erfordert eine Buchung aus Abholung und Zustellungen und einen fehlgeschlagenen Zustellstopp.',
  },
  'failure_options.stop_without_booking': {
    en: 'A stop without a booking cannot be attempted again.',
    de: 'Ein Stopp ohne Buchung kann nicht erneut angefahren werden.',
  },
  'failure_options.booking_stop_limit_reached': {
    en: 'The booking has reached its stop limit.',
    de: 'Die Buchung hat ihre Höchstzahl an Stopps erreicht.',
  },
  'failure_options.tour_stop_limit_reached': {
    en: 'The tour has reached its stop limit.',
    de: 'Die Tour hat ihre Höchstzahl an Stopps erreicht.',
  },
};

const isNow = (outcome: FailureOutcome) => outcome === 'reattempt_now' || outcome === 'return_now';
const isReturn = (outcome: FailureOutcome) => outcome === 'return_now' || outcome === 'return_later';

/** docs/api-guide.md "Failed stops": stop-failure flows are open to administrators, organization managers who see the tour, and the tour's driver. */
export function failingRoleOf(context: Pick<FailureContext, 'caller' | 'tour'>): FailingRole | null {
  const { caller, tour } = context;
  if (caller.role === 'admin') return 'admin';
  if (caller.role === 'manager' && caller.seesTour) return 'manager';
  if (caller.role === 'driver' && tour !== null && tour.driverId === caller.userId) return 'driver';
  return null;
}

/** Cancelled stops are gone from the booking; every other stop counts towards limits and shape. */
const liveStops = (booking: NonNullable<FailureContext['booking']>) => booking.stops.filter((s) => s.status !== 'cancelled');

/** First stop a pickup, every other stop a drop-off. */
export function isPickupThenDropoff(stops: { type: string }[]): boolean {
  return stops.length >= 2 && stops[0]?.type === 'pickup' && stops.slice(1).every((s) => s.type === 'dropoff');
}

/** The checks of docs/api-guide.md "Failed stops", in order; the first that fails decides. Null when the outcome is available. */
export function outcomeBlocker(context: FailureContext, outcome: FailureOutcome): FailureBlocker | null {
  const { stop, tour, booking, service } = context;
  const role = failingRoleOf(context);
  if (role === null) return 'not_permitted';
  if (!service.failureOutcomes[role].includes(outcome)) return 'outcome_disabled';
  if (stop.tourId === null || tour === null) return 'stop_not_on_tour';
  if (!FAILABLE_STOP_STATUSES.includes(stop.status)) return 'stop_not_in_progress';
  if (isNow(outcome) && tour.status !== 'en_route') return 'tour_not_active';
  if (isReturn(outcome)) {
    if (service.returnStopType === null || !service.stopTypes.includes(service.returnStopType)) return 'return_stop_type_invalid';
    if (booking === null || stop.type !== 'dropoff' || !isPickupThenDropoff(liveStops(booking))) return 'booking_not_returnable';
  }
  if (outcome !== 'skip_recovery') {
    // Recovery stops are booking stops: a tour-only stop has nowhere to append one.
    if (booking === null) return 'stop_without_booking';
    if (liveStops(booking).length >= service.maxStopsPerBooking) return 'booking_stop_limit_reached';
  }
  if (isNow(outcome) && tour.stopCount >= service.maxStopsPerTour) return 'tour_stop_limit_reached';
  return null;
}

export const blockerMessage = (blocker: FailureBlocker, lang: Lang): string => t(lang, `failure_options.${blocker}`);

/** Whether failure_options render on this stop for this caller (docs/api-guide.md "Failed stops": tour stops in approaching/arrived, failing roles only). */
export function rendersFailureOptions(context: FailureContext): boolean {
  return (
    failingRoleOf(context) !== null &&
    context.stop.tourId !== null &&
    context.tour !== null &&
    FAILABLE_STOP_STATUSES.includes(context.stop.status)
  );
}

/** failure_options for a stop payload, or null where they do not render. */
export function failureOptions(context: FailureContext, lang: Lang): FailureOptions | null {
  if (!rendersFailureOptions(context)) return null;
  const outcomes = {} as Record<FailureOutcome, OutcomeOption>;
  for (const outcome of FAILURE_OUTCOMES) {
    const blocker = outcomeBlocker(context, outcome);
    outcomes[outcome] = { allowed: blocker === null, reason: blocker && blockerMessage(blocker, lang), reason_key: blocker };
  }
  return { outcomes };
}

/** The deprecated completion_requirements.fail: skip_recovery.allowed, false where failure_options are absent. */
export function completionRequirementsFail(options: { outcomes: { skip_recovery: Pick<OutcomeOption, 'allowed'> } } | null | undefined): boolean {
  return options?.outcomes.skip_recovery.allowed ?? false;
}
