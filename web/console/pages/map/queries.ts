// The map's data: tours a driver holds (with their stops), the drivers' names, each tour's latest position, the
// service areas' outlines. Positions then arrive on the live stream.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Tour = Schemas['Tour'];

async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; next: string | null }>, max = 20): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < max; i++) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (!page.next) break;
    cursor = page.next;
  }
  return items;
}

export function useDrivenTours() {
  return useQuery({
    queryKey: ['tours', 'driven'],
    refetchInterval: 60_000,
    queryFn: () =>
      allPages(async (cursor) => {
        const body = await call(
          api.GET('/api/hailing/tours', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}), filters: { status: ['claimed', 'en_route'] } } } }),
        );
        return { items: body.tours, next: body.meta.next_cursor };
      }),
  });
}

/** The ids of a tour's stops still to serve, in tour order: its route changes when they do. */
export const remainingStopsKey = (tour: Tour): string =>
  [...(tour.stops ?? [])]
    .filter((stop) => stop.status !== 'completed' && stop.status !== 'failed')
    .sort((a, b) => (a.tour_position ?? 0) - (b.tour_position ?? 0))
    .map((stop) => stop.id)
    .join(',');

export interface DrawnRoute {
  tourId: string;
  coordinates: number[][];
  travelSource: string;
}

/** The routes read, by tour. One function for every render: TanStack Query then keeps its result while no read changes. */
function routesByTour(results: { data?: DrawnRoute | undefined }[]): Map<string, DrawnRoute> {
  const routes = new Map<string, DrawnRoute>();
  for (const result of results) if (result.data) routes.set(result.data.tourId, result.data);
  return routes;
}

/**
 * Each tour's route along the roads through its remaining stops (contract §15), read once per set of remaining
 * stops (a served stop reads it again, a position does not): the map draws it instead of the stops' straight
 * lines once it is here. The browser queues the reads on its few connections; a tour whose read fails keeps its
 * straight lines.
 */
export function useTourRoutes(tours: Tour[]): Map<string, DrawnRoute> {
  return useQueries({
    queries: tours.map((tour) => ({
      queryKey: ['tours', tour.id, 'route', remainingStopsKey(tour)],
      staleTime: Infinity,
      retry: false,
      queryFn: async (): Promise<DrawnRoute> => {
        const route = (await call(api.GET('/api/hailing/tours/{id}/route', { params: { path: { id: tour.id } } }))).route;
        return { tourId: tour.id, coordinates: route.geometry.coordinates, travelSource: route.travel_source };
      },
    })),
    combine: routesByTour,
  });
}

export interface Fix {
  lat: number;
  lng: number;
  recordedAt: number;
  tourId: string;
}

/** The latest stored position of each tour, six requests at a time, so the map is not empty until the next fix. */
export async function latestFixes(tourIds: string[]): Promise<Map<string, Fix>> {
  const fixes = new Map<string, Fix>();
  let next = 0;
  const worker = async () => {
    while (next < tourIds.length) {
      const tourId = tourIds[next++]!;
      try {
        const body = await call(api.GET('/api/hailing/tours/{id}/positions', { params: { path: { id: tourId }, query: { limit: 1 } } }));
        const fix = body.positions[0];
        if (fix) fixes.set(tourId, { lat: fix.lat, lng: fix.lng, recordedAt: Date.parse(fix.recorded_at), tourId });
      } catch {
        // a tour that ended meanwhile has no position to show
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return fixes;
}
