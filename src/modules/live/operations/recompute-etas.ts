// Recomputing a tour's ETAs inside the caller's transaction, and the *.etas_recalculated events when they moved.
import type { Queryable, Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import { recordEvents, type EventActor, type EventInput } from '../../../events/outbox.ts';
import { iso } from '../../../shared/time.ts';
import { DEFAULT_AVERAGE_SPEED_KMH, findServiceArea } from '../../identity/index.ts';
import { bookingEventDataOf, openStopsOfTour, type OpenStop, type TourSummary } from '../dispatch-port.ts';
import { computeEtas, etasMoved, routePoints } from '../eta.ts';
import type { LatLng } from '../geo.ts';
import * as repo from '../repository.ts';
import { travelLegs } from '../routing.ts';

export type EtaReason = 'position' | 'started' | 'stop_completed' | 'stop_failed' | 'stops_inserted' | 'stops_moved' | 'optimized' | 'stops_changed';

export interface EtaState {
  /** The tour's tracking row, locked by the caller (lockTracking), with any changes the caller makes to it. */
  tracking: repo.TrackingRow;
  /** The ETAs last told, when the caller read them already. */
  told?: Map<string, Date | null>;
}

/** A service area's speed changes rarely; reading it on every position costs a round trip. */
const SPEED_CACHE_MS = 60_000;
const speeds = new Map<string, { kmh: number; until: number }>();

export async function areaSpeedKmh(q: Queryable, tenantId: string, serviceAreaId: string): Promise<number> {
  const key = `${tenantId}:${serviceAreaId}`;
  const cached = speeds.get(key);
  if (cached && cached.until > Date.now()) return cached.kmh;
  const kmh = (await findServiceArea(q, tenantId, serviceAreaId))?.averageSpeedKmh ?? DEFAULT_AVERAGE_SPEED_KMH;
  if (speeds.size > 10_000) speeds.clear();
  speeds.set(key, { kmh, until: Date.now() + SPEED_CACHE_MS });
  return kmh;
}

/**
 * Recomputes and stores the ETAs of the tour's open stops from its current position (under the tracking row's lock,
 * so a position and a stop change of the same tour serialize), writes the tracking row, and records
 * tour.etas_recalculated plus one booking.etas_recalculated per booking on the tour when some ETA moved by ≥ 60 s
 * against what was last told. Returns the ids of those events (none when nothing moved).
 */
export async function recomputeEtas(deps: Pick<Deps, 'clock' | 'config' | 'hooks'>, tx: Tx, tenantId: string, actor: EventActor, tour: Pick<TourSummary, 'id' | 'serviceAreaId'>, state?: EtaState): Promise<string[]> {
  const now = deps.clock.now();
  const row = state?.tracking ?? (await repo.lockTracking(tx, tenantId, tour.id, { serviceAreaId: tour.serviceAreaId, now }));
  const stops = await openStopsOfTour(tx, tenantId, tour.id);
  const origin: LatLng | null = row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null;
  const speedKmh = await areaSpeedKmh(tx, tenantId, tour.serviceAreaId);
  const { legs, source } = await travelLegs(deps, tx, routePoints(origin, stops), speedKmh);
  const next = computeEtas(now, origin !== null, stops, legs);
  const told = state?.told ?? (await repo.notifiedEtasOfTour(tx, tenantId, tour.id));
  const moved = etasMoved(told, next);
  await repo.replaceEtas(tx, tenantId, tour.id, next, now, moved, told.keys(), source);
  const { tenantId: _t, tourId: _id, ...fields } = row;
  await repo.updateTracking(tx, tenantId, tour.id, { ...fields, etasComputedAt: now, updatedAt: now });
  if (!moved) return [];
  return recordEvents(tx, await etaEvents(tx, tenantId, actor, tour, stops, next, now));
}

const info = (stops: OpenStop[], etas: ReadonlyMap<string, Date>, position: (s: OpenStop) => number) =>
  stops.map((s) => ({ id: s.id, position: position(s), type: s.type, eta: etas.has(s.id) ? iso(etas.get(s.id) as Date) : null }));

async function etaEvents(tx: Tx, tenantId: string, actor: EventActor, tour: Pick<TourSummary, 'id' | 'serviceAreaId'>, stops: OpenStop[], etas: ReadonlyMap<string, Date>, now: Date): Promise<EventInput[]> {
  const bookingIds = [...new Set(stops.map((s) => s.bookingId).filter((id): id is string => id !== null))];
  return etaEventInputs(tenantId, actor, tour, stops, etas, now, await bookingEventDataOf(tx, tenantId, bookingIds));
}

/** tour.etas_recalculated and one booking.etas_recalculated per booking on the tour, with the bookings' event data. */
export function etaEventInputs(
  tenantId: string,
  actor: EventActor,
  tour: Pick<TourSummary, 'id' | 'serviceAreaId'>,
  stops: OpenStop[],
  etas: ReadonlyMap<string, Date>,
  now: Date,
  bookingData: ReadonlyMap<string, Record<string, unknown>>,
): EventInput[] {
  const events: EventInput[] = [
    {
      tenantId,
      actor,
      type: 'tour.etas_recalculated',
      resourceId: tour.id,
      data: { tour_id: tour.id, service_area_id: tour.serviceAreaId, unfinished_stops_info: info(stops, etas, (s) => s.tourPosition) },
      at: now,
    },
  ];
  const bookingIds = [...new Set(stops.map((s) => s.bookingId).filter((id): id is string => id !== null))];
  for (const bookingId of bookingIds) {
    // A split booking's stops on other tours are told by those tours' recalculations.
    const own = stops.filter((s) => s.bookingId === bookingId);
    events.push({
      tenantId,
      actor,
      type: 'booking.etas_recalculated',
      resourceId: bookingId,
      data: { ...(bookingData.get(bookingId) ?? { booking_id: bookingId }), tour_id: tour.id, unfinished_stops_info: info(own, etas, (s) => s.position) },
      at: now,
    });
  }
  return events;
}
