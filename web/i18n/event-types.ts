// The event types in words (the webhooks settings, the booking timeline). Keyed by the OpenAPI `EventType` enum, so a
// type the catalog adds fails `tsc -p web` until it has its English and German label.
import type { Schemas } from '../../clients/typescript/src/index.ts';
import { defineMessages, useT } from './index.tsx';

export const eventTypeLabels = defineMessages<Schemas['EventType']>({
  en: {
    'booking.created': 'Booking created',
    'booking.etas_recalculated': 'Arrival times recalculated',
    'booking.modified': 'Booking changed',
    'booking.route_changed': 'Route changed',
    'booking.transition': 'Status changed',
    'booking.stop_failed': 'Stop failed',
    'booking.return_started': 'Return started',
    'booking.feedback_received': 'Recipient rated the delivery',
    'booking.recipient_instructions_updated': 'Recipient left instructions',
    'booking.delivery_date_changed': 'Recipient moved the delivery day',
    'booking.recipient_notification_due': 'Message to the recipient due',
    'booking.auto_dispatched': 'Dispatched automatically',
    'booking.auto_dispatch_skipped': 'Left waiting by auto-dispatch',
    'tour.created': 'Tour created',
    'tour.active_status_changed': 'Tour status changed',
    'tour.driver_location_updated': "Driver's position",
    'tour.etas_recalculated': 'Tour arrival times recalculated',
    'tour.force_assigned': 'Tour assigned to a driver',
    'tour.force_unassigned': 'Tour taken from its driver',
    'tour.modified': 'Tour changed',
    'tour.compensation_updated': 'Tour compensation changed',
    'tour.earnings_updated': 'Tour earnings changed',
    'busyness.place_changed': 'Busyness of a place changed',
    'webhook.test': 'Test event',
    'dispatch.plan_ready': 'Dispatch plan ready',
  },
  de: {
    'booking.created': 'Buchung erstellt',
    'booking.etas_recalculated': 'Ankunftszeiten neu berechnet',
    'booking.modified': 'Buchung geändert',
    'booking.route_changed': 'Route geändert',
    'booking.transition': 'Status geändert',
    'booking.stop_failed': 'Stopp fehlgeschlagen',
    'booking.return_started': 'Rücksendung begonnen',
    'booking.feedback_received': 'Empfänger hat die Zustellung bewertet',
    'booking.recipient_instructions_updated': 'Empfänger hat Hinweise hinterlassen',
    'booking.delivery_date_changed': 'Empfänger hat den Zustelltag verschoben',
    'booking.recipient_notification_due': 'Nachricht an den Empfänger fällig',
    'booking.auto_dispatched': 'Automatisch disponiert',
    'booking.auto_dispatch_skipped': 'Von der Auto-Disposition zurückgestellt',
    'tour.created': 'Tour erstellt',
    'tour.active_status_changed': 'Tourstatus geändert',
    'tour.driver_location_updated': 'Position des Fahrers',
    'tour.etas_recalculated': 'Ankunftszeiten der Tour neu berechnet',
    'tour.force_assigned': 'Tour einem Fahrer zugewiesen',
    'tour.force_unassigned': 'Tour dem Fahrer entzogen',
    'tour.modified': 'Tour geändert',
    'tour.compensation_updated': 'Vergütung der Tour geändert',
    'tour.earnings_updated': 'Verdienst der Tour geändert',
    'busyness.place_changed': 'Auslastung eines Ortes geändert',
    'webhook.test': 'Testereignis',
    'dispatch.plan_ready': 'Dispositionsplan fertig',
  },
});

const isEventType = (type: string): type is Schemas['EventType'] => Object.hasOwn(eventTypeLabels.en, type);

/** An event type in words; a type this build does not know yet (a newer server) is shown as its key. */
export function useEventLabel(): (type: string) => string {
  const t = useT(eventTypeLabels);
  return (type) => (isEventType(type) ? t(type) : type);
}
