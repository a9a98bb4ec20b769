// How live tracking renders: a stored position on the wire, and the position notice the live stream listens for.
import { iso } from '../../shared/time.ts';
import type { Envelope } from '../../events/outbox.ts';
import type { TourSummary } from './dispatch-port.ts';
import type { PositionRow } from './repository.ts';

/** The LISTEN/NOTIFY channel of driver positions (decision 0902). */
export const LIVE_CHANNEL = 'tourbook_live_positions';

export const renderPosition = (row: PositionRow) => ({
  id: row.id,
  lat: row.lat,
  lng: row.lng,
  heading: row.heading,
  speed: row.speed,
  accuracy: row.accuracy,
  recorded_at: iso(row.recordedAt),
  received_at: iso(row.receivedAt),
  filtered: row.filtered,
  current: row.becameCurrent,
});

/** What a position tells the live stream: the event envelope plus whom it belongs to (for the visibility rule). */
export interface PositionNotice {
  tenant_id: string;
  driver_organization_id: string | null;
  envelope: Envelope;
  /**
   * The ids of the outbox events the same commit wrote (the ETAs it moved): the hubs read those rows at once instead of
   * waiting for their next poll, so they reach the streams as fast as the position (decision 1776). Empty when there
   * were more than fit a notice: the hubs then poll at once.
   */
  outbox?: string[];
}

/** At most this many event ids in a notice (37 bytes each; a NOTIFY payload is at most 8,000 bytes). */
export const MAX_NOTICE_EVENT_IDS = 100;

export function positionNotice(tour: Pick<TourSummary, 'id' | 'serviceAreaId'>, driverOrganizationId: string | null, row: PositionRow, eventIds: readonly string[] = []): PositionNotice {
  return {
    tenant_id: row.tenantId,
    driver_organization_id: driverOrganizationId,
    ...(eventIds.length ? { outbox: eventIds.length <= MAX_NOTICE_EVENT_IDS ? [...eventIds] : [] } : {}),
    envelope: {
      id: row.id,
      type: 'tour.driver_location_updated',
      resource_type: 'tour',
      event: 'driver_location_updated',
      timestamp: iso(row.receivedAt),
      data: {
        tour_id: tour.id,
        service_area_id: tour.serviceAreaId,
        driver_id: row.driverId,
        location: { lat: row.lat, lng: row.lng, heading: row.heading, speed: row.speed, accuracy: row.accuracy, recorded_at: iso(row.recordedAt) },
      },
    },
  };
}
