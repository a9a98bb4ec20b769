// Importing bookings from a CSV file: read and map the columns, preview (a dry run: every row checked, nothing
// written), import with a progress bar, then the summary and the failed rows to download. Each row's idempotency key
// comes from the file's hash and the row number, so importing the same file again creates nothing twice
// (decision 1030; API guide, "Creating bookings in bulk").
import { useMemo, useState, type ChangeEvent } from 'react';
import { Link } from 'wouter';
import { useT } from '../../../../i18n/index.tsx';
import { Banner, Button, ErrorBanner, PageHead, SelectField, TextField } from '../../../../ui/index.ts';
import { createBookingsInBulk, useServices } from '../queries.ts';
import { failedRowsCsv, fileHash, guessMapping, IMPORT_FIELDS, missingFields, parseCsv, rowKey, toImportRows, type ImportField, type Mapping, type ParsedCsv } from './csv.ts';
import { messages } from './messages.ts';
import { runImport, summarize, type RowError, type RowOutcome } from './run.ts';

interface LoadedFile {
  name: string;
  hash: string;
  parsed: ParsedCsv;
}

type Run = { kind: 'preview' | 'import'; done: number; total: number; outcomes?: RowOutcome[]; error?: unknown };

export function ImportPage() {
  const t = useT(messages);
  const services = useServices();
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [unreadable, setUnreadable] = useState<'unreadable' | 'needs_https' | null>(null);
  const [mapping, setMapping] = useState<Mapping>(() => guessMapping([]));
  const [chosenService, setServiceId] = useState('');
  // One service is the obvious choice; with several the dispatcher picks.
  const serviceId = chosenService || (services.data?.length === 1 ? services.data[0]!.id : '');
  const [run, setRun] = useState<Run | null>(null);
  const running = run !== null && !run.outcomes && !run.error;


  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setRun(null);
    setUnreadable(null);
    if (!chosen) return setFile(null);
    // Browsers offer crypto.subtle (the file's hash, hence the rows' keys) only over HTTPS or on this machine.
    if (!globalThis.crypto?.subtle) return setUnreadable('needs_https');
    try {
      const bytes = await chosen.arrayBuffer();
      const parsed = parseCsv(new TextDecoder().decode(bytes));
      setFile({ name: chosen.name, hash: await fileHash(bytes), parsed });
      setMapping(guessMapping(parsed.headers));
    } catch {
      setFile(null);
      setUnreadable('unreadable');
    }
  };

  const missing = missingFields(mapping);
  const ready = file !== null && file.parsed.rows.length > 0 && missing.length === 0 && serviceId !== '' && !running;

  const start = async (kind: 'preview' | 'import') => {
    if (!file) return;
    const rows = toImportRows(file.parsed, mapping, serviceId);
    setRun({ kind, done: 0, total: rows.length });
    try {
      const outcomes = await runImport(
        rows,
        (row) => rowKey(file.hash, row.number),
        kind === 'preview',
        createBookingsInBulk,
        (done, total) => setRun({ kind, done, total }),
      );
      setRun({ kind, done: rows.length, total: rows.length, outcomes });
    } catch (error) {
      setRun((current) => ({ kind, done: current?.done ?? 0, total: rows.length, error }));
    }
  };

  const fieldName = (field: ImportField | null) => (field ? t(`field.${field}`) : t('row_as_whole'));
  const words = (error: RowError) => error.detail ?? t(`code.${error.code as 'not_a_count'}`);

  return (
    <section className="stack" aria-labelledby="import-title">
      <PageHead title={<span id="import-title">{t('title')}</span>} actions={<Link href="/bookings">{t('back')}</Link>} />
      <p className="muted">{t('intro')}</p>
      <div className="card stack">
        <TextField label={t('file')} hint={t('file_hint')} type="file" accept=".csv,text/csv,text/plain" onChange={choose} disabled={running} />
        {unreadable ? <Banner tone="error">{t(unreadable === 'needs_https' ? 'needs_https' : 'file_unreadable')}</Banner> : null}
        {file ? (
          file.parsed.rows.length ? (
            <p role="status">{t('file_read', { rows: file.parsed.rows.length, columns: file.parsed.headers.length, name: file.name })}</p>
          ) : (
            <Banner tone="error">{t('file_empty')}</Banner>
          )
        ) : null}
      </div>

      {file && file.parsed.rows.length ? (
        <>
          <fieldset className="card stack" disabled={running}>
            <legend>{t('columns')}</legend>
            <p className="muted">{t('columns_hint')}</p>
            <div className="grid-fields">
              <SelectField label={t('service')} hint={t('service_hint')} value={serviceId} required onChange={(e) => setServiceId(e.target.value)} errors={services.isError ? [services.error.message] : undefined}>
                <option value="">{t('choose_service')}</option>
                {(services.data ?? []).map((service) => (
                  <option key={service.id} value={service.id}>
                    {service.name}
                  </option>
                ))}
              </SelectField>
              {IMPORT_FIELDS.map((field) => (
                <SelectField
                  key={field}
                  label={t(`field.${field}`)}
                  value={mapping[field] === null ? '' : String(mapping[field])}
                  onChange={(e) => setMapping({ ...mapping, [field]: e.target.value === '' ? null : Number(e.target.value) })}
                >
                  <option value="">{t('not_mapped')}</option>
                  {file.parsed.headers.map((header, i) => (
                    <option key={i} value={i}>
                      {header || `#${i + 1}`}
                    </option>
                  ))}
                </SelectField>
              ))}
            </div>
            {missing.length ? <Banner tone="warn">{t('missing', { fields: missing.map((f) => t(`field.${f}`)).join(', ') })}</Banner> : null}
          </fieldset>

          <div className="row">
            <Button disabled={!ready} busy={running && run?.kind === 'preview'} onClick={() => void start('preview')}>
              {t('preview')}
            </Button>
            <Button variant="primary" disabled={!ready} busy={running && run?.kind === 'import'} onClick={() => void start('import')}>
              {t('import')}
            </Button>
            <span className="muted">{t('preview_hint')}</span>
          </div>
        </>
      ) : null}

      {run ? <RunReport run={run} file={file!} externalColumn={mapping.external_id} fieldName={fieldName} words={words} /> : null}
    </section>
  );
}

