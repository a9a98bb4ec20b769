// The API's closed lists that several pages show in a fixed order, defined once here and typed by the OpenAPI
// client: a value the API adds or drops fails `tsc -p web` until the list follows.
import type { Schemas } from '../../clients/typescript/src/index.ts';

type FailureOutcome = Schemas['FailureOutcome'];

/** The failure outcomes (API guide, "Failed stops"), in the order the fail-stop dialogs and the services page list them. */
export const FAILURE_OUTCOMES = ['skip_recovery', 'reattempt_later', 'reattempt_now', 'return_later', 'return_now'] as const satisfies readonly FailureOutcome[];

// Every outcome the API knows is listed (the `satisfies` above refuses one it does not know): this fails to compile
// while one is missing.
const _everyOutcomeListed: [Exclude<FailureOutcome, (typeof FAILURE_OUTCOMES)[number]>] extends [never] ? true : never = true;

type EventType = Schemas['EventType'];

/**
 * Every event type of the catalog (src/events/catalog.ts, which the OpenAPI `EventType` enum is built from), in the
 * catalog's order. The `satisfies` refuses a type the API does not know and the check below one it lists but this
 * list misses; web/api/closed-lists.test.ts compares it with the catalog itself.
 */
export const EVENT_TYPES = [
  'booking.created',
  'booking.etas_recalculated',
  'booking.modified',
  'booking.route_changed',
  'booking.transition',
  'booking.stop_failed',
  'booking.return_started',
  'booking.feedback_received',
  'booking.recipient_instructions_updated',
  'booking.delivery_date_changed',
  'booking.recipient_notification_due',
  'tour.created',
  'tour.active_status_changed',
  'tour.driver_location_updated',
  'tour.etas_recalculated',
  'tour.force_assigned',
  'tour.force_unassigned',
  'tour.modified',
  'tour.compensation_updated',
  'tour.earnings_updated',
  'busyness.place_changed',
  'webhook.test',
  'dispatch.plan_ready',
  'booking.auto_dispatched',
  'booking.auto_dispatch_skipped',
] as const satisfies readonly EventType[];

const _everyEventTypeListed: [Exclude<EventType, (typeof EVENT_TYPES)[number]>] extends [never] ? true : never = true;

/** What a webhook endpoint may subscribe to: every type but `webhook.test`, which goes to one endpoint on request. */
export const SUBSCRIBABLE_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) => type !== 'webhook.test');

/**
 * What the live stream carries for a console that names no types: the tour and booking events, which follow the
 * read visibility of their tour or booking (api-guide "The live stream"). The others (busyness, plans, webhook tests)
 * are an admin's and no page follows them live.
 */
export const LIVE_EVENT_TYPES: readonly EventType[] = EVENT_TYPES.filter((type) => type.startsWith('tour.') || type.startsWith('booking.'));
