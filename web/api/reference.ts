// Reference data many pages show beside their own (service areas for time zones and currency, organizations for
// names): fetched once per session and kept, since it changes rarely.
import { useQueries, useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../clients/typescript/src/index.ts';
import { api, call } from './client.ts';

export type ServiceArea = Schemas['ServiceArea'];
export type Organization = Schemas['Organization'];

const LONG = 5 * 60_000;

/** Every page of a list (reference lists are small; 100 a page). */
async function all<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; next: string | null }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (!answer.next) break;
    cursor = answer.next;
  }
  return items;
}

export function useServiceAreas() {
  return useQuery({
    queryKey: ['service_areas'],
    staleTime: LONG,
    queryFn: () =>
      all(async (cursor) => {
        const body = await call(api.GET('/api/admin/service_areas', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
        return { items: body.service_areas, next: body.meta.next_cursor };
      }),
  });
}

export function useOrganizations() {
  return useQuery({
    queryKey: ['organizations'],
    staleTime: LONG,
    queryFn: () =>
      all(async (cursor) => {
        const body = await call(api.GET('/api/organizations', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));
        return { items: body.organizations, next: body.meta.next_cursor };
      }),
  });
}

/** Drivers' names for tours and the map (a manager reads the drivers of its own organizations). */
export function useDrivers() {
  return useQuery({
    queryKey: ['users', 'drivers'],
    staleTime: LONG,
    queryFn: () =>
      all(async (cursor) => {
        const body = await call(api.GET('/api/users', { params: { query: { limit: 100, ...(cursor ? { cursor } : {}), filters: { role: 'driver' } } } }));
        return { items: body.users, next: body.meta.next_cursor };
      }),
  });
}

/** Lookups by id for rendering rows. */
export const byId = <T extends { id: string }>(items: T[] | undefined): Map<string, T> => new Map((items ?? []).map((item) => [item.id, item]));

async function stopFailureReasons() {
  return (await call(api.GET('/api/reasons/stop_failure'))).reasons;
}
type StopFailureReasons = Awaited<ReturnType<typeof stopFailureReasons>>;
const labelsByKey = (reasons: StopFailureReasons) => new Map(reasons.map((r) => [r.key, r.label] as const));

/** The stop-failure reasons in `lang`: the API words them by the request's language, so the language is in the key. */
export function useStopFailureReasons(lang: string) {
  return useQuery({ queryKey: ['reasons', 'stop_failure', lang], staleTime: LONG, queryFn: stopFailureReasons });
}

/** The same reasons' labels by key, for naming a failure's reason in words (one cache entry with the list). */
export function useStopFailureReasonLabels(lang: string) {
  return useQuery({ queryKey: ['reasons', 'stop_failure', lang], staleTime: LONG, queryFn: stopFailureReasons, select: labelsByKey });
}

/** Names of some places (a board's depots), each read once and kept; a place this caller may not read has none. */
export function usePlaceNames(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)].sort();
  return useQueries({
    queries: unique.map((id) => ({
      queryKey: ['places', id],
      staleTime: LONG,
      retry: false,
      queryFn: async () => (await call(api.GET('/api/places/{id}', { params: { path: { id } } }))).place,
    })),
    combine: (results) => new Map(results.flatMap((r) => (r.data ? [[r.data.id, r.data.name] as const] : []))),
  });
}
