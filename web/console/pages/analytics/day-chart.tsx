// The finished stops per day as stacked bars in plain SVG (decision 1747): on time, late and failed told apart by
// Okabe–Ito colours, by a fill pattern each (readable in print and without colour) and by their counts written on the
// bars; the SVG's <title>/<desc> name it, and a table beside it says the same in numbers.
import { useId } from 'react';
import { useFormat, useLang, useT } from '../../../i18n/index.tsx';
import { messages } from './messages.ts';
import type { DayFigures } from './queries.ts';

type Series = 'on_time' | 'late' | 'failed';
const SERIES: Series[] = ['on_time', 'late', 'failed'];
/** Okabe–Ito blue, orange and vermillion; the patterns are what tells late from failed without colour. */
const COLOUR: Record<Series, string> = { on_time: '#0072B2', late: '#E69F00', failed: '#D55E00' };
const LABEL: Record<Series, 'on_time' | 'late' | 'failed_stops'> = { on_time: 'on_time', late: 'late', failed: 'failed_stops' };

const PLOT_H = 180;
const TOP = 22;
const BOTTOM = 40;
const LEFT = 40;

/** A round upper end for the axis: 1, 2 or 5 times a power of ten, at least the largest day. */
function niceMax(value: number): number {
  if (value <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(value));
  return ([1, 2, 5, 10].map((m) => m * power).find((m) => m >= value) ?? 10 * power);
}

export interface ChartDay {
  date: string;
  on_time: number;
  late: number;
  failed: number;
}

/** Every date of the period with its figures; a day the API does not list finished no stop (decision 1743). */
export const chartDays = (dates: string[], byDay: DayFigures[]): ChartDay[] => {
  const known = new Map(byDay.map((d) => [d.date, d]));
  return dates.map((date) => {
    const d = known.get(date);
    return { date, on_time: d?.on_time ?? 0, late: d?.late ?? 0, failed: d?.failed ?? 0 };
  });
};

function Patterns({ prefix }: { prefix: string }) {
  return (
    <defs>
      <pattern id={`${prefix}-late`} width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="8" height="8" fill={COLOUR.late} />
        <line x1="0" y1="0" x2="0" y2="8" stroke="#000" strokeOpacity="0.55" strokeWidth="3" />
      </pattern>
      <pattern id={`${prefix}-failed`} width="8" height="8" patternUnits="userSpaceOnUse">
        <rect width="8" height="8" fill={COLOUR.failed} />
        <path d="M0 0 L8 8 M8 0 L0 8" stroke="#fff" strokeOpacity="0.8" strokeWidth="1.5" />
      </pattern>
    </defs>
  );
}

const fillOf = (prefix: string, series: Series) => (series === 'on_time' ? COLOUR.on_time : `url(#${prefix}-${series})`);

/** A count written on a white chip, readable on any fill and in print. */
function Chip({ x, y, text }: { x: number; y: number; text: string }) {
  const width = 6 + text.length * 7;
  return (
    <g>
      <rect x={x - width / 2} y={y - 8} width={width} height={15} rx="3" fill="#fff" stroke="#111827" strokeWidth="0.75" />
      <text x={x} y={y + 3.5} textAnchor="middle" fontSize="11" fill="#111827">
        {text}
      </text>
    </g>
  );
}

export function DayChart({ days }: { days: ChartDay[] }) {
  const t = useT(messages);
  const format = useFormat();
  const { lang } = useLang();
  const prefix = `chart${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const wide = days.length <= 31;
  const dayW = wide ? 40 : 12;
  const barW = wide ? 26 : 9;
  const width = LEFT + days.length * dayW + 8;
  const height = TOP + PLOT_H + BOTTOM;
  const max = niceMax(Math.max(0, ...days.map((d) => d.on_time + d.late + d.failed)));
  const y = (count: number) => TOP + PLOT_H - (count / max) * PLOT_H;
  const locale = lang === 'de' ? 'de-DE' : 'en-GB';
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const dayMonth = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const at = (date: string) => new Date(`${date}T00:00:00Z`);
  const titleId = `${prefix}-title`;
  const descId = `${prefix}-desc`;
  const first = days[0]?.date;
  const last = days.at(-1)?.date;

  return (
    <div className="stack">
      <ul className="legend plain-list" aria-hidden="true">
        {SERIES.map((s) => (
          <li key={s}>
            <svg width="18" height="14" className="chart-swatch">
              <rect width="18" height="14" fill={fillOf(prefix, s)} stroke="#111827" strokeWidth="0.75" />
            </svg>{' '}
            {t(LABEL[s])}
          </li>
        ))}
      </ul>
      <div className="chart-scroll" tabIndex={0} role="group" aria-labelledby={titleId}>
        <svg className="day-chart" role="img" aria-labelledby={`${titleId} ${descId}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
          <title id={titleId}>{t('chart_title')}</title>
          <desc id={descId}>{t('chart_desc', { first: first ? long.format(at(first)) : '', last: last ? long.format(at(last)) : '' })}</desc>
          <Patterns prefix={prefix} />
          {[0, max / 2, max].map((tick) => (
            <g key={tick}>
              <line x1={LEFT - 4} x2={width - 4} y1={y(tick)} y2={y(tick)} stroke="#d1d5db" strokeWidth="1" />
              <text x={LEFT - 8} y={y(tick) + 4} textAnchor="end" fontSize="11" fill="#4b5563">
                {format.number(tick)}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const x = LEFT + i * dayW + (dayW - barW) / 2;
            const cx = x + barW / 2;
            let base = 0;
            const total = d.on_time + d.late + d.failed;
            const labelled = wide || d.date.endsWith('-01');
            return (
              <g key={d.date}>
                {SERIES.map((s) => {
                  const count = d[s];
                  if (!count) return null;
                  const top = y(base + count);
                  const h = y(base) - top;
                  base += count;
                  return (
                    <g key={s}>
                      <rect x={x} y={top} width={barW} height={h} fill={fillOf(prefix, s)} stroke="#111827" strokeWidth="0.75" />
                      {wide && h >= 16 ? <Chip x={cx} y={top + h / 2} text={format.number(count)} /> : null}
                    </g>
                  );
                })}
                {wide ? (
                  <text x={cx} y={y(total) - 6} textAnchor="middle" fontSize="11" fontWeight="700" fill="#111827">
                    {format.number(total)}
                  </text>
                ) : null}
                {labelled ? (
                  <text x={cx} y={TOP + PLOT_H + 16} textAnchor="middle" fontSize="11" fill="#111827">
                    <tspan x={cx}>{weekday.format(at(d.date))}</tspan>
                    <tspan x={cx} dy="14">
                      {dayMonth.format(at(d.date))}
                    </tspan>
                  </text>
                ) : null}
              </g>
            );
          })}
          <line x1={LEFT - 4} x2={width - 4} y1={y(0)} y2={y(0)} stroke="#111827" strokeWidth="1" />
        </svg>
      </div>
      <details>
        <summary>{t('show_table')}</summary>
        <div className="table-wrap">
          <table className="data">
            <caption className="visually-hidden">{t('by_day')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('day')}</th>
                {SERIES.map((s) => (
                  <th scope="col" key={s} className="num">
                    {t(LABEL[s])}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">{long.format(at(d.date))}</th>
                  {SERIES.map((s) => (
                    <td key={s} className="num">
                      {format.number(d[s])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
