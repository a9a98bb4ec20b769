// The plan page's data and actions: the waiting bookings with their stops, the planner's proposal, and applying the
// tours the dispatcher kept (decision 1040).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Booking = Schemas['Booking'];
export type Stop = Schemas['Stop'];
export type Plan = Schemas['DispatchPlan'];
export type ProposedTour = Plan['tours'][number];

/** The planner takes at most 100 bookings (API guide, "Optimising tours and planning dispatch"). */
export const MAX_BOOKINGS = 100;
/** The search budget: the planner's default is 5 s; a dispatcher waits for less and can plan again. */
const TIME_LIMIT_MS = 2000;

export function useWaitingBookings() {
  return useQuery({
    queryKey: ['bookings', 'waiting', 'full'],
    queryFn: () => call(api.GET('/api/hailing/bookings', { params: { query: { limit: MAX_BOOKINGS, filters: { status: ['to_be_dispatched', 'partially_dispatched'] } } } })),
  });
}

export type Objective = NonNullable<Plan['objective']>;
export type PlanJob = Schemas['DispatchPlanJob'];
/** How often a plan run as a job is asked for its progress (decision 1302). */
const POLL_MS = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A proposal only: nothing is written (no `apply`). With drivers, the planner plans with their shifts (one tour per
 * shift, its driver named); a plan answered 202 runs as a job and is polled until done (`onProgress` hears each poll).
 */
export function usePlan() {
  return useMutation({
    mutationFn: async (input: { bookingIds: string[]; driverIds: string[]; objective: Objective; onProgress?: (job: PlanJob) => void }): Promise<Plan> => {
      // With drivers the plan runs as a job: a day's plan may take longer than a request should, and the page shows it running.
      const fleet = input.driverIds.length ? { drivers: input.driverIds, objective: input.objective, async: true } : {};
      const answer = await call(api.POST('/api/hailing/dispatch/plan', { body: { booking_ids: input.bookingIds, time_limit_ms: TIME_LIMIT_MS, ...fleet } }));
      let plan: Plan | PlanJob = answer.plan;
      while ('status' in plan) {
        input.onProgress?.(plan);
        if (plan.status === 'failed') throw new Error(plan.error?.detail ?? 'The plan failed.');
        if (plan.status === 'done') return { applied: false, tours: plan.tours ?? [], travel_seconds: plan.travel_seconds ?? 0, travel_source: plan.travel_source ?? 'straight_line', unplaced: plan.unplaced ?? [], ...(plan.objective ? { objective: plan.objective } : {}) };
        await wait(POLL_MS);
        plan = (await call(api.GET('/api/hailing/dispatch/plans/{id}', { params: { path: { id: plan.id } } }))).plan;
      }
      return plan;
    },
  });
}

export interface Applied {
  index: number;
  tourId: string | null;
  error: unknown;
  /** The driver's tour under way, which the plan added to (decision 1303), not a new tour. */
  running: boolean;
}

/**
 * Creates each kept tour with merge, its stops in the proposed order, and assigns the driver chosen for it. One
 * request per tour, so the tours the dispatcher left out are not created and one refused tour does not undo the
 * others (decision 1040). A running tour (`runningTourId`) gets the plan's new stops by insert and its open stops
 * ordered again by the optimiser, which keeps its stops done or under way where they are (decision 1303).
 */
export function useApplyPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (tours: { index: number; stopIds: string[]; driverId: string | null; runningTourId: string | null }[]): Promise<Applied[]> => {
      const results: Applied[] = [];
      for (const tour of tours) {
        let tourId: string | null = null;
        try {
          if (tour.runningTourId) {
            const path = { id: tour.runningTourId };
            if (tour.stopIds.length) await call(api.POST('/api/hailing/tours/{id}/stops/insert', { params: { path }, body: { stop_ids: tour.stopIds } }));
            tourId = tour.runningTourId;
            await call(api.POST('/api/hailing/tours/{id}/optimize', { params: { path }, body: {} }));
          } else {
            tourId = (await call(api.POST('/api/hailing/bookings/merge', { body: { stop_ids: tour.stopIds } }))).tour.id;
            if (tour.driverId) await call(api.POST('/api/hailing/tours/{id}/force_assign', { params: { path: { id: tourId } }, body: { driver_id: tour.driverId } }));
          }
          results.push({ index: tour.index, tourId, error: null, running: tour.runningTourId !== null });
        } catch (error) {
          results.push({ index: tour.index, tourId, error, running: tour.runningTourId !== null });
        }
      }
      return results;
    },
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['bookings'] }), queryClient.invalidateQueries({ queryKey: ['tours'] })]),
  });
}
