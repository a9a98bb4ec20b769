// The plan page's data and actions: the waiting bookings with their stops, the planner's proposal, and applying the
// tours the dispatcher kept in one request (decisions 1040, 1645).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Booking = Schemas['Booking'];
export type Stop = Schemas['Stop'];
export type Plan = Schemas['DispatchPlan'];
export type ProposedTour = Plan['tours'][number];

/** A plan takes up to 1,000 bookings, in the console as through the API (contract §16). */
export const MAX_BOOKINGS = 1000;
const PAGE = 100;

/**
 * The search budget: 20 ms a booking, at least 2 s (a dispatcher waits for less than the planner's default 5 s and
 * can plan again) and at most 20 s (a day of 1,000 bookings: docs/performance.md, "Fleet planning").
 */
export const planTimeLimitMs = (bookings: number): number => Math.min(20_000, Math.max(2000, 20 * bookings));

/** The waiting bookings, newest first, page by page up to MAX_BOOKINGS; `more` when others wait beyond them. */
export function useWaitingBookings() {
  return useQuery({
    queryKey: ['bookings', 'waiting', 'full'],
    queryFn: async (): Promise<{ bookings: Booking[]; more: boolean }> => {
      const page = async (cursor: string | null): Promise<{ bookings: Booking[]; next: string | null }> => {
        const query = { limit: PAGE, filters: { status: ['to_be_dispatched' as const, 'partially_dispatched' as const] }, ...(cursor ? { cursor } : {}) };
        const body = await call(api.GET('/api/hailing/bookings', { params: { query } }));
        return { bookings: body.bookings, next: body.meta.next_cursor ?? null };
      };
      const bookings: Booking[] = [];
      let next: string | null = null;
      do {
        const read = await page(next);
        bookings.push(...read.bookings);
        next = read.next;
      } while (next && bookings.length < MAX_BOOKINGS);
      return { bookings: bookings.slice(0, MAX_BOOKINGS), more: next !== null || bookings.length > MAX_BOOKINGS };
    },
  });
}

export type Objective = NonNullable<Plan['objective']>;
export type PlanJob = Schemas['DispatchPlanJob'];
/** How often a plan run as a job is asked for its progress (decision 1302). */
const POLL_MS = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A proposal only: nothing is written (no `apply`). Every plan runs as a job (202, polled until done, `onProgress`
 * hears each poll), so that applying it is one request on its id (decision 1645). With drivers, the planner plans
 * with their shifts (one tour per shift, its driver named).
 */
export function usePlan() {
  return useMutation({
    mutationFn: async (input: { bookingIds: string[]; driverIds: string[]; objective: Objective; onProgress?: (job: PlanJob) => void }): Promise<{ id: string; plan: Plan }> => {
      const fleet = input.driverIds.length ? { drivers: input.driverIds, objective: input.objective } : {};
      const answer = await call(api.POST('/api/hailing/dispatch/plan', { body: { booking_ids: input.bookingIds, time_limit_ms: planTimeLimitMs(input.bookingIds.length), async: true, ...fleet } }));
      let plan: Plan | PlanJob = answer.plan;
      while ('status' in plan) {
        input.onProgress?.(plan);
        if (plan.status === 'failed') throw new Error(plan.error?.detail ?? 'The plan failed.');
        if (plan.status === 'done') return { id: plan.id, plan: planOf(plan) };
        await wait(POLL_MS);
        plan = (await call(api.GET('/api/hailing/dispatch/plans/{id}', { params: { path: { id: plan.id } } }))).plan;
      }
      throw new Error('The planner answered a plan that was not run as a job.');
    },
  });
}

/** A finished job's plan members, as the page shows a proposal. */
const planOf = (job: PlanJob): Plan => ({
  applied: job.applied ?? false,
  tours: job.tours ?? [],
  travel_seconds: job.travel_seconds ?? 0,
  travel_source: job.travel_source ?? 'straight_line',
  unplaced: job.unplaced ?? [],
  ...(job.objective ? { objective: job.objective } : {}),
});

export interface Applied {
  index: number;
  tourId: string | null;
  /** The driver's tour under way, which the plan added to (decision 1303), not a new tour. */
  running: boolean;
}

/**
 * Applies the kept tours of a plan in one request (POST …/plans/{id}/apply): all are created — each with the driver
 * chosen where it differs from the plan's — and a driver's tour under way gets its planned stops, or nothing is
 * written (409 plan_outdated when the stops moved meanwhile; decision 1645). The page may close at any moment.
 */
export function useApplyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { planId: string; tours: { index: number; driverId?: string | null }[] }): Promise<Applied[]> => {
      const body = { tours: input.tours.map((t) => ({ index: t.index, ...(t.driverId !== undefined ? { driver_id: t.driverId } : {}) })) };
      const answer = await call(api.POST('/api/hailing/dispatch/plans/{id}/apply', { params: { path: { id: input.planId } }, body }));
      const tours = answer.plan.tours ?? [];
      return input.tours.map((t) => ({ index: t.index, tourId: tours[t.index]?.tour_id ?? null, running: tours[t.index]?.running === true }));
    },
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['bookings'] }), queryClient.invalidateQueries({ queryKey: ['tours'] })]),
  });
}
