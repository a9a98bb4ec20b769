// The reports pages' data and actions: a page of reports for the tag filter, one report with its activity, revoking a
// grant, and the multipart upload of a new report with its progress (api-guide "Reports").
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, upload, type UploadProgress } from '../../../api/index.ts';
import type { paths } from '../../../../clients/typescript/src/index.ts';

export type Report = paths['/api/reports/{id}']['get']['responses'][200]['content']['application/json']['report'];
export type Grant = Report['grants'][number];
export type ReportInput = paths['/api/reports']['post']['requestBody']['content']['application/json']['report'];
export type Activity = paths['/api/reports/{id}/activity']['get']['responses'][200]['content']['application/json']['activity'][number];

const reportKey = (id: string) => ['reports', id] as const;

export function useReportsPage(tags: string[], cursor: string | undefined) {
  return useQuery({
    queryKey: ['reports', 'list', tags, cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () => call(api.GET('/api/reports', { params: { query: { limit: 25, ...(cursor ? { cursor } : {}), ...(tags.length ? { filters: { tags } } : {}) } } })),
  });
}

export function useReport(id: string) {
  return useQuery({ queryKey: reportKey(id), queryFn: async () => (await call(api.GET('/api/reports/{id}', { params: { path: { id } } }))).report });
}

export function useReportActivity(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...reportKey(id), 'activity'],
    enabled,
    queryFn: async () => (await call(api.GET('/api/reports/{id}/activity', { params: { path: { id }, query: { limit: 100 } } }))).activity,
  });
}

export function useRevokeGrant(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (index: number) => call(api.DELETE('/api/reports/{id}/grants/{index}', { params: { path: { id, index: String(index) } } })),
    onSuccess: ({ report }) => {
      queryClient.setQueryData(reportKey(id), report);
      void queryClient.invalidateQueries({ queryKey: ['reports', 'list'] });
    },
  });
}

/** People a grant may name: the users the caller can see (a manager sees those sharing one of its organizations). */
export function useGrantableUsers() {
  return useQuery({
    queryKey: ['users', 'grantable'],
    staleTime: 60_000,
    queryFn: async () => (await call(api.GET('/api/users', { params: { query: { limit: 100 } } }))).users.filter((u) => !u.deactivated_at),
  });
}

/** The upload: the `report` part (JSON) first, then the `file` part, as the API requires; progress 0–1. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: ({ report, file }: { report: Omit<ReportInput, 'file'>; file: File }) => {
      const form = new FormData();
      form.append('report', JSON.stringify(report));
      form.append('file', file, file.name);
      setProgress(0);
      return upload<{ report: Report }>('/api/reports', form, (p: UploadProgress) => setProgress(p.total ? p.loaded / p.total : 0));
    },
    onSettled: () => setProgress(null),
    onSuccess: ({ report }) => {
      queryClient.setQueryData(reportKey(report.id), report);
      void queryClient.invalidateQueries({ queryKey: ['reports', 'list'] });
    },
  });
  return { ...mutation, progress };
}
