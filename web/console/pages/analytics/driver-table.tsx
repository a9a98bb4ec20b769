// The per-driver figures as a table sortable by each column: a button in every header (Enter or Space sorts, a
// second press reverses), the header's aria-sort telling which column and direction the rows follow.
import { useState } from 'react';
import { useFormat, useT } from '../../../i18n/index.tsx';
import { messages } from './messages.ts';
import type { DriverFigures } from './queries.ts';

type Column = 'name' | 'stops_completed' | 'on_time_rate' | 'stops_per_hour';
const COLUMNS: { key: Column; label: 'driver' | 'stops_completed' | 'on_time_rate' | 'stops_per_hour'; numeric: boolean }[] = [
  { key: 'name', label: 'driver', numeric: false },
  { key: 'stops_completed', label: 'stops_completed', numeric: true },
  { key: 'on_time_rate', label: 'on_time_rate', numeric: true },
  { key: 'stops_per_hour', label: 'stops_per_hour', numeric: true },
];

interface Sort {
  column: Column;
  direction: 'ascending' | 'descending';
}

/** The rows in the sort's order; a missing figure (null) always comes last, ties by name. */
export function sortDrivers(rows: DriverFigures[], sort: Sort, nameOf: (d: DriverFigures) => string, collator: Intl.Collator): DriverFigures[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (sort.column === 'name') return sign * collator.compare(nameOf(a), nameOf(b));
    const x = a[sort.column];
    const y = b[sort.column];
    if (x === null || y === null) return x === y ? collator.compare(nameOf(a), nameOf(b)) : x === null ? 1 : -1;
    return sign * (x - y) || collator.compare(nameOf(a), nameOf(b));
  });
}

export function DriverTable({ rows }: { rows: DriverFigures[] }) {
  const t = useT(messages);
  const format = useFormat();
  // The API's order: most stops completed first.
  const [sort, setSort] = useState<Sort>({ column: 'stops_completed', direction: 'descending' });
  const nameOf = (d: DriverFigures) => d.name ?? t('unnamed_driver');
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' });
  const sorted = sortDrivers(rows, sort, nameOf, collator);
  const toggle = (column: Column, numeric: boolean) =>
    setSort((current) =>
      current.column === column ? { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' } : { column, direction: numeric ? 'descending' : 'ascending' },
    );
  const cell = (d: DriverFigures, column: Column) => {
    if (column === 'name') return nameOf(d);
    const value = d[column];
    if (value === null) return t('none');
    return column === 'on_time_rate' ? format.percent(value) : format.number(value);
  };

  if (!rows.length) return <p className="muted">{t('no_drivers')}</p>;
  return (
    <div className="table-wrap">
      <table className="data sortable">
        <caption className="visually-hidden">{t('by_driver')}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined} aria-sort={sort.column === c.key ? sort.direction : undefined}>
                <button type="button" className="sort-button" onClick={() => toggle(c.key, c.numeric)}>
                  {t(c.label)}
                  <span aria-hidden="true" className="sort-mark">
                    {sort.column === c.key ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((d) => (
            <tr key={d.driver_id}>
              {COLUMNS.map((c) =>
                c.key === 'name' ? (
                  <th key={c.key} scope="row">
                    {cell(d, c.key)}
                  </th>
                ) : (
                  <td key={c.key} className="num">
                    {cell(d, c.key)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
