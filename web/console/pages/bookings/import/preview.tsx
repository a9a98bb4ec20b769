// The preview's rows: every row of the file in a virtualized list (a file of 1,000 rows scrolls as one of ten: only
// the rows in view are in the page), each saying where it will be — house or street precision and the source, the
// coordinates or place the file gives, a pin — or each of its problems in words at its column; the rows with errors
// again as a table, and the rows already imported with links to their bookings.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Link } from 'wouter';
import { useT } from '../../../../i18n/index.tsx';
import { Badge, Button } from '../../../../ui/index.ts';
import type { ImportField } from './csv.ts';
import type { Located } from './geocode.ts';
import { messages } from './messages.ts';
import { geocodeQuery, type ImportRow } from './rows.ts';
import type { RowError, RowOutcome } from './run.ts';

type MessageKey = keyof (typeof messages)['en'];
type T = (key: MessageKey, params?: Record<string, string | number>) => string;

export const fieldName = (t: T, field: ImportField | null): string => (field ? t(`field.${field}`) : t('row_as_whole'));

export function words(t: T, error: RowError): string {
  if (error.detail) return error.detail;
  return t(`code.${error.code}` as MessageKey, { value: error.value ?? '', other: error.other ?? 0, where: error.where || t('the_region') });
}

/** Where the row's drop-off will be, in words, and how sure (a badge's tone). */
function whereOf(t: T, row: ImportRow, located: Located | undefined, outcome: RowOutcome | undefined): { text: string; tone: 'ok' | 'warn' | 'danger' | 'neutral' } {
  if (!row.address) return row.booking.stops[1]?.place_id ? { text: t('where.place'), tone: 'ok' } : { text: t('where.none'), tone: 'danger' };
  if (row.located) return { text: row.booking.stops[1]?.place_id ? t('where.pinned') : t('where.given'), tone: 'ok' };
  // A row the check has already refused is not still being looked up: its error says why, the badge says "not found".
  if (!located) return outcome?.status === 'failed' ? { text: t('where.none'), tone: 'danger' } : { text: t('where.pending'), tone: 'neutral' };
  const result = located.result;
  if (!result) return { text: t('where.none'), tone: 'danger' };
  const source = ['places', 'region', 'nominatim', 'photon'].includes(result.source) ? t(`source.${result.source as 'region'}`) : result.source;
  return { text: `${t(result.precision === 'house' ? 'where.house' : 'where.street')} · ${source}`, tone: result.precision === 'house' ? 'ok' : 'warn' };
}

const addressText = (row: ImportRow): string => (row.address ? geocodeQuery(row.address) : (row.booking.stops[1]?.place_id ?? ''));

export function PreviewList({ rows, outcomes, located, canPin, onPin }: { rows: ImportRow[]; outcomes: ReadonlyMap<number, RowOutcome>; located: (row: ImportRow) => Located | undefined; canPin: (row: ImportRow) => boolean; onPin: (row: ImportRow) => void }) {
  const t = useT(messages);
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change as it measures; the list is redrawn from them, not memoized (the rule's note).
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => 72, overscan: 8 });
  return (
    <div ref={scroller} className="import-rows" role="region" aria-label={t('rows_list')} tabIndex={0}>
      <ul style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const outcome = outcomes.get(row.number);
          const where = whereOf(t, row, located(row), outcome);
          const errors = outcome?.status === 'failed' ? outcome.errors : [];
          return (
            <li key={row.number} ref={virtualizer.measureElement} data-index={item.index} style={{ transform: `translateY(${item.start}px)` }} aria-label={t('row_label', { row: row.number })}>
              <div className="import-row-head">
                <strong>{t('row_label', { row: row.number })}</strong>
                {row.externalId ? <span>{row.externalId}</span> : null}
                {row.booking.stops[1]?.contact?.name ? <span>{row.booking.stops[1].contact.name}</span> : null}
                <span className="muted">{addressText(row)}</span>
                {row.booking.packages?.length ? <span>{t('parcels', { count: row.booking.packages.length })}</span> : null}
                <Badge tone={where.tone}>{where.text}</Badge>
              </div>
              {errors.length ? (
                <ul className="import-row-errors">
                  {errors.map((error, i) => (
                    <li key={i}>
                      {fieldName(t, error.field)}: {words(t, error)}
                    </li>
                  ))}
                </ul>
              ) : null}
              {outcome?.status === 'replayed' ? (
                <p className="import-row-note">
                  {t('already', { id: row.externalId ?? '—' })} {outcome.bookingId ? <Link href={`/bookings/${outcome.bookingId}`}>{t('open_booking')}</Link> : null}
                </p>
              ) : null}
              {canPin(row) ? (
                <Button small onClick={() => onPin(row)}>
                  {t('pin', { row: row.number })}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** At most this many failed rows in the table; the download has them all. */
export const TABLE_LIMIT = 500;

export function ErrorsTable({ failed, caption }: { failed: RowOutcome[]; caption: string }) {
  const t = useT(messages);
  const shown = failed.slice(0, TABLE_LIMIT);
  return (
    <div className="table-wrap">
      <table className="data">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('col_row')}</th>
            <th scope="col">{t('col_external_id')}</th>
            <th scope="col">{t('col_column')}</th>
            <th scope="col">{t('col_problem')}</th>
          </tr>
        </thead>
        <tbody>
          {shown.flatMap((outcome) =>
            outcome.errors.map((error, i) => (
              <tr key={`${outcome.row.number}-${i}`}>
                {i === 0 ? (
                  <>
                    <th scope="row" rowSpan={outcome.errors.length}>
                      {outcome.row.number}
                    </th>
                    <td rowSpan={outcome.errors.length}>{outcome.row.externalId ?? '—'}</td>
                  </>
                ) : null}
                <td>{fieldName(t, error.field)}</td>
                <td>{words(t, error)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {failed.length > shown.length ? <p className="muted">{t('more_errors', { count: failed.length - shown.length })}</p> : null}
    </div>
  );
}

export function AlreadyImported({ outcomes }: { outcomes: RowOutcome[] }) {
  const t = useT(messages);
  if (!outcomes.length) return null;
  return (
    <details className="card">
      <summary>{t('already_imported', { count: outcomes.length })}</summary>
      <ul>
        {outcomes.slice(0, TABLE_LIMIT).map((o) => (
          <li key={o.row.number}>{o.bookingId ? <Link href={`/bookings/${o.bookingId}`}>{t('already_row', { row: o.row.number, id: o.row.externalId ?? '—' })}</Link> : t('already_row', { row: o.row.number, id: o.row.externalId ?? '—' })}</li>
        ))}
      </ul>
    </details>
  );
}
