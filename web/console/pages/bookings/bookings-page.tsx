// Bookings: the list with the API's filters, kept in the URL so a filtered list can be shared, and cursor paging;
// bookings waiting for dispatch can be selected and made a tour or added to one (selection-actions.tsx).
import { useState, type FormEvent } from 'react';
import { Link, useSearch, useLocation } from 'wouter';
import { byId, useServiceAreas } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { Button, ErrorBanner, Loading, PageHead, Pager, SelectField, StatusBadge, TextField, useCursorPages } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useBookingsPage, type BookingFilters, type BookingStatus } from './queries.ts';
import { SelectionActions } from './selection-actions.tsx';

const STATUSES: BookingStatus[] = ['to_be_dispatched', 'partially_dispatched', 'dispatched', 'completed', 'cancelled'];
/** Statuses with stops waiting for dispatch: the ones merge and insert take (the API guide, "Dispatch"). */
const DISPATCHABLE: BookingStatus[] = ['to_be_dispatched', 'partially_dispatched'];
const FILTER_KEYS = ['status', 'service_area_id', 'external_id', 'created_from', 'created_to'] as const;

function filtersFrom(search: string): BookingFilters {
  const params = new URLSearchParams(search);
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return filters as BookingFilters;
}

export function BookingsPage() {
  const t = useT(messages);
  const tc = useT(common);
  const format = useFormat();
  const search = useSearch();
  const [, navigate] = useLocation();
  const filters = filtersFrom(search);
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const bookings = useBookingsPage(filters, cursor);
  const areas = useServiceAreas();
  const areaById = byId(areas.data);
  // One service area needs no column or filter of its own.
  const multipleAreas = (areas.data?.length ?? 0) > 1;
  // Selected bookings by id with their names; kept across pages so a dispatcher can collect from several.
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const toggle = (id: string, name: string, on: boolean) => {
    const next = new Map(selected);
    if (on) next.set(id, name);
    else next.delete(id);
    setSelected(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const params = new URLSearchParams();
    for (const key of FILTER_KEYS) {
      const value = String(form.get(key) ?? '').trim();
      if (value) params.set(key, value);
    }
    pages.reset();
    navigate(`/bookings${params.size ? `?${params}` : ''}`);
  };

  return (
    <section className="stack" aria-labelledby="bookings-title">
      <PageHead
        title={<span id="bookings-title">{t('title')}</span>}
        timeZones={[...new Set((areas.data ?? []).map((area) => area.time_zone))]}
        actions={
          // Both console roles may create bookings (admins and managers; the API guide's "Creating a booking").
          <>
            <Button variant="primary" onClick={() => navigate('/bookings/new')}>
              {t('new_booking')}
            </Button>
            <Button onClick={() => navigate('/bookings/import')}>{t('import_csv')}</Button>
          </>
        }
      />
      {/* Times are on the service area's clock, said once (several areas: each row's own, the area column says which). */}
      {!multipleAreas && areas.data?.[0] ? <p className="muted">{t('zone', { zone: areas.data[0].time_zone })}</p> : null}
      <form className="card row" onSubmit={submit} aria-label={t('filters')} key={search}>
        <SelectField label={t('status')} name="status" defaultValue={filters.status ?? ''}>
          <option value="">{t('any_status')}</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {tc(`status.${status}`)}
            </option>
          ))}
        </SelectField>
        {(areas.data?.length ?? 0) > 1 ? (
          <SelectField label={t('service_area')} name="service_area_id" defaultValue={filters.service_area_id ?? ''}>
            <option value="">{t('any_service_area')}</option>
            {(areas.data ?? []).map((area) => (
              <option key={area.id} value={area.id}>
                {area.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        <TextField label={t('external_id')} name="external_id" defaultValue={filters.external_id ?? ''} />
        <TextField label={t('created_from')} name="created_from" type="date" defaultValue={filters.created_from ?? ''} />
        <TextField label={t('created_to')} name="created_to" type="date" defaultValue={filters.created_to ?? ''} />
        <div className="row">
          <Button type="submit" variant="primary">
            {t('apply')}
          </Button>
          <Button
            onClick={() => {
              pages.reset();
              navigate('/bookings');
            }}
          >
            {t('reset')}
          </Button>
        </div>
      </form>

      {selected.size ? <SelectionActions selected={selected} onClear={() => setSelected(new Map())} /> : null}
      {bookings.isError ? <ErrorBanner error={bookings.error} /> : null}
      {bookings.isPending ? <Loading label={tc('loading')} /> : null}
      {bookings.data ? (
        bookings.data.bookings.length === 0 ? (
          <p className="card">{t('empty')}</p>
        ) : (
          <div className="table-wrap">
            <table className="data" aria-busy={bookings.isFetching || undefined}>
              <caption className="visually-hidden">{t('title')}</caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{t('col_select')}</span>
                  </th>
                  <th scope="col">{t('col_booking')}</th>
                  <th scope="col">{t('col_status')}</th>
                  {multipleAreas ? <th scope="col">{t('col_area')}</th> : null}
                  <th scope="col">{t('col_recipient')}</th>
                  <th scope="col" className="hide-narrow">{t('col_address')}</th>
                  <th scope="col">{t('col_window')}</th>
                  <th scope="col" className="hide-narrow">{t('col_created')}</th>
                </tr>
              </thead>
              <tbody>
                {bookings.data.bookings.map((booking) => {
                  const area = areaById.get(booking.service_area_id);
                  const name = booking.external_id ?? booking.id.slice(-8);
                  // The recipient's side is the last drop-off (the first stop is the pickup).
                  const dropoff = [...(booking.stops ?? [])].reverse().find((s) => s.type === 'dropoff') ?? booking.stops?.at(-1);
                  const address = dropoff ? [[dropoff.address.street, dropoff.address.number].filter(Boolean).join(' '), dropoff.address.city].filter(Boolean).join(', ') : '';
                  const slot = dropoff?.time_window;
                  return (
                    <tr key={booking.id} aria-selected={selected.has(booking.id) || undefined}>
                      <td className="select-cell">
                        {DISPATCHABLE.includes(booking.status) ? (
                          <input type="checkbox" aria-label={t('select', { name })} checked={selected.has(booking.id)} onChange={(event) => toggle(booking.id, name, event.target.checked)} />
                        ) : null}
                      </td>
                      <td>
                        <Link href={`/bookings/${booking.id}`}>{booking.external_id ?? t('no_external_id')}</Link>
                        <div className="muted mono">{booking.id.slice(-8)}</div>
                      </td>
                      <td>
                        <StatusBadge status={booking.status} />
                      </td>
                      {multipleAreas ? <td>{area?.name ?? '—'}</td> : null}
                      <td className="break">{dropoff?.contact?.name || '—'}</td>
                      <td className="break hide-narrow">{address || '—'}</td>
                      <td>{slot ? t('window', { day: format.date(slot.starts_at, area?.time_zone), from: format.time(slot.starts_at, area?.time_zone), to: format.time(slot.ends_at, area?.time_zone) }) : '—'}</td>
                      <td className="hide-narrow">{format.dateTime(booking.created_at, area?.time_zone)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )
      ) : null}
      <Pager label={t('title')} pages={pages} meta={bookings.data?.meta} />
    </section>
  );
}
