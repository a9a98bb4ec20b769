// The Analytics page's data: the figures of a period (api-guide "Delivery analytics"), and the same figures as the
// API's CSV file, saved as the API wrote it (the failure reasons' labels are the shared reference data, web/api).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, type Schemas } from '../../../api/index.ts';

export type DeliveryAnalytics = Schemas['DeliveryAnalytics'];
export type DriverFigures = DeliveryAnalytics['by_driver'][number];
export type DayFigures = DeliveryAnalytics['by_day'][number];
export type DriverDayFigures = DeliveryAnalytics['by_driver_day'][number];

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
