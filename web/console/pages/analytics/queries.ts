// The Analytics page's data: the figures of a period (api-guide "Delivery analytics"), the stop failure reasons'
// labels in the page's language, and the same figures as the API's CSV file, saved as the API wrote it.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';
import type { Lang } from '../../../i18n/index.tsx';

export type DeliveryAnalytics = Schemas['DeliveryAnalytics'];
export type DriverFigures = DeliveryAnalytics['by_driver'][number];
export type DayFigures = DeliveryAnalytics['by_day'][number];

export interface AnalyticsQuery {
  from: string;
  to: string;
  service_area_id?: string;
}

export function useDeliveryAnalytics(query: AnalyticsQuery | null) {
  return useQuery({
    queryKey: ['analytics', 'deliveries', query],
    enabled: query !== null,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const body = await call(api.GET('/api/analytics/deliveries', { params: { query: query! }, headers: { accept: 'application/json' } }));
      // The operation answers JSON or CSV (its two media types); JSON was asked for.
      if (typeof body === 'string') throw new Error('The service answered CSV where JSON was asked for.');
      return body.analytics;
    },
  });
}

/** The catalogue's labels by key; the language is in the key because the API answers them localized. */
export function useFailureReasonLabels(lang: Lang) {
  return useQuery({
    queryKey: ['reasons', 'stop_failure', lang],
    staleTime: 10 * 60_000,
    queryFn: async () => new Map((await call(api.GET('/api/reasons/stop_failure'))).reasons.map((r) => [r.key, r.label])),
  });
}

const FILENAME = /filename="([^"]+)"/;

/**
 * The API's CSV as bytes (a Blob: decoding it as text would drop its byte-order mark) and the file name its
 * Content-Disposition gives, handed to the browser as a download from a `blob:` link, which the CSP allows.
 */
export async function downloadCsv(query: AnalyticsQuery): Promise<void> {
  const answer = await api.GET('/api/analytics/deliveries', { params: { query }, headers: { accept: 'text/csv' }, parseAs: 'blob' });
  const blob = await call(Promise.resolve(answer));
  const name = FILENAME.exec(answer.response.headers.get('content-disposition') ?? '')?.[1] ?? 'deliveries.csv';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // The download has started once click() returns; the URL is kept a little for browsers that read it later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
