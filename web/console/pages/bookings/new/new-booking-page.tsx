// A new booking from places: a service, a pickup and a drop-off place (searchable), optional time windows, an
// external id and a package count. Only the API validates; its errors appear at the fields their pointers name.
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { isApiError } from '../../../../api/index.ts';
import { common } from '../../../../i18n/common.ts';
import { useT } from '../../../../i18n/index.tsx';
import { Banner, Button, ErrorBanner, errorsAt, Loading, PageHead, SelectField, TextField } from '../../../../ui/index.ts';
import { useCreateBooking, usePlaces, useServices, type BookingCreate, type Place } from '../queries.ts';
import { messages } from './messages.ts';

/** Past this many places the selects get a search field: a long select is hard to use by keyboard or on a phone. */
const SEARCH_FROM = 12;

type Stop = 'pickup' | 'dropoff';
const STOP_INDEX: Record<Stop, number> = { pickup: 0, dropoff: 1 };

/** A fresh key per attempt; getRandomValues also works where crypto.randomUUID does not (plain HTTP off loopback). */
const newKey = (): string => `console-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

const placeLabel = (place: Place): string => `${place.name} — ${[place.address.street, place.address.number].filter(Boolean).join(' ')}, ${place.address.city}`;

/** A datetime-local value (the browser's time zone) as the API's timestamp; empty stays empty for the API to name. */
const timestamp = (local: string): string => (local ? new Date(local).toISOString() : '');

/** Messages whose pointer is exactly one of these (errorsAt would also take the stop's time window into the place). */
const errorsExactly = (error: unknown, pointers: string[]): string[] | undefined => {
  if (!isApiError(error)) return undefined;
  const found = error.fieldErrors.filter((e) => pointers.includes(e.pointer)).map((e) => e.detail);
  return found.length ? found : undefined;
};

export function NewBookingPage() {
  const t = useT(messages);
  const tc = useT(common);
  const [, navigate] = useLocation();
  const services = useServices();
  const places = usePlaces();
  const create = useCreateBooking();
  // One key per attempt: a double submit or a retry after a lost answer creates one booking; an answered error
  // stores that outcome under the key, so the corrected form needs a new one (API guide, Conventions: idempotency).
  const [key, setKey] = useState(newKey);
  const [chosenService, setServiceId] = useState('');
  const serviceId = chosenService || (services.data?.length === 1 ? services.data[0]!.id : '');
  const [search, setSearch] = useState('');
  const [form, setForm] = useState({ pickup: '', dropoff: '', pickup_start: '', pickup_end: '', dropoff_start: '', dropoff_end: '', external_id: '', packages: '' });
  const set = (name: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const stop = (kind: Stop) => {
      const start = timestamp(form[`${kind}_start`]);
      const end = timestamp(form[`${kind}_end`]);
      return { type: kind, ...(form[kind] ? { place_id: form[kind] } : {}), ...(start || end ? { time_window: { starts_at: start, ends_at: end } } : {}) };
    };
    const count = form.packages ? Number(form.packages) : 0;
    const booking: BookingCreate = {
      service_id: serviceId,
      ...(form.external_id.trim() ? { external_id: form.external_id.trim() } : {}),
      stops: [stop('pickup'), stop('dropoff')],
      ...(count > 0 ? { packages: Array.from({ length: count }, () => ({ pickup_stop_index: 0, dropoff_stop_index: 1 })) } : {}),
    };
    create.mutate(
      { booking, key },
      {
        onSuccess: (answer) => navigate(`/bookings/${answer.booking.id}`),
        onError: (error) => {
          if (isApiError(error)) setKey(newKey());
        },
      },
    );
  };

  const error = create.error;
  // Everything shown at a field; the banner lists the rest (e.g. a stop limit, a stop's notes).
  const shown = ['/booking/service_id', '/booking/external_id', '/booking/packages', '/booking/stops/0', '/booking/stops/1'];
  const term = search.trim().toLowerCase();
  const all = places.data ?? [];
  const optionsFor = (selected: string) => all.filter((p) => p.id === selected || !term || placeLabel(p).toLowerCase().includes(term));

  const placeField = (kind: Stop) => {
    const at = `/booking/stops/${STOP_INDEX[kind]}`;
    return (
      <fieldset className="card stack" aria-label={t(kind)}>
        <legend>{t(kind)}</legend>
        <SelectField label={t(`${kind}_place`)} value={form[kind]} onChange={set(kind)} errors={errorsExactly(error, [at, `${at}/place_id`, `${at}/type`])}>
          <option value="">{t('choose_place')}</option>
          {optionsFor(form[kind]).map((place) => (
            <option key={place.id} value={place.id}>
              {placeLabel(place)}
            </option>
          ))}
        </SelectField>
        <div className="grid-fields">
          <TextField
            label={t('window_start', { stop: t(kind) })}
            hint={t('window_hint')}
            type="datetime-local"
            value={form[`${kind}_start`]}
            onChange={set(`${kind}_start`)}
            errors={errorsExactly(error, [`${at}/time_window`, `${at}/time_window/starts_at`])}
          />
          <TextField label={t('window_end', { stop: t(kind) })} type="datetime-local" value={form[`${kind}_end`]} onChange={set(`${kind}_end`)} errors={errorsExactly(error, [`${at}/time_window/ends_at`])} />
        </div>
      </fieldset>
    );
  };

  if (services.isPending || places.isPending) return <Loading label={tc('loading')} />;
  return (
    <section className="stack" aria-labelledby="new-booking-title">
      <PageHead title={<span id="new-booking-title">{t('title')}</span>} actions={<Link href="/bookings">{t('back')}</Link>} />
      <ErrorBanner error={services.error ?? places.error} />
      {places.data && all.length === 0 ? <Banner tone="warn">{t('no_places')}</Banner> : null}
      <form className="stack" onSubmit={submit} aria-labelledby="new-booking-title" noValidate>
        <div className="card grid-fields">
          <SelectField label={t('service')} value={serviceId} onChange={(e) => setServiceId(e.target.value)} errors={errorsAt(error, '/booking/service_id')}>
            <option value="">{t('choose_service')}</option>
            {(services.data ?? []).map((service) => (
              <option key={service.id} value={service.id}>
                {service.name}
              </option>
            ))}
          </SelectField>
          <TextField label={t('external_id')} hint={t('external_id_hint')} value={form.external_id} maxLength={255} onChange={set('external_id')} errors={errorsAt(error, '/booking/external_id')} />
          <TextField label={t('packages')} hint={t('packages_hint')} type="number" min={0} max={99} inputMode="numeric" value={form.packages} onChange={set('packages')} errors={errorsAt(error, '/booking/packages')} />
          {all.length > SEARCH_FROM ? <TextField label={t('find_place')} hint={t('find_place_hint')} type="search" value={search} onChange={(e) => setSearch(e.target.value)} /> : null}
        </div>
        {placeField('pickup')}
        {placeField('dropoff')}
        <ErrorBanner error={error} shownPointers={shown} />
        <div>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {t('create')}
          </Button>
        </div>
      </form>
    </section>
  );
}
