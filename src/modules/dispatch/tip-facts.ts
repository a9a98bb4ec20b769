// Read helpers for tip distribution (the compensation module): what the rule decides on, as plain facts.
import type { Queryable } from '../../db/client.ts';
import { bookingsRepository as bookingsRepo } from './bookings/index.ts';
import { stopsRepository as stopsRepo } from './stops/index.ts';
import { toursRepository as toursRepo } from './tours/index.ts';

export interface TipBookingFacts {
  id: string;
  tip: { amount: number; currency: string } | null;
  /** The booking's drop-off stops: their status and the tour they are (or were last) on. */
  dropoffs: { status: string; tourId: string | null }[];
}

export interface TipTourFacts {
  id: string;
  status: string;
  serviceId: string;
  serviceAreaId: string;
}

/** Bookings with stops on the tours. */
export const bookingIdsOfTours = (q: Queryable, tenantId: string, tourIds: string[]): Promise<string[]> => stopsRepo.bookingIdsOfTours(q, tenantId, tourIds);

export async function tipBookingFacts(q: Queryable, tenantId: string, bookingIds: string[]): Promise<TipBookingFacts[]> {
  if (!bookingIds.length) return [];
  const bookings = await bookingsRepo.findBookings(q, tenantId, bookingIds);
  const stops = await stopsRepo.findStopsOfBookings(q, tenantId, bookingIds);
  return bookings.map((b) => ({
    id: b.id,
    tip: b.tip,
    dropoffs: stops.filter((s) => s.bookingId === b.id && s.type === 'dropoff').map((s) => ({ status: s.status, tourId: s.tourId })),
  }));
}

export async function tipTourFacts(q: Queryable, tenantId: string, tourIds: string[]): Promise<TipTourFacts[]> {
  const tours = await toursRepo.findTours(q, tenantId, tourIds);
  return tours.map((t) => ({ id: t.id, status: t.status, serviceId: t.serviceId, serviceAreaId: t.serviceAreaId }));
}
