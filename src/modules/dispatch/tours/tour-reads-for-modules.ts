// What other modules read of a tour (compensation, live tracking, the optimiser): its facts for the worker and hooks,
// and its stops in tour order with what routing needs. A caller's read goes through the door, requireTour (access.ts).
import type { Queryable } from '../../../db/client.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import type { StopStatus, TourStatus } from '../tables.ts';
import * as repo from './repository.ts';

/** A tour as other modules see it. */
export interface TourView {
  id: string;
  serviceId: string;
  serviceAreaId: string;
  status: TourStatus;
  driverId: string | null;
  /** The driver's organization while it executes the tour, kept after completion (docs/api-guide.md "Who sees what"). */
  executingOrganizationId: string | null;
  managingOrganizationIds: readonly string[];
  scheduledAt: Date | null;
  startedAt: Date | null;
  completedAt: Date | null;
}

/** A stop of a tour, in tour order, with its place on the map and its time constraints. */
export interface TourStopView {
  id: string;
  bookingId: string | null;
  type: string;
  status: StopStatus;
  tourPosition: number;
  lat: number;
  lng: number;
  timeWindowStartsAt: Date | null;
  timeWindowEndsAt: Date | null;
  serviceDurationSeconds: number;
  eta: Date | null;
}

const toTourView = (t: repo.TourRow): TourView => ({
  id: t.id,
  serviceId: t.serviceId,
  serviceAreaId: t.serviceAreaId,
  status: t.status,
  driverId: t.driverId,
  executingOrganizationId: t.executingOrganizationId,
  managingOrganizationIds: t.managingOrganizationIds,
  scheduledAt: t.scheduledAt,
  startedAt: t.startedAt,
  completedAt: t.completedAt,
});

/** The tour without a visibility check, for the worker and for hooks (which get ids from dispatch itself); null if absent. */
export async function findTourById(q: Queryable, tenantId: string, tourId: string): Promise<TourView | null> {
  const tour = await repo.findTour(q, tenantId, tourId);
  return tour ? toTourView(tour) : null;
}

/** The tour's stops in tour order (cancelled tour-only stops included: their status says so). */
export async function listTourStops(q: Queryable, tenantId: string, tourId: string): Promise<TourStopView[]> {
  const stops = await stopsRepo.findStopsOfTours(q, tenantId, [tourId]);
  return stops
    .filter((s) => s.tourId === tourId && s.tourPosition !== null)
    .map((s) => ({
      id: s.id,
      bookingId: s.bookingId,
      type: s.type,
      status: s.status,
      tourPosition: s.tourPosition!,
      lat: s.lat,
      lng: s.lng,
      timeWindowStartsAt: s.timeWindowStartsAt,
      timeWindowEndsAt: s.timeWindowEndsAt,
      serviceDurationSeconds: s.serviceDurationSeconds,
      eta: s.eta,
    }));
}
