// Planned against actual per driver and day (issue 36, decision 1749): for the tours an applied plan made, what the
// plan promised — stops, finish, distance — beside what the tours did, times on the area's clock.
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { messages } from './messages.ts';
import type { DriverDayFigures } from './queries.ts';

export function PlanTable({ rows, timeZone }: { rows: DriverDayFigures[]; timeZone: string }) {
  const t = useT(messages);
  const format = useFormat();
  const { lang } = useLang();
  if (!rows.length) return <p className="muted">{t('no_plans')}</p>;
  const locale = lang === 'de' ? 'de-DE' : 'en-GB';
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const km = new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });
  const distance = (m: number | null) => (m === null ? t('none') : km.format(m / 1000));
  const finish = (iso: string | null) => (iso === null ? t('none') : format.time(iso, timeZone));
  return (
    // Focusable: on a phone the table scrolls sideways, and a keyboard must reach what is off screen.
    <div className="table-wrap" role="region" tabIndex={0} aria-labelledby="plan-actual-title">
      <table className="data">
        <caption className="visually-hidden">{t('plan_vs_actual')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('driver')}</th>
            <th scope="col">{t('day')}</th>
            <th scope="col" className="num">{t('stops_planned')}</th>
            <th scope="col" className="num">{t('stops_done')}</th>
            <th scope="col" className="num">{t('finish_planned')}</th>
            <th scope="col" className="num">{t('finish_actual')}</th>
            <th scope="col" className="num">{t('distance_planned')}</th>
            <th scope="col" className="num">{t('distance_actual')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.driver_id} ${r.date}`}>
              <th scope="row">{r.name ?? r.driver_id.slice(-6)}</th>
              <td>{day.format(new Date(`${r.date}T00:00:00Z`))}</td>
              <td className="num">{format.number(r.planned.stops)}</td>
              <td className="num">{r.actual.stops_failed ? t('done_and_failed', { done: format.number(r.actual.stops_completed), failed: format.number(r.actual.stops_failed) }) : format.number(r.actual.stops_completed)}</td>
              <td className="num">{finish(r.planned.finish_at)}</td>
              <td className="num">{finish(r.actual.finish_at)}</td>
              <td className="num">{distance(r.planned.distance_m)}</td>
              <td className="num">{distance(r.actual.distance_m)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