function RunReport({ run, file, externalColumn, fieldName, words }: { run: Run; file: LoadedFile; externalColumn: number | null; fieldName: (field: ImportField | null) => string; words: (error: RowError) => string }) {
  const t = useT(messages);
  const failed = useMemo(() => (run.outcomes ?? []).filter((o) => o.status === 'failed'), [run.outcomes]);
  const summary = run.outcomes ? summarize(run.outcomes) : null;
  return (
    <section className="stack" aria-label={run.kind === 'preview' ? t('preview') : t('import')}>
      <div className="card stack">
        <label className="progress-label">
          {run.kind === 'preview' ? t('preview_progress') : t('import_progress')}
          <progress max={run.total} value={run.done} />
        </label>
        <span className="muted">{t('progress_of', { done: run.done, total: run.total })}</span>
        {run.error ? (
          <>
            <ErrorBanner error={run.error} />
            {run.kind === 'import' ? <Banner tone="warn">{t('interrupted')}</Banner> : null}
          </>
        ) : null}
        {summary ? (
          <p role="status" className="summary">
            {run.kind === 'preview' ? t('preview_summary', { ready: summary.ready, replayed: summary.replayed, failed: summary.failed }) : t('import_summary', { created: summary.created, replayed: summary.replayed, failed: summary.failed })}
          </p>
        ) : null}
        {summary && run.kind === 'preview' && !summary.failed ? <Banner tone="ok">{t('preview_all_good')}</Banner> : null}
        {summary && run.kind === 'import' && failed.length ? <FailedRowsButton file={file} failed={failed} fieldName={fieldName} words={words} /> : null}
      </div>
      {failed.length ? (
        <div className="table-wrap">
          <table className="data">
            <caption>{run.kind === 'preview' ? t('rows_with_errors') : t('failed_rows')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('col_row')}</th>
                <th scope="col">{t('col_external_id')}</th>
                <th scope="col">{t('col_column')}</th>
                <th scope="col">{t('col_problem')}</th>
              </tr>
            </thead>
            <tbody>
              {failed.flatMap((outcome) =>
                outcome.errors.map((error, i) => (
                  <tr key={`${outcome.row.number}-${i}`}>
                    {i === 0 ? (
                      <>
                        <th scope="row" rowSpan={outcome.errors.length}>
                          {outcome.row.number}
                        </th>
                        <td rowSpan={outcome.errors.length}>{externalColumn === null ? '—' : outcome.row.cells[externalColumn] || '—'}</td>
                      </>
                    ) : null}
                    <td>{fieldName(error.field)}</td>
                    <td>{words(error)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The failed rows as a CSV made in the page and handed to the browser as a download: a `blob:` link clicked from
 * here, which the page's CSP allows (a navigation, not a connection; decision 1000's connect-src is not involved).
 */
function FailedRowsButton({ file, failed, fieldName, words }: { file: LoadedFile; failed: RowOutcome[]; fieldName: (field: ImportField | null) => string; words: (error: RowError) => string }) {
  const t = useT(messages);
  const download = () => {
    const text = failedRowsCsv(
      file.parsed.headers,
      failed.map((o) => ({ cells: o.row.cells, reason: o.errors.map((e) => `${fieldName(e.field)}: ${words(e)}`).join(' | ') })),
    );
    const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('failed_file', { name: file.name.toLowerCase().endsWith('.csv') ? file.name : `${file.name}.csv` });
    link.click();
    // The download has started once click() returns; the URL is kept a little for browsers that read it later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <div>
      <Button onClick={download}>{t('download_failed')}</Button>
    </div>
  );
}
