// The driver's data: the signed-in user, its tours, the bookings on them (packages), reasons and pay. What was last
// fetched is kept in localStorage, so the app opens with the tour on screen with no connection (docs/driver-app.md);
// the cache holds no credential (the session is an HttpOnly cookie) and is wiped on sign-out.
import { useQueries, useQuery } from '@tanstack/react-query';
import { api, call, useSession, type Schemas, type User } from '../api/index.ts';
import { ConnectionError } from '../api/problem.ts';
import { useLang } from '../i18n/index.tsx';
import { outboxIdle } from './queue/index.ts';

export type Tour = Schemas['Tour'];
export type Stop = Schemas['Stop'];
export type Booking = Schemas['Booking'];
export type Package = NonNullable<Booking['packages']>[number];

const PREFIX = 'tourbook.driver.';

function load<T>(key: string): T | undefined {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

function save(key: string, value: unknown): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // storage full or blocked: the app still works online
  }
}

/** Another driver on this phone must not see the last one's tours. */
export function forgetCachedData(): void {
  try {
    for (const key of Object.keys(localStorage)) if (key.startsWith(PREFIX)) localStorage.removeItem(key);
  } catch {
    // nothing stored
  }
}

/**
 * A query whose last answer is kept on the device and shown first (refetched at once when the app opens). While the
 * outbox sends, the read waits — the actions' requests go first, and a read made before they are through would show
 * the state they change (decision 1208) — when an answer is on screen or the read is `extra` (packages, failure
 * options: the tour's screen works without them).
 */
function persisted<T>(key: string, fetcher: () => Promise<T>, extra = false) {
  return {
    queryKey: ['driver', ...key.split('/')],
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      if (extra || load<T>(key) !== undefined) {
        await outboxIdle();
        // The refetch after the queue may have replaced this one meanwhile.
        signal.throwIfAborted();
      }
      const value = await fetcher();
      save(key, value);
      return value;
    },
    initialData: () => load<T>(key),
    initialDataUpdatedAt: 0,
  };
}

/**
 * The session, or the user last signed in while the service cannot be reached: the cookie may well be valid, and the
 * driver's queued actions wait for it. A definite "nobody" (401) signs out.
 */
export function useDriverSession(): { user: User | null; pending: boolean; error: unknown } {
  const session = useSession();
  if (session.data !== undefined) {
    if (session.data) save('user', session.data);
    else forgetCachedData();
    return { user: session.data, pending: false, error: null };
  }
  const cached = load<User>('user');
  if (cached) return { user: cached, pending: false, error: null };
  if (session.isError && !(session.error instanceof ConnectionError)) return { user: null, pending: false, error: session.error };
  return { user: null, pending: true, error: null };
}

const OPEN: Tour['status'][] = ['scheduled', 'pickable', 'claimed', 'en_route'];

/** The open tours the API shows this driver: its own, and those it may claim or pick. */
export function useOpenTours() {
  return useQuery(
    persisted('tours/open', async () => (await call(api.GET('/api/hailing/tours', { params: { query: { limit: 100, filters: { status: OPEN } } } }))).tours),
  );
}

/** Every tour of the driver, newest first (pay): finished ones included. */
export function useRecentTours() {
  return useQuery(persisted('tours/recent', async () => (await call(api.GET('/api/hailing/tours', { params: { query: { limit: 50, view: 'compact' } } }))).tours));
}

/** A tour; before its own answer is cached, the copy in the cached tours list (it has the stops) opens it offline. */
export function tourQuery(id: string) {
  const query = persisted(`tour/${id}`, async () => (await call(api.GET('/api/hailing/tours/{id}', { params: { path: { id } } }))).tour);
  return { ...query, initialData: () => query.initialData() ?? load<Tour[]>('tours/open')?.find((tour) => tour.id === id) };
}

export function useTour(id: string) {
  return useQuery(tourQuery(id));
}

/** The bookings of a tour's stops, for their packages (a booking the driver may not see yet is left out). */
export function useTourBookings(tour: Tour | undefined) {
  const ids = [...new Set((tour?.stops ?? []).map((s) => s.booking_id).filter((id): id is string => !!id))];
  const results = useQueries({
    queries: ids.map((id) => ({
      ...persisted(`booking/${id}`, async () => {
        try {
          return (await call(api.GET('/api/hailing/bookings/{id}', { params: { path: { id } } }))).booking;
        } catch (error) {
          if (error instanceof ConnectionError) throw error;
          return null;
        }
      }, true),
      staleTime: 30_000,
    })),
  });
  const packages = new Map<string, Package>();
  for (const result of results) for (const pkg of result.data?.packages ?? []) packages.set(pkg.id, pkg);
  return packages;
}

/** Reasons come localized (Accept-Language): one cached copy per language. */
/** How many of a tour's next open stops have their failure options fetched ahead (kept for offline use). */
export const STOPS_FETCHED_AHEAD = 5;

/**
 * The stops' failure_options (rendered by GET /api/stops/{id}, not in the tour): fetched for the tour's next open
 * stops so the Fail dialog can be built offline; a bounded number, so a long tour costs a few requests, not a hundred.
 */
export function useStopDetails(stopIds: string[]) {
  const { lang } = useLang();
  const results = useQueries({
    queries: stopIds.slice(0, STOPS_FETCHED_AHEAD).map((id) => ({
      ...persisted(`stop/${id}/${lang}`, async () => (await call(api.GET('/api/stops/{id}', { params: { path: { id } } }))).stop, true),
      staleTime: 30_000,
    })),
  });
  const stops = new Map<string, Stop>();
  for (const result of results) if (result.data) stops.set(result.data.id, result.data);
  return stops;
}

export function useStopFailureReasons() {
  const { lang } = useLang();
  return useQuery({ ...persisted(`reasons/stop_failure/${lang}`, async () => (await call(api.GET('/api/reasons/stop_failure'))).reasons), staleTime: 10 * 60_000 });
}

export function usePackageFailureReasons() {
  const { lang } = useLang();
  return useQuery({ ...persisted(`reasons/package_failure/${lang}`, async () => (await call(api.GET('/api/reasons/package_failure'))).reasons), staleTime: 10 * 60_000 });
}

export function useCompensations(tourIds: string[]) {
  return useQueries({
    queries: tourIds.map((id) => persisted(`compensation/${id}`, async () => (await call(api.GET('/api/tours/{id}/compensation', { params: { path: { id } } }))).compensation)),
  });
}
