// The booking page's data: the booking, its timeline (GET …/events: admins, managers who see it), the messages its
// recipients were sent (GET …/messages), and cancelling it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { paths } from '../../../../clients/typescript/src/index.ts';
import { api, call } from '../../../api/index.ts';

export const bookingKey = (id: string) => ['bookings', id] as const;

export function useBooking(id: string) {
  return useQuery({ queryKey: bookingKey(id), queryFn: async () => (await call(api.GET('/api/hailing/bookings/{id}', { params: { path: { id } } }))).booking });
}

export function useBookingEvents(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...bookingKey(id), 'events'],
    enabled,
    queryFn: async () => (await call(api.GET('/api/hailing/bookings/{id}/events', { params: { path: { id }, query: { limit: 100 } } }))).events,
  });
}

export type BookingMessage = paths['/api/hailing/bookings/{id}/messages']['get']['responses'][200]['content']['application/json']['messages'][number];

/** Every e-mail and SMS the booking's recipients were sent, with its delivery state (contract §18). */
export function useBookingMessages(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...bookingKey(id), 'messages'],
    enabled,
    queryFn: async () => (await call(api.GET('/api/hailing/bookings/{id}/messages', { params: { path: { id } } }))).messages,
  });
}

/**
 * The recipient's rating, read through the booking's own tracking link (the booking carries it for admins, managers
 * and customers): the public read is the one place the feedback is shown (docs/tracking.md). Null when none was given
 * or the link no longer answers (expired).
 */
export function useRecipientFeedback(id: string, trackingUrl: string | null | undefined, enabled: boolean) {
  const token = trackingUrl ? decodeURIComponent(trackingUrl.split('/').pop() ?? '') : '';
  return useQuery({
    queryKey: [...bookingKey(id), 'feedback'],
    enabled: enabled && token !== '',
    queryFn: async () => {
      const res = await api.GET('/api/tracking/{token}', { params: { path: { token } } });
      return res.data?.tracking.feedback ?? null;
    },
  });
}

export function useCancelBooking(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/api/hailing/bookings/{id}/cancel', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKey(id) }),
  });
}
