// The bookings list's data: one page of bookings for the filters in the URL.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Booking = Schemas['Booking'];
export type BookingStatus = Schemas['BookingStatus'];

export interface BookingFilters {
  status?: BookingStatus;
  service_area_id?: string;
  external_id?: string;
  /** Local dates (yyyy-mm-dd) from the date fields; sent as the start of that day and of the day after. */
  created_from?: string;
  created_to?: string;
}

const dayStart = (date: string, plusDays = 0): string => {
  const d = new Date(`${date}T00:00:00`);
  d.setDate(d.getDate() + plusDays);
  return d.toISOString();
};

export function useBookingsPage(filters: BookingFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: ['bookings', 'list', filters, cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/hailing/bookings', {
          params: {
            query: {
              limit: 50,
              view: 'compact',
              ...(cursor ? { cursor } : {}),
              filters: {
                ...(filters.status ? { status: [filters.status] } : {}),
                ...(filters.service_area_id ? { service_area_id: filters.service_area_id } : {}),
                ...(filters.external_id ? { external_id: filters.external_id } : {}),
                ...(filters.created_from ? { created_after: dayStart(filters.created_from) } : {}),
                ...(filters.created_to ? { created_before: dayStart(filters.created_to, 1) } : {}),
              },
            },
          },
        }),
      ),
  });
}
