// The event catalog: every event type Tourbook emits (docs/api-guide.md "Events and webhooks"), with its resource type and status.
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
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Events that only tenants with the named extension receive. */
export const EXTENSION_EVENTS: Partial<Record<EventType, string>> = {
  'busyness.place_changed': 'busyness',
};

export const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

export function splitType(type: EventType): { resourceType: string; event: string } {
  const dot = type.indexOf('.');
  return { resourceType: type.slice(0, dot), event: type.slice(dot + 1) };
}
