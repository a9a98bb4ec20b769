// Analytics: how a period went (contract §17) — a period of the service area's days (decision 1746) kept in the URL,
// the headline figures, the stops per day as a chart, the drivers sortable, failures by reason in words, and the
// same figures as the API's CSV file.
import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useServiceAreas, useStopFailureReasonLabels } from '../../../api/index.ts';
import { common } from '../../../i18n/common.ts';
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { Button, ErrorBanner, Loading, PageHead, SelectField, TextField } from '../../../ui/index.ts';
import { chartDays, DayChart } from './day-chart.tsx';
import { DriverTable } from './driver-table.tsx';
import { messages } from './messages.ts';
import { PlanTable } from './plan-table.tsx';
import { datesOf, isDate, periodOf, presetDays, type Days, type PeriodKind } from './period.ts';
import { downloadCsv, useDeliveryAnalytics, type AnalyticsQuery, type DeliveryAnalytics } from './queries.ts';

const KINDS: PeriodKind[] = ['yesterday', 'last_7_days', 'range'];

/** The period the URL names (`?period=…&first=…&last=…&area=…`); yesterday when it names none. */
function readSearch(search: string): { kind: PeriodKind; first: string; last: string; area: string | null } {
  const params = new URLSearchParams(search);
  const kind = KINDS.find((k) => k === params.get('period')) ?? 'yesterday';
  return { kind, first: params.get('first') ?? '', last: params.get('last') ?? '', area: params.get('area') };
}

export function AnalyticsPage() {
  const t = useT(messages);
  const tc = useT(common);
  const search = useSearch();
  const [, navigate] = useLocation();
  const areas = useServiceAreas();
  const state = readSearch(search);
  const [rangeError, setRangeError] = useState<string | null>(null);

  const areaList = areas.data ?? [];
  const area = areaList.find((a) => a.id === state.area) ?? areaList[0];
  const timeZone = area?.time_zone ?? 'UTC';
  const days: Days | null =
    state.kind === 'range' ? (isDate(state.first) && isDate(state.last) && state.first <= state.last ? { first: state.first, last: state.last } : null) : presetDays(state.kind, timeZone);
  const query: AnalyticsQuery | null = areas.isSuccess && days ? { ...periodOf(days, timeZone), ...(area ? { service_area_id: area.id } : {}) } : null;
  const figures = useDeliveryAnalytics(query);

  const go = (next: Partial<ReturnType<typeof readSearch>>) => {
    const merged = { ...state, ...next };
    const params = new URLSearchParams({ period: merged.kind });
    if (merged.kind === 'range') {
      params.set('first', merged.first);
      params.set('last', merged.last);
    }
    if (merged.area) params.set('area', merged.area);
    navigate(`/analytics?${params}`);
  };

  const submitRange = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const first = String(data.get('first') ?? '');
    const last = String(data.get('last') ?? '');
    if (!isDate(first) || !isDate(last) || last < first) {
      setRangeError(t('range_invalid'));
      return;
    }
    setRangeError(null);
    go({ kind: 'range', first, last });
  };

  // The range fields start from what is shown: the preset's days, or the range in the URL.
  const shownDays = days ?? (state.kind === 'range' ? { first: state.first, last: state.last } : null);

  return (
    <section className="stack analytics-page" aria-labelledby="analytics-title">
      <PageHead
        title={<span id="analytics-title">{t('title')}</span>}
        actions={query && figures.data && hasStops(figures.data) ? <DownloadButton query={query} /> : null}
      />
      <form className="card stack" onSubmit={submitRange} aria-label={t('period')} key={`${search}|${timeZone}`}>
        <fieldset className="period-kinds">
          <legend>{t('period')}</legend>
          {KINDS.map((kind) => (
            <label key={kind} className="check">
              <input type="radio" name="kind" value={kind} checked={state.kind === kind} onChange={() => go(kind === 'range' ? { kind, first: shownDays?.first ?? '', last: shownDays?.last ?? '' } : { kind })} />
              {t(kind)}
            </label>
          ))}
        </fieldset>
        {state.kind === 'range' ? (
          <div className="row period-range">
            <TextField label={t('from')} name="first" type="date" defaultValue={shownDays?.first ?? ''} required />
            <TextField label={t('to')} name="last" type="date" defaultValue={shownDays?.last ?? ''} required errors={rangeError ? [rangeError] : undefined} />
            <Button type="submit" variant="primary">
              {t('show')}
            </Button>
          </div>
        ) : null}
        {areaList.length > 1 ? (
          <SelectField label={t('service_area')} value={area?.id ?? ''} onChange={(event) => go({ area: event.target.value })}>
            {areaList.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {days ? <PeriodLine days={days} timeZone={timeZone} /> : null}
      </form>
      {areas.isError ? <ErrorBanner error={areas.error} /> : null}
      {figures.isError ? <ErrorBanner error={figures.error} /> : null}
      {areas.isPending || (query && figures.isPending) ? <Loading label={tc('loading')} /> : null}
      {figures.data && days ? <Figures data={figures.data} days={days} busy={figures.isFetching} timeZone={timeZone} /> : null}
    </section>
  );
}

const hasStops = (a: DeliveryAnalytics) => a.stops.completed + a.stops.failed > 0;

function PeriodLine({ days, timeZone }: { days: Days; timeZone: string }) {
  const t = useT(messages);
  const { lang } = useLang();
  const long = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'full', timeZone: 'UTC' });
  const at = (date: string) => new Date(`${date}T00:00:00Z`);
  return (
    <p className="muted" role="status">
      {days.first === days.last ? long.format(at(days.first)) : t('period_label', { first: long.format(at(days.first)), last: long.format(at(days.last)) })} ·{' '}
      {t('days_hint', { zone: timeZone })}
    </p>
  );
}

