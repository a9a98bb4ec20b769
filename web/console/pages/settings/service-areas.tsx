// Service areas (admins): the list, and a form for name, currency, country, time zone, average speed, auto-dispatch, the
// moments that tell recipients, how many days later they may move a delivery, and the SMS quiet hours (api-guide
// "Organizations and service areas", "Auto-dispatch"; docs/tracking.md; contract §18; decision 1788).
import { useId, useState, type FormEvent } from 'react';
import { useServiceAreas, type ServiceArea } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useT } from '../../../i18n/index.tsx';
import { Button, Dialog, ErrorBanner, Loading, SelectField, TextField, errorsAt } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { Checkboxes } from './parts.tsx';
import { useSaveArea } from './queries.ts';
import { MOMENTS } from './recipient-emails.tsx';

type Moment = ServiceArea['recipient_notifications'][number];
type QuietHours = ServiceArea['sms_quiet_hours'];

/** Both times empty: no quiet hours (null); one without the other is the page's own error, at the empty one. */
const quietHours = (from: string, to: string): QuietHours | 'incomplete' => (!from && !to ? null : from && to ? { from, to } : 'incomplete');

/** A zone that may wrap after its slashes only ("Europe/" "Berlin"), never inside a word as a phone squeezed it to. */
const breakable = (zone: string) => zone.split('/').flatMap((part, i, parts) => (i < parts.length - 1 ? [`${part}/`, <wbr key={i} />] : [part]));

/** The browser's IANA zones (UTC is not always among them). */
const zones = (current: string): string[] => {
  const all = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return [...new Set(['UTC', current, ...all])].filter(Boolean);
};

function AreaForm({ area, onClose }: { area: ServiceArea | null; onClose: () => void }) {
  const t = useT(messages);
  const tc = useT(common);
  const save = useSaveArea();
  const quietHintId = useId();
  const [name, setName] = useState(area?.name ?? '');
  const [currency, setCurrency] = useState(area?.currency ?? 'EUR');
  const [countryCode, setCountryCode] = useState(area?.country_code ?? '');
  const [timeZone, setTimeZone] = useState(area?.time_zone ?? 'Europe/Berlin');
  const [speed, setSpeed] = useState(String(area?.average_speed_kmh ?? 25));
  const [autoDispatch, setAutoDispatch] = useState(area?.auto_dispatch.enabled ?? false);
  const [budget, setBudget] = useState(String(area?.auto_dispatch.budget_ms ?? 200));
  const [moments, setMoments] = useState<Moment[]>(area?.recipient_notifications ?? []);
  const [minutes, setMinutes] = useState(String(area?.recipient_approaching_minutes ?? 10));
  const [quietFrom, setQuietFrom] = useState(area?.sms_quiet_hours?.from ?? '');
  const [quietTo, setQuietTo] = useState(area?.sms_quiet_hours?.to ?? '');
  const [quietIncomplete, setQuietIncomplete] = useState(false);
  const [rescheduleDays, setRescheduleDays] = useState(String(area?.recipient_reschedule_days ?? 0));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const quiet = quietHours(quietFrom, quietTo);
    setQuietIncomplete(quiet === 'incomplete');
    if (quiet === 'incomplete') return;
    save.mutate(
      {
        ...(area ? { id: area.id } : {}),
        area: {
          name: name.trim(),
          currency: currency.trim().toUpperCase(),
          // Empty: no country, so phone numbers must carry their own "+…" (contract §14).
          country_code: countryCode.trim() ? countryCode.trim().toUpperCase() : null,
          time_zone: timeZone,
          average_speed_kmh: Number(speed),
          auto_dispatch: { enabled: autoDispatch, budget_ms: Number(budget) },
          // In the order they happen, whatever order they were ticked in.
          recipient_notifications: MOMENTS.filter((m) => moments.includes(m)),
          recipient_approaching_minutes: Number(minutes),
          sms_quiet_hours: quiet,
          recipient_reschedule_days: Number(rescheduleDays),
        },
      },
      { onSuccess: onClose },
    );
  };
  const at = (field: string) => errorsAt(save.error, `/service_area/${field}`);
  const quietAt = (field: 'from' | 'to', value: string) => (quietIncomplete && !value ? [t('quiet_hours_both')] : at(`sms_quiet_hours/${field}`));
  return (
    <Dialog open onClose={onClose} title={area ? t('edit_named', { name: area.name }) : t('new_area')}>
      <form className="stack" onSubmit={submit}>
        <ErrorBanner error={save.error} shownPointers={['/service_area/name', '/service_area/currency', '/service_area/country_code', '/service_area/time_zone', '/service_area/average_speed_kmh', '/service_area/auto_dispatch/budget_ms', '/service_area/recipient_notifications', '/service_area/recipient_approaching_minutes', '/service_area/sms_quiet_hours/from', '/service_area/sms_quiet_hours/to', '/service_area/recipient_reschedule_days']} />
        <TextField label={t('name')} required value={name} onChange={(e) => setName(e.target.value)} errors={at('name')} />
        <TextField label={t('currency')} hint={t('currency_hint')} required maxLength={3} value={currency} onChange={(e) => setCurrency(e.target.value)} errors={at('currency')} />
        <TextField label={t('country_code')} hint={t('country_code_hint')} maxLength={2} autoComplete="country" value={countryCode} onChange={(e) => setCountryCode(e.target.value)} errors={at('country_code')} />
        <SelectField label={t('time_zone')} value={timeZone} onChange={(e) => setTimeZone(e.target.value)} errors={at('time_zone')}>
          {zones(timeZone).map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </SelectField>
        <TextField label={t('speed')} type="number" min={1} max={200} required value={speed} onChange={(e) => setSpeed(e.target.value)} errors={at('average_speed_kmh')} />
        <label>
          <input type="checkbox" checked={autoDispatch} onChange={(e) => setAutoDispatch(e.target.checked)} /> {t('auto_dispatch')}
        </label>
        <TextField
          label={t('auto_dispatch_budget')}
          hint={t('auto_dispatch_budget_hint')}
          type="number"
          min={10}
          max={2000}
          required
          value={budget}
          onChange={(e) => setBudget(e.target.value)}
          errors={at('auto_dispatch/budget_ms')}
        />
        <Checkboxes
          legend={t('recipient_moments')}
          hint={t('recipient_moments_hint')}
          options={MOMENTS.map((m) => ({ value: m, label: t(`moment_${m}`) }))}
          value={moments}
          onChange={setMoments}
          errors={at('recipient_notifications')}
        />
        <TextField
          label={t('approaching_minutes')}
          hint={t('approaching_minutes_hint')}
          type="number"
          min={1}
          max={120}
          required
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          errors={at('recipient_approaching_minutes')}
        />
        <TextField
          label={t('reschedule_days')}
          hint={t('reschedule_days_hint')}
          type="number"
          min={0}
          max={14}
          required
          value={rescheduleDays}
          onChange={(e) => setRescheduleDays(e.target.value)}
          errors={at('recipient_reschedule_days')}
        />
        <fieldset className="checks" aria-describedby={quietHintId}>
          <legend>{t('quiet_hours')}</legend>
          <p className="hint muted" id={quietHintId}>
            {t('quiet_hours_hint', { zone: timeZone })}
          </p>
          <div className="stack">
            <div className="grid-fields">
              <TextField label={t('quiet_from')} type="time" value={quietFrom} onChange={(e) => setQuietFrom(e.target.value)} errors={quietAt('from', quietFrom)} />
              <TextField label={t('quiet_to')} type="time" value={quietTo} onChange={(e) => setQuietTo(e.target.value)} errors={quietAt('to', quietTo)} />
            </div>
            <div className="row">
              {/* Stays where it is once pressed, so keyboard focus is not lost with it. */}
              <Button
                small
                onClick={() => {
                  setQuietFrom('');
                  setQuietTo('');
                  setQuietIncomplete(false);
                }}
              >
                {t('quiet_hours_clear')}
              </Button>
              <span role="status" className="muted">
                {quietFrom || quietTo ? '' : t('quiet_hours_none')}
              </span>
            </div>
          </div>
        </fieldset>
        <div className="row">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {tc('save')}
          </Button>
          <Button onClick={onClose}>{tc('cancel')}</Button>
        </div>
      </form>
    </Dialog>
  );
}

