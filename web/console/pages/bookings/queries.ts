// The bookings pages' data: one page of bookings for the filters in the URL; services and places for the new-booking
// form and the import; the single and the bulk create.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, isApiError, type Schemas } from '../../../api/index.ts';
import type { GeocodeResult } from './import/geocode.ts';

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
              // With stops: the list shows each booking's recipient, address and window (issue 37).
              view: 'standard',
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

export type Service = Schemas['Service'];
export type Place = Schemas['Place'];
export type BookingCreate = Schemas['BookingCreate'];
export type BulkResult = Schemas['BulkBookingResult'];

/** Every page of a list (services and places are read whole for the selects; 100 a page). */
async function all<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (!answer.next) break;
    cursor = answer.next;
  }
  return items;
}

/** The tour services a booking can be made for (managers read them too, decision 0202). */
export function useServices() {
  return useQuery({
    queryKey: ['services'],
    staleTime: 5 * 60_000,
    queryFn: () =>
      all(async (cursor) => {
        const body = await call(api.GET('/api/admin/hailing/services', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
        return { items: body.services, next: body.meta.next_cursor };
      }),
  });
}

export function usePlaces() {
  return useQuery({
    queryKey: ['places'],
    staleTime: 60_000,
    queryFn: () =>
      all(async (cursor) => {
        const body = await call(api.GET('/api/places', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
        return { items: body.places, next: body.meta.next_cursor };
      }),
  });
}

/** One create per form: the form's key makes a double submit or a retry after a lost answer create one booking. */
export function useCreateBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { booking: BookingCreate; key: string }) =>
      call(api.POST('/api/hailing/bookings', { params: { header: { 'Idempotency-Key': input.key } }, body: { booking: input.booking } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['bookings'] }),
  });
}

/** One bulk call of up to 100 bookings (the import sends its chunks through this one after the other). */
export async function createBookingsInBulk(items: { idempotency_key: string; booking: BookingCreate }[], dryRun: boolean): Promise<BulkResult[]> {
  const body = await call(api.POST('/api/hailing/bookings/bulk', { body: { bookings: items, dry_run: dryRun } }));
  return body.results;
}

type GeocodeAnswer = { results: GeocodeResult[] };
type UntypedGet = (path: string, init: { params: { query: Record<string, string> } }) => Promise<{ data?: GeocodeAnswer; error?: unknown; response: Response }>;

/**
 * `GET /api/geocode` (contract §14): where an address is, best first. Called through the client untyped until the
 * region's route is in the generated OpenAPI document; the answer's shape is the contract's.
 */
export async function geocode(q: string, serviceAreaId: string | null): Promise<GeocodeAnswer['results']> {
  const get = api.GET as unknown as UntypedGet;
  const body = await call(get('/api/geocode', { params: { query: { q, ...(serviceAreaId ? { service_area_id: serviceAreaId } : {}) } } }));
  return body.results;
}

/**
 * A pin remembered as a place: created for the address, or the place that address already has (409 `place_exists`
 * names it, contract §14). Either way the import's row goes to that place.
 */
export async function placeForPin(input: { name: string; address: Schemas['PlaceCreate']['address']; location: { lat: number; lng: number }; serviceAreaId: string | null }): Promise<string> {
  try {
    const body = await call(api.POST('/api/places', { body: { place: { name: input.name, address: input.address, location: input.location, ...(input.serviceAreaId ? { service_area_id: input.serviceAreaId } : {}) } } }));
    return body.place.id;
  } catch (error) {
    const existing = isApiError(error) && error.status === 409 ? (error.problem as { place_id?: unknown }).place_id : undefined;
    if (typeof existing === 'string') return existing;
    throw error;
  }
}
