// Dispatch as pages use it: bookings waiting for dispatch, open tours, and the two ways to put stops on a tour —
// merge into a new tour and insert into an existing one (which also reorders a tour and moves stops between tours).
// Shared by the bookings list and the dispatch board; both refresh every list and tour after a change.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../clients/typescript/src/index.ts';
import { api, call } from './client.ts';

type Booking = Schemas['Booking'];
type Tour = Schemas['Tour'];

/** Tours stops can still be put on (the API guide, "Dispatch": insert into a completed or cancelled tour is `tour_closed`). */
export const OPEN_TOUR_STATUSES = ['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route'] as const;

/** A booking's stops that no tour holds yet: what insert puts on a tour for it. */
export const waitingStopIds = (booking: Booking): string[] => (booking.stops ?? []).filter((s) => s.status === 'to_be_dispatched' && !s.tour_id).map((s) => s.id);

/** Bookings with stops waiting for dispatch, with their stops (100 at most: a board, not a search). */
export function useWaitingBookings() {
  return useQuery({
    queryKey: ['bookings', 'list', 'dispatch-board'],
    queryFn: async () =>
      (await call(api.GET('/api/hailing/bookings', { params: { query: { limit: 100, filters: { status: ['to_be_dispatched', 'partially_dispatched'] } } } }))).bookings,
  });
}

/** Open tours with their stops, newest first (100 at most). */
export function useOpenTours() {
  return useQuery({
    queryKey: ['tours', 'list', 'open'],
    queryFn: async () => (await call(api.GET('/api/hailing/tours', { params: { query: { limit: 100, filters: { status: [...OPEN_TOUR_STATUSES] } } } }))).tours,
  });
}

function useRefreshDispatch() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['bookings'] }), queryClient.invalidateQueries({ queryKey: ['tours'] })]);
}

/** POST /api/hailing/bookings/merge: the bookings' waiting stops become a new tour. */
export function useMergeBookings() {
  const refresh = useRefreshDispatch();
  return useMutation({
    mutationFn: async (bookingIds: string[]): Promise<Tour> => (await call(api.POST('/api/hailing/bookings/merge', { body: { booking_ids: bookingIds } }))).tour,
    onSettled: refresh,
  });
}

/** POST /api/hailing/tours/{id}/stops/insert: waiting stops onto the tour, or its own or another tour's scheduled stops moved to `position`. */
export function useInsertStops() {
  const refresh = useRefreshDispatch();
  return useMutation({
    // `bookingIds`: those bookings' open stops, moved together (the API refuses a lone stop that would split a booking).
    mutationFn: async (input: ({ stopIds: string[] } | { bookingIds: string[] }) & { tourId: string; position?: number }): Promise<Tour> =>
      (
        await call(
          api.POST('/api/hailing/tours/{id}/stops/insert', {
            params: { path: { id: input.tourId } },
            body: { ...('bookingIds' in input ? { booking_ids: input.bookingIds } : { stop_ids: input.stopIds }), ...(input.position === undefined ? {} : { position: input.position }) },
          }),
        )
      ).tour,
    onSettled: refresh,
  });
}

/** Insert by booking: each booking's waiting stops, read fresh (lists show bookings compact, without stops), onto the tour. */
export function useInsertBookings() {
  const refresh = useRefreshDispatch();
  return useMutation({
    mutationFn: async (input: { tourId: string; bookingIds: string[] }): Promise<Tour> => {
      const bookings = await Promise.all(input.bookingIds.map(async (id) => (await call(api.GET('/api/hailing/bookings/{id}', { params: { path: { id } } }))).booking));
      const stopIds = bookings.flatMap(waitingStopIds);
      return (await call(api.POST('/api/hailing/tours/{id}/stops/insert', { params: { path: { id: input.tourId } }, body: { stop_ids: stopIds } }))).tour;
    },
    onSettled: refresh,
  });
}
