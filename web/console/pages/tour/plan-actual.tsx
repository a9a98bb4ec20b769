// "Planned vs actual": what the applied plan promised for this tour — stops, finish, distance — beside what happened
// (decision 1744); a tour no plan made says so in words and shows only what happened.
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { ErrorBanner } from '../../../ui/index.ts';
import { messages } from './messages.ts';
import { useTourAnalytics } from './queries.ts';

export function PlanActual({ tourId, progressKey, timeZone }: { tourId: string; progressKey: string; timeZone: string | undefined }) {
  const t = useT(messages);
  const format = useFormat();
  const { lang } = useLang();
  const analytics = useTourAnalytics(tourId, progressKey);
  if (analytics.isPending) return null;
  if (analytics.isError) return <ErrorBanner error={analytics.error} />;
  const { planned, actual } = analytics.data;
  const km = new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-GB', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });
  const distance = (m: number | null, missing: string) => (m === null ? missing : km.format(m / 1000));
  const rows = [
    { key: 'stops', label: t('plan_stops'), planned: planned ? format.number(planned.stops) : null, actual: t('actual_stops', { completed: actual.stops_completed, failed: actual.stops_failed }) },
    { key: 'finish', label: t('plan_finish'), planned: planned ? format.dateTime(planned.finish_at, timeZone) : null, actual: actual.finish_at ? format.dateTime(actual.finish_at, timeZone) : t('not_finished') },
    { key: 'distance', label: t('plan_distance'), planned: planned ? distance(planned.distance_m, t('not_measured')) : null, actual: distance(actual.distance_m, t('no_distance')) },
  ];
  return (
    <section className="card stack" aria-labelledby="plan-actual-title">
      <h2 id="plan-actual-title">{t('plan_actual')}</h2>
      {planned ? null : <p className="muted">{t('no_plan')}</p>}
      <div className="table-wrap plan-actual-wrap">
        <table className="data plan-actual">
          <caption className="visually-hidden">{t('plan_actual')}</caption>
          <thead>
            <tr>
              <td />
              {planned ? <th scope="col">{t('plan_col')}</th> : null}
              <th scope="col">{t('actual_col')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                {planned ? <td>{r.planned}</td> : null}
                <td>{r.actual}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
