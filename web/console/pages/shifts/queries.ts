// The shift screen's data (api-guide "Shifts"): each shown driver's shifts of one week, read per driver — the API lists
// shifts by driver — in parallel, and the writes. After a write the shown week is read again.
import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';
import type { paths } from '../../../../clients/typescript/src/index.ts';

export type Shift = Schemas['Shift'];
export type ShiftCreate = paths['/api/drivers/{id}/shifts']['post']['requestBody']['content']['application/json']['shift'];
export type ShiftUpdate = paths['/api/shifts/{id}']['patch']['requestBody']['content']['application/json']['shift'];

/** Shifts of each driver that overlap [from, to), by driver id (a driver has at most a few a week: one page). */
export function useWeekShifts(driverIds: string[], from: string, to: string) {
  const results = useQueries({
    queries: driverIds.map((id) => ({
      queryKey: ['shifts', id, from, to],
      queryFn: async () => (await call(api.GET('/api/drivers/{id}/shifts', { params: { path: { id }, query: { limit: 100, filters: { from, to } } } }))).shifts,
    })),
  });
  const byDriver = new Map<string, Shift[]>();
  driverIds.forEach((id, i) => byDriver.set(id, results[i]?.data ?? []));
  return { byDriver, isPending: results.some((r) => r.isPending), error: results.find((r) => r.error)?.error ?? null };
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['shifts'] });
}

export function useCreateShift() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ driverId, shift }: { driverId: string; shift: ShiftCreate }) => call(api.POST('/api/drivers/{id}/shifts', { params: { path: { id: driverId } }, body: { shift } })),
    onSuccess: () => refresh(),
  });
}

export function useUpdateShift() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, shift }: { id: string; shift: ShiftUpdate }) => call(api.PATCH('/api/shifts/{id}', { params: { path: { id } }, body: { shift } })),
    onSuccess: () => refresh(),
  });
}

export function useDeleteShift() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (id: string) => call(api.DELETE('/api/shifts/{id}', { params: { path: { id } } })), onSuccess: () => refresh() });
}

/** One copy's writes, one request each; the outcomes in order (refusals in the API's words). */
export function useCopyShifts() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (items: { driverId: string; date: string; shift: ShiftCreate }[]) => {
      const outcomes: { index: number; error: unknown }[] = [];
      // Four at a time: quick for 40 drivers × 6 days without a burst the rate limit would meet.
      let next = 0;
      const worker = async () => {
        while (next < items.length) {
          const index = next++;
          const item = items[index];
          if (!item) continue;
          try {
            await call(api.POST('/api/drivers/{id}/shifts', { params: { path: { id: item.driverId } }, body: { shift: item.shift } }));
            outcomes.push({ index, error: null });
          } catch (error) {
            outcomes.push({ index, error });
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      return outcomes.sort((a, b) => a.index - b.index);
    },
    onSettled: () => refresh(),
  });
}