function DownloadButton({ query }: { query: AnalyticsQuery }) {
  const t = useT(messages);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadCsv(query);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="primary" busy={busy} onClick={() => void download()}>
        {t('download')}
      </Button>
      {error ? <ErrorBanner error={error} /> : null}
    </>
  );
}

/** A duration in seconds as "45 s" or "3 min 32 s". */
function useDuration() {
  const t = useT(messages);
  return (seconds: number) => (seconds < 60 ? t('seconds', { s: seconds }) : t('minutes', { m: Math.floor(seconds / 60), s: seconds % 60 }));
}

function Figures({ data, days, busy, timeZone }: { data: DeliveryAnalytics; days: Days; busy: boolean; timeZone: string }) {
  const t = useT(messages);
  const format = useFormat();
  const { lang } = useLang();
  const duration = useDuration();
  const reasons = useStopFailureReasonLabels(lang);
  if (!hasStops(data)) return <p className="card">{t('empty')}</p>;
  const km = new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });
  const rate = (share: number | null) => (share === null ? t('none') : format.percent(share));
  const figures: { key: string; label: string; value: string; detail?: string }[] = [
    { key: 'completed', label: t('completed'), value: format.number(data.stops.completed) },
    { key: 'failed', label: t('failed'), value: format.number(data.stops.failed) },
    { key: 'on_time', label: t('on_time_rate'), value: rate(data.on_time_rate), detail: t('on_time_detail', { on_time: format.number(data.stops.on_time), late: format.number(data.stops.late) }) },
    { key: 'first_attempt', label: t('first_attempt'), value: rate(data.first_attempt_success_rate) },
    data.eta_error_s
      ? { key: 'eta', label: t('eta_error'), value: duration(data.eta_error_s.mae), detail: t('eta_detail', { p90: duration(data.eta_error_s.p90), count: format.number(data.eta_error_s.samples) }) }
      : { key: 'eta', label: t('eta_error'), value: t('none'), detail: t('no_eta') },
    { key: 'per_hour', label: t('stops_per_hour'), value: data.stops_per_hour === null ? t('none') : format.number(data.stops_per_hour) },
    data.distance_km === null ? { key: 'distance', label: t('distance'), value: t('none'), detail: t('no_positions') } : { key: 'distance', label: t('distance'), value: km.format(data.distance_km) },
  ];
  const labelOf = (key: string | null) => (key === null ? t('no_reason') : (reasons.data?.get(key) ?? (reasons.isPending ? '…' : key)));
  return (
    <div className="stack" aria-busy={busy || undefined}>
      <dl className="grid-cards figures" aria-label={t('headline')}>
        {figures.map((f) => (
          <div key={f.key} className="card stat">
            <dt>{f.label}</dt>
            <dd className="value">{f.value}</dd>
            {f.detail ? <dd className="muted">{f.detail}</dd> : null}
          </div>
        ))}
      </dl>
      <section className="card stack" aria-labelledby="by-day-title">
        <h2 id="by-day-title">{t('by_day')}</h2>
        <DayChart days={chartDays(datesOf(days), data.by_day)} />
      </section>
      <div className="two-col">
        <section className="stack" aria-labelledby="by-driver-title">
          <h2 id="by-driver-title">{t('by_driver')}</h2>
          <DriverTable rows={data.by_driver} />
        </section>
        <section className="stack" aria-labelledby="by-reason-title">
          <h2 id="by-reason-title">{t('by_reason')}</h2>
          {reasons.isError ? <ErrorBanner error={reasons.error} /> : null}
          {data.by_failure_reason.length ? (
            <div className="table-wrap">
              <table className="data">
                <caption className="visually-hidden">{t('by_reason')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('reason')}</th>
                    <th scope="col" className="num">
                      {t('count')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.by_failure_reason.map((r) => (
                    <tr key={r.reason_key ?? ''}>
                      <th scope="row">{labelOf(r.reason_key)}</th>
                      <td className="num">{format.number(r.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted">{t('no_failures')}</p>
          )}
        </section>
      </div>
      <section className="stack" aria-labelledby="plan-actual-title">
        <h2 id="plan-actual-title">{t('plan_vs_actual')}</h2>
        <PlanTable rows={data.by_driver_day} timeZone={timeZone} />
      </section>
    </div>
  );
}
