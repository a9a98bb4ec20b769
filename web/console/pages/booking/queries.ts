// The booking page's data: the booking, its events (the event log, for admins), and cancelling it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../../api/index.ts';

export const bookingKey = (id: string) => ['bookings', id] as const;

export function useBooking(id: string) {
  return useQuery({ queryKey: bookingKey(id), queryFn: async () => (await call(api.GET('/api/hailing/bookings/{id}', { params: { path: { id } } }))).booking });
}

export function useBookingEvents(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...bookingKey(id), 'events'],
    enabled,
    queryFn: async () => (await call(api.GET('/api/admin/events', { params: { query: { limit: 100, filters: { resource_id: id } } } }))).events,
  });
}

export function useCancelBooking(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/api/hailing/bookings/{id}/cancel', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKey(id) }),
  });
}