export function ServiceAreasSection() {
  const t = useT(messages);
  const tc = useT(common);
  const areas = useServiceAreas();
  const [editing, setEditing] = useState<ServiceArea | 'new' | null>(null);
  return (
    <section className="stack" aria-labelledby="settings-section">
      <div className="page-head">
        <h2 id="settings-section">{t('service_areas')}</h2>
        <Button variant="primary" onClick={() => setEditing('new')}>
          {t('new_area')}
        </Button>
      </div>
      {editing ? <AreaForm area={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ErrorBanner error={areas.error} />
      {areas.isPending ? <Loading label={tc('loading')} /> : null}
      {areas.data?.length === 0 ? <p className="card">{t('empty')}</p> : null}
      {areas.data?.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('service_areas')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('name')}</th>
                {/* A phone keeps the name, zone, auto-dispatch and the edit button in view (German's are the widest). */}
                <th scope="col" className="hide-narrow">{t('currency')}</th>
                <th scope="col">{t('time_zone')}</th>
                <th scope="col" className="hide-narrow">{t('speed')}</th>
                <th scope="col">{t('auto_dispatch_col')}</th>
                <th scope="col" className="hide-narrow">{t('recipient_moments')}</th>
                <th scope="col" className="hide-narrow">{t('quiet_hours')}</th>
                <th scope="col">{t('col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {areas.data.map((area) => (
                <tr key={area.id}>
                  <td>{area.name}</td>
                  <td className="hide-narrow">{area.currency}</td>
                  <td>{breakable(area.time_zone)}</td>
                  <td className="hide-narrow">{area.average_speed_kmh}</td>
                  <td>{area.auto_dispatch.enabled ? t('auto_dispatch_on', { ms: area.auto_dispatch.budget_ms }) : t('auto_dispatch_off')}</td>
                  <td className="hide-narrow">{area.recipient_notifications.length ? area.recipient_notifications.map((m) => t(`moment_${m}`)).join(', ') : t('recipient_none')}</td>
                  <td className="hide-narrow">{area.sms_quiet_hours ? `${area.sms_quiet_hours.from}–${area.sms_quiet_hours.to}` : t('recipient_none')}</td>
                  <td>
                    <Button small aria-label={t('edit_named', { name: area.name })} onClick={() => setEditing(area)}>
                      {t('edit')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
