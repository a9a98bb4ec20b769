// Today's data: one bounded list request per kind of attention, each refreshed every half minute (no request per item).
import { useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Booking = Schemas['Booking'];
export type Tour = Schemas['Tour'];
export type Stop = Schemas['Stop'];

/** How many of each kind are read; more shows as "100 or more". */
export const COUNT_LIMIT = 100;
const REFRESH_MS = 30_000;
/** A claim window is "running out" when it ends within this time (the default window is 15 minutes). */
export const CLAIM_WARNING_MS = 5 * 60_000;

/** Bookings waiting for dispatch, with their stops (a failed one there awaits a decision: dispatch again or cancel). */
export function useWaitingBookings() {
  return useQuery({
    queryKey: ['bookings', 'waiting', 'full'],
    refetchInterval: REFRESH_MS,
    queryFn: () => call(api.GET('/api/hailing/bookings', { params: { query: { limit: COUNT_LIMIT, filters: { status: ['to_be_dispatched', 'partially_dispatched'] } } } })),
  });
}

export function useToursIn(status: Schemas['TourStatus'][], view: 'compact' | 'full') {
  return useQuery({
    queryKey: ['tours', 'today', status, view],
    refetchInterval: REFRESH_MS,
    queryFn: () => call(api.GET('/api/hailing/tours', { params: { query: { limit: COUNT_LIMIT, ...(view === 'compact' ? { view } : {}), filters: { status } } } })),
  });
}

/** The latest completed bookings: a paused tip distribution shows on the booking (API guide, "Tip distribution"). */
export function useCompletedBookings() {
  return useQuery({
    queryKey: ['bookings', 'completed', 'compact'],
    refetchInterval: REFRESH_MS,
    queryFn: () => call(api.GET('/api/hailing/bookings', { params: { query: { limit: COUNT_LIMIT, view: 'compact', filters: { status: ['completed'] } } } })),
  });
}

const OPEN_STOP = new Set(['scheduled', 'approaching', 'arrived', 'to_be_dispatched']);

/** A stop whose ETA is after its time window ends (API guide, "ETAs"). */
export const isLate = (stop: Stop): boolean =>
  OPEN_STOP.has(stop.status) && !!stop.eta && !!stop.time_window && Date.parse(stop.eta) > Date.parse(stop.time_window.ends_at);

export const claimRunningOut = (tour: Tour, now: number): boolean =>
  !!tour.claim_expires_at && Date.parse(tour.claim_expires_at) - now <= CLAIM_WARNING_MS;
