// Tours: the list by state (kept in the URL), with each tour's driver and progress, and cursor paging.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { api, byId, call, useDrivers, type Schemas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Button, ErrorBanner, Loading, PageHead, Pager, SelectField, StatusBadge, useAreaZones, useCursorPages, useTourName } from '../../../ui/index.ts';
import { messages } from './messages.ts';

type TourStatus = Schemas['TourStatus'];
const STATUSES: TourStatus[] = ['to_be_dispatched', 'scheduled', 'pickable', 'claimed', 'en_route', 'completed', 'cancelled'];

function useToursPage(status: TourStatus | undefined, cursor: string | undefined) {
  return useQuery({
    queryKey: ['tours', 'list', status ?? null, cursor ?? null],
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(api.GET('/api/hailing/tours', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}), ...(status ? { filters: { status: [status] } } : {}) } } })),
  });
}

export function ToursPage() {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const search = useSearch();
  const [, navigate] = useLocation();
  const status = (new URLSearchParams(search).get('status') as TourStatus | null) ?? undefined;
  const pages = useCursorPages();
  const tours = useToursPage(status, pages.cursor);
  const drivers = byId(useDrivers().data);
  const nameOf = useTourName();
  const zones = useAreaZones();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('status') ?? '');
    pages.reset();
    navigate(value ? `/tours?status=${value}` : '/tours');
  };

  return (
    <section className="stack">
      <PageHead title={t('title')} timeZones={zones.all} />
      <form className="card row" onSubmit={submit} aria-label={t('filters')} key={search}>
        <SelectField label={t('status')} name="status" defaultValue={status ?? ''}>
          <option value="">{t('any_status')}</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {tc(`status.${s}`)}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary">
          {t('apply')}
        </Button>
      </form>
      {tours.isError ? <ErrorBanner error={tours.error} /> : null}
      {tours.isPending ? <Loading label={tc('loading')} /> : null}
      {tours.data ? (
        tours.data.tours.length === 0 ? (
          <p className="card">{t('empty')}</p>
        ) : (
          <div className="table-wrap">
            <table className="data" aria-busy={tours.isFetching || undefined}>
              <caption className="visually-hidden">{t('title')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('col_tour')}</th>
                  <th scope="col">{t('col_status')}</th>
                  <th scope="col">{t('col_driver')}</th>
                  <th scope="col">{t('col_stops')}</th>
                  <th scope="col">{t('col_scheduled')}</th>
                </tr>
              </thead>
              <tbody>
                {tours.data.tours.map((tour) => {
                  const stops = tour.stops ?? [];
                  const done = stops.filter((s) => s.status === 'completed' || s.status === 'failed' || s.status === 'cancelled').length;
                  return (
                    <tr key={tour.id}>
                      <td>
                        <Link href={`/tours/${tour.id}`}>
                          {nameOf(tour)}
                        </Link>
                      </td>
                      <td>
                        <StatusBadge status={tour.status} />
                      </td>
                      <td>{tour.driver_id ? (drivers.get(tour.driver_id)?.name ?? '—') : '—'}</td>
                      <td>{t('stops_done', { done, total: stops.length })}</td>
                      <td>{format.dateTime(tour.scheduled_at, zones.zoneOf(tour.service_area_id))}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <Pager label={t('title')} pages={pages} meta={tours.data?.meta} />
    </section>
  );
}
