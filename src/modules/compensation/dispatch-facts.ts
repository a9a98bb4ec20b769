// What compensation reads of dispatch, in one place: the tours and drop-offs tip distribution decides on, and the
// legacy earnings writes. Everything goes through the dispatch modules' index files.
import type { Queryable } from '../../db/client.ts';
import { bookingsRepository } from '../bookings/index.ts';
import { getService } from '../services/index.ts';
import { toursRepository } from '../tours/index.ts';
import type { TipBooking, TipStrategy } from './tip-eligibility.ts';

export interface TipTourFacts {
  id: string;
  status: string;
  serviceAreaId: string;
  strategy: TipStrategy;
}

/** Bookings with drop-offs on the tours. */
export const bookingIdsOfTours = (q: Queryable, tenantId: string, tourIds: string[]) => bookingsRepository.bookingIdsOfTours(q, tenantId, tourIds);

/** The bookings' tips and drop-offs (status and tour). */
export async function tipBookings(q: Queryable, tenantId: string, bookingIds: string[]): Promise<TipBooking[]> {
  if (!bookingIds.length) return [];
  const bookings = await bookingsRepository.findBookings(q, tenantId, bookingIds);
  const stops = await bookingsRepository.findStopsOfBookings(q, tenantId, bookingIds);
  return bookings.map((b) => ({
    id: b.id,
    tip: b.tip,
    dropoffs: stops.filter((s) => s.bookingId === b.id && s.type === 'dropoff').map((s) => ({ status: s.status, tourId: s.tourId })),
  }));
}

/** The tours with their service's tip distribution strategy. */
export async function tipTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<TipTourFacts[]> {
  const tours = await toursRepository.findTours(q, tenantId, tourIds);
  const strategies = new Map<string, TipStrategy>();
  for (const serviceId of new Set(tours.map((t) => t.serviceId))) {
    strategies.set(serviceId, (await getService(q, tenantId, serviceId))?.tipDistributionStrategy ?? 'noop');
  }
  return tours.map((t) => ({ id: t.id, status: t.status, serviceAreaId: t.serviceAreaId, strategy: strategies.get(t.serviceId) ?? 'noop' }));
}
