// The tour page's data and actions: the tour with its stops, its route, stop failure reasons, the compensation and its history.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type Tour = Schemas['Tour'];
export type Stop = Schemas['Stop'];
export type FailureOutcome = Schemas['FailureOutcome'];

export const tourKey = (id: string) => ['tours', id] as const;

export function useTour(id: string) {
  return useQuery({ queryKey: tourKey(id), queryFn: async () => (await call(api.GET('/api/hailing/tours/{id}', { params: { path: { id } } }))).tour });
}

/** The tour's remaining route along the roads (contract §15): asked again whenever a stop moves on (`stopsKey`). */
/**
 * The tour's applied plan against what happened (api-guide "Delivery analytics"): asked again whenever a stop or the
 * tour moves on (`progressKey`), which the live stream makes the tour's own refetch see.
 */
export function useTourAnalytics(id: string, progressKey: string) {
  return useQuery({
    queryKey: [...tourKey(id), 'analytics', progressKey],
    placeholderData: keepPreviousData,
    queryFn: async () => (await call(api.GET('/api/analytics/tours/{id}', { params: { path: { id } } }))).tour_analytics,
  });
}

export function useTourRoute(id: string, stopsKey: string) {
  return useQuery({
    queryKey: [...tourKey(id), 'route', stopsKey],
    queryFn: async () => (await call(api.GET('/api/hailing/tours/{id}/route', { params: { path: { id } } }))).route,
  });
}

export function useFailStop(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { stopId: string; outcome: FailureOutcome; reason_key?: string; note?: string }) =>
      call(
        api.POST('/api/stops/{id}/fail', {
          params: { path: { id: input.stopId } },
          body: { outcome: input.outcome, ...(input.reason_key ? { reason_key: input.reason_key } : {}), ...(input.note ? { note: input.note } : {}) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tourKey(tourId) }),
  });
}

export const compensationKey = (id: string) => ['tours', id, 'compensation'] as const;

export function useCompensation(tourId: string) {
  return useQuery({
    queryKey: compensationKey(tourId),
    queryFn: async () => {
      const [compensation, history] = await Promise.all([
        call(api.GET('/api/tours/{id}/compensation', { params: { path: { id: tourId } } })),
        call(api.GET('/api/tours/{id}/compensation/history', { params: { path: { id: tourId } } })),
      ]);
      return { ...compensation.compensation, history: history.history };
    },
  });
}

type Component = { kind: 'base' } | { kind: 'bonus'; key: string };

export function useSetComponent(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Component & { amount: number; currency: string; label: string | null }) => {
      const body = { amount: input.amount, currency: input.currency, label: input.label };
      return input.kind === 'base'
        ? call(api.PUT('/api/tours/{id}/compensation/base', { params: { path: { id: tourId } }, body }))
        : call(api.PUT('/api/tours/{id}/compensation/bonus/{key}', { params: { path: { id: tourId, key: input.key } }, body }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: compensationKey(tourId) }),
  });
}

export function useRemoveComponent(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Component) =>
      input.kind === 'base'
        ? call(api.DELETE('/api/tours/{id}/compensation/base', { params: { path: { id: tourId } } }))
        : call(api.DELETE('/api/tours/{id}/compensation/bonus/{key}', { params: { path: { id: tourId, key: input.key } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: compensationKey(tourId) }),
  });
}

export function useResumeTips(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(api.POST('/api/tours/{id}/compensation/tips/resume', { params: { path: { id: tourId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: compensationKey(tourId) }),
  });
}

export type TourAction = 'schedule' | 'ready_to_pick' | 'hold' | 'force_unassign' | 'cancel';

/** The dispatcher's transitions without a body (the API guide, "Tour lifecycle"); force_assign has its own. */
export function useTourAction(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: TourAction) => {
      const params = { path: { id: tourId } };
      switch (action) {
        case 'schedule':
          return call(api.POST('/api/hailing/tours/{id}/schedule', { params }));
        case 'ready_to_pick':
          return call(api.POST('/api/hailing/tours/{id}/ready_to_pick', { params }));
        case 'hold':
          return call(api.POST('/api/hailing/tours/{id}/hold', { params }));
        case 'force_unassign':
          return call(api.POST('/api/hailing/tours/{id}/force_unassign', { params }));
        case 'cancel':
          return call(api.POST('/api/hailing/tours/{id}/cancel', { params }));
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tours'] }),
  });
}

export function useForceAssign(tourId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { driver_id: string; start: boolean }) => call(api.POST('/api/hailing/tours/{id}/force_assign', { params: { path: { id: tourId } }, body: input })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tours'] }),
  });
}
