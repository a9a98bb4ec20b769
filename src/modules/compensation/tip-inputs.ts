// What tip distribution decides on, read in one place: bookings' drop-offs and tours from dispatch (its tip-facts.ts), each
// tour's tip distribution strategy from services.
import type { Queryable } from '../../db/client.ts';
import { bookingIdsOfTours, tipBookingFacts, tipTourFacts } from '../dispatch/index.ts';
import { getService } from '../services/index.ts';
import type { TipBooking, TipStrategy } from './tip-eligibility.ts';

export interface TipTourFacts {
  id: string;
  status: string;
  serviceAreaId: string;
  strategy: TipStrategy;
}

export { bookingIdsOfTours };

export const tipBookings = (q: Queryable, tenantId: string, bookingIds: string[]): Promise<TipBooking[]> => tipBookingFacts(q, tenantId, bookingIds);

/** The tours with their service's tip distribution strategy. */
export async function tipTours(q: Queryable, tenantId: string, tourIds: string[]): Promise<TipTourFacts[]> {
  const tours = await tipTourFacts(q, tenantId, tourIds);
  const strategies = new Map<string, TipStrategy>();
  for (const serviceId of new Set(tours.map((t) => t.serviceId))) {
    strategies.set(serviceId, (await getService(q, tenantId, serviceId))?.tipDistributionStrategy ?? 'noop');
  }
  return tours.map((t) => ({ id: t.id, status: t.status, serviceAreaId: t.serviceAreaId, strategy: strategies.get(t.serviceId) ?? 'noop' }));
}
