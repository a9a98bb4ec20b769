// Importing bookings from a shop's CSV export: the file is decoded (BOM, else UTF-8, else Windows-1252) and parsed —
// a file not read cleanly shows its problems at their rows and imports nothing — its columns recognized (editable),
// and the preview runs by itself once a service and the pickup are known: every distinct address looked up, then a
// dry run of the bulk create, nothing written. "Import" then creates the rows without errors, one bulk item per
// booking (all or nothing each, so closing the page midway leaves no half-made booking); each row's idempotency key
// comes from the file, and its external id is unique on the server, so a second import — another session, browser or
// script — creates nothing twice (decision 1030; contract §14; docs/console.md, "Importing bookings").
import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { Link } from 'wouter';
import { useServiceAreas } from '../../../../api/reference.ts';
import { useT } from '../../../../i18n/index.tsx';
import { Banner, Button, ErrorBanner, PageHead, SelectField, TextField } from '../../../../ui/index.ts';
import { createBookingsInBulk, geocode, usePlaces, useServices } from '../queries.ts';
import { emptyMapping, failedRowsCsv, fileHash, guessMapping, IMPORT_FIELDS, isShopifyExport, missingFields, parseCsv, rowKey, type Mapping, type ParsedCsv } from './csv.ts';
import { decodeBytes, type Decoded } from './decode.ts';
import { geocodeAll, type Located } from './geocode.ts';
import { messages } from './messages.ts';
import { PinDialog, type PinTarget } from './pin-dialog.tsx';
import { AlreadyImported, ErrorsTable, fieldName, PreviewList, words } from './preview.tsx';
import { geocodeQuery, toImportRows, type ImportRow } from './rows.ts';
import { runImport, summarize, type RowOutcome } from './run.ts';

interface LoadedFile {
  name: string;
  hash: string;
  encoding: Decoded['encoding'];
  guessed: boolean;
  parsed: ParsedCsv;
}

type Check = { phase: 'locating' | 'checking' | 'done'; done: number; total: number; outcomes?: RowOutcome[]; error?: unknown };
type Run = { done: number; total: number; outcomes?: RowOutcome[]; error?: unknown };

/**
 * The row's geocode query, when its drop-off is to be found by address (not a place id, coordinates or a pin) and
 * the row is not left out already for another problem.
 */
const queryOf = (row: ImportRow): string | null => (row.address && !row.located && !row.problems.length ? geocodeQuery(row.address) : null);

/** The rows with what the lookups found: an address nothing was found for is the row's problem, named in words. */
function withLocations(rows: ImportRow[], located: ReadonlyMap<string, Located>, streetField: 'street' | 'address'): ImportRow[] {
  return rows.map((row) => {
    const query = queryOf(row);
    const answer = query ? located.get(query) : undefined;
    if (!answer || answer.result || !row.address) return row;
    const problem = answer.failed
      ? { field: streetField, code: 'geocode_failed' as const }
      : { field: streetField, code: 'address_not_found' as const, value: [row.address.street, row.address.number].filter(Boolean).join(' '), where: row.address.city };
    return { ...row, problems: [...row.problems, problem] };
  });
}

const areaCenter = (boundary: { coordinates: number[][][] } | null | undefined): [number, number] | undefined => {
  const ring = boundary?.coordinates[0];
  if (!ring?.length) return undefined;
  return [ring.reduce((s, p) => s + p[0]!, 0) / ring.length, ring.reduce((s, p) => s + p[1]!, 0) / ring.length];
};

export function ImportPage() {
  const t = useT(messages);
  const services = useServices();
  const areas = useServiceAreas();
  const places = usePlaces();
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [unreadable, setUnreadable] = useState<{ kind: 'unreadable' | 'needs_https'; encoding?: string } | null>(null);
  const [mapping, setMapping] = useState<Mapping>(emptyMapping);
  const [chosenService, setServiceId] = useState('');
  const [pickupPlaceId, setPickupPlaceId] = useState('');
  const [pins, setPins] = useState<ReadonlyMap<string, string>>(new Map());
  const [located, setLocated] = useState<ReadonlyMap<string, Located>>(new Map());
  const [check, setCheck] = useState<Check | null>(null);
  const [run, setRun] = useState<Run | null>(null);
  const [pinning, setPinning] = useState<PinTarget | null>(null);
  // One service is the obvious choice; with several the dispatcher picks.
  const serviceId = chosenService || (services.data?.length === 1 ? services.data[0]!.id : '');
  const service = services.data?.find((s) => s.id === serviceId);
  const area = areas.data?.find((a) => a.id === service?.service_area_id);
  const timeZone = area?.time_zone ?? 'UTC';
  const pickupOptions = (places.data ?? []).filter((p) => !area || p.service_area_id === area.id || p.service_area_id === null).sort((a, b) => a.name.localeCompare(b.name));
  const running = run !== null && !run.outcomes && !run.error;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    setRun(null);
    setCheck(null);
    setUnreadable(null);
    setLocated(new Map());
    if (!chosen) return setFile(null);
    // Browsers offer crypto.subtle (the file's hash, hence the rows' keys) only over HTTPS or on this machine.
    if (!globalThis.crypto?.subtle) return setUnreadable({ kind: 'needs_https' });
    const bytes = await chosen.arrayBuffer();
    let decoded: Decoded;
    try {
      decoded = decodeBytes(bytes);
    } catch {
      setFile(null);
      const bom = new Uint8Array(bytes.slice(0, 2));
      return setUnreadable({ kind: 'unreadable', encoding: bom[0] === 0xff || bom[0] === 0xfe ? 'UTF-16' : 'UTF-8' });
    }
    const parsed = parseCsv(decoded.text);
    setFile({ name: chosen.name, hash: await fileHash(bytes), encoding: decoded.encoding, guessed: decoded.guessed, parsed });
    setMapping(guessMapping(parsed.headers));
  };

  const clean = file !== null && file.parsed.problems.length === 0 && file.parsed.rows.length > 0;
  const missing = missingFields(mapping);
  const needsPickup = mapping.pickup_place_id === null;
  const settled = clean && missing.length === 0 && serviceId !== '' && (!needsPickup || pickupPlaceId !== '') && (!service?.service_area_id || area !== undefined);
  const streetField = mapping.street === null && mapping.address !== null ? 'address' : 'street';
  const baseRows = useMemo(() => (settled && file ? toImportRows(file.parsed, mapping, { serviceId, pickupPlaceId, timeZone, pins }) : []), [settled, file, mapping, serviceId, pickupPlaceId, timeZone, pins]);
  const rows = useMemo(() => withLocations(baseRows, located, streetField), [baseRows, located, streetField]);

  // The preview runs by itself whenever what it depends on changes; a newer one cancels an older one.
  useEffect(() => {
    if (!settled || !file || !baseRows.length) return;
    let cancelled = false;
    const found = new Map(located);
    const queries = [...new Set(baseRows.map(queryOf).filter((q): q is string => q !== null && !found.has(q)))];
    void (async () => {
      setRun(null);
      setCheck({ phase: 'locating', done: 0, total: queries.length });
      let answered = 0;
      let flushed = Date.now();
      await geocodeAll(
        queries,
        (q) => geocode(q, area?.id ?? null),
        (q, answer) => {
          found.set(q, answer);
          answered++;
          // The list is redrawn a few times a second, not once per answer.
          if (Date.now() - flushed > 250 || answered === queries.length) {
            flushed = Date.now();
            setLocated(new Map(found));
            setCheck({ phase: 'locating', done: answered, total: queries.length });
          }
        },
        undefined,
        () => cancelled,
      );
      if (cancelled) return;
      setLocated(new Map(found));
      const checked = withLocations(baseRows, found, streetField);
      setCheck({ phase: 'checking', done: 0, total: checked.length });
      try {
        const outcomes = await runImport(checked, (row) => rowKey(file.hash, row.number), true, createBookingsInBulk, (done, total) => !cancelled && setCheck({ phase: 'checking', done, total }), undefined, mapping);
        if (!cancelled) setCheck({ phase: 'done', done: checked.length, total: checked.length, outcomes });
      } catch (error) {
        if (!cancelled) setCheck((current) => ({ phase: 'done', done: current?.done ?? 0, total: checked.length, error }));
      }
    })();
    return () => {
      cancelled = true;
    };
    // `located` is read once per run (the answers it already has are not asked again), not a reason to run again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled, file, baseRows, streetField, mapping, area?.id]);

  const previewed = check?.phase === 'done' && check.outcomes ? check.outcomes : null;
  const importable = previewed ? previewed.filter((o) => o.status !== 'failed').length : 0;

  const start = async () => {
    if (!file) return;
    setRun({ done: 0, total: rows.length });
    try {
      const outcomes = await runImport(rows, (row) => rowKey(file.hash, row.number), false, createBookingsInBulk, (done, total) => setRun({ done, total }), undefined, mapping);
      setRun({ done: rows.length, total: rows.length, outcomes });
    } catch (error) {
      setRun((current) => ({ done: current?.done ?? 0, total: rows.length, error }));
    }
  };

  const shown = useMemo(() => run?.outcomes ?? previewed ?? [], [run?.outcomes, previewed]);
  const outcomeByRow = useMemo(() => new Map(shown.map((o) => [o.row.number, o])), [shown]);
  const failed = shown.filter((o) => o.status === 'failed');
  const already = shown.filter((o) => o.status === 'replayed');
  const summary = previewed ? summarize(previewed) : null;
  const streetOnly = rows.filter((row) => {
    const q = queryOf(row);
    return q !== null && located.get(q)?.result?.precision === 'street' && !row.problems.length;
  }).length;
  const canPin = (row: ImportRow) => !running && row.address !== null && row.key !== null && row.problems.some((p) => p.code === 'address_not_found');
  const openPin = (row: ImportRow) => {
    const q = queryOf(row);
    const closest = q ? located.get(q)?.closest : null;
    setPinning({ row: row.number, key: row.key!, label: geocodeQuery(row.address!), address: row.address!, center: closest ? [closest.location.lng, closest.location.lat] : areaCenter(area?.boundary) });
  };

  return (
    <section className="stack" aria-labelledby="import-title">
      <PageHead title={<span id="import-title">{t('title')}</span>} actions={<Link href="/bookings">{t('back')}</Link>} />
      <p className="muted">{t('intro')}</p>
      <div className="card stack">
        <TextField label={t('file')} hint={t('file_hint')} type="file" accept=".csv,text/csv,text/plain" onChange={choose} disabled={running} />
        {unreadable ? <Banner tone="error">{unreadable.kind === 'needs_https' ? t('needs_https') : unreadable.encoding ? t('file_unreadable', { encoding: unreadable.encoding }) : t('file_unreadable_plain')}</Banner> : null}
        {file ? (
          file.parsed.rows.length ? (
            <p role="status">{t('file_read', { rows: file.parsed.rows.length, columns: file.parsed.headers.length, name: file.name })}</p>
          ) : (
            <Banner tone="error">{t('file_empty')}</Banner>
          )
        ) : null}
        {file?.guessed ? <Banner tone="warn">{t('encoding_guessed')}</Banner> : null}
        {file && file.encoding.startsWith('utf-16') ? <p className="muted">{t('encoding_named', { encoding: file.encoding === 'utf-16le' ? 'UTF-16 (little-endian)' : 'UTF-16 (big-endian)' })}</p> : null}
        {file && isShopifyExport(file.parsed.headers) ? <p className="muted">{t('shopify')}</p> : null}
      </div>

      {file && file.parsed.problems.length ? <ParseProblems file={file} /> : null}

      {clean ? (
        <>
          <div className="card stack">
            <div className="grid-fields">
              <SelectField label={t('service')} hint={t('service_hint')} value={serviceId} required onChange={(e) => setServiceId(e.target.value)} disabled={running} errors={services.isError ? [services.error.message] : undefined}>
                <option value="">{t('choose_service')}</option>
                {(services.data ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </SelectField>
              {needsPickup ? (
                <SelectField label={t('pickup_all')} hint={t('pickup_all_hint')} value={pickupPlaceId} required onChange={(e) => setPickupPlaceId(e.target.value)} disabled={running} errors={places.isError ? [places.error.message] : undefined}>
                  <option value="">{t('choose_pickup')}</option>
                  {pickupOptions.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </SelectField>
              ) : null}
            </div>
          </div>
          <details className="card stack" open={missing.length > 0 || undefined}>
            <summary>{t('columns')}</summary>
            <fieldset className="stack" disabled={running}>
              <legend className="muted">{t('columns_hint')}</legend>
              <div className="grid-fields">
                {IMPORT_FIELDS.map((field) => (
                  <SelectField key={field} label={t(`field.${field}`)} value={mapping[field] === null ? '' : String(mapping[field])} onChange={(e) => setMapping({ ...mapping, [field]: e.target.value === '' ? null : Number(e.target.value) })}>
                    <option value="">{t('not_mapped')}</option>
                    {file!.parsed.headers.map((header, i) => (
                      <option key={i} value={i}>
                        {header || `#${i + 1}`}
                      </option>
                    ))}
                  </SelectField>
                ))}
              </div>
            </fieldset>
          </details>
          {missing.length ? <Banner tone="warn">{t('missing', { fields: missing.map((f) => t(`field.${f}`)).join(', ') })}</Banner> : null}
        </>
      ) : null}

      {check ? (
        <section className="stack" aria-label={t('preview')}>
          <div className="card stack">
            {check.phase !== 'done' ? (
              <label className="progress-label">
                {check.phase === 'locating' ? t('preview_locating') : t('preview_checking')}
                <progress max={check.total} value={check.done} />
                <span className="muted">{t('progress_of', { done: check.done, total: check.total })}</span>
              </label>
            ) : null}
            {check.error ? <ErrorBanner error={check.error} /> : null}
            {summary ? (
              <p role="status" className="summary">
                {t(summary.ready === 1 ? 'preview_summary_one' : 'preview_summary', { ready: summary.ready, replayed: summary.replayed, failed: summary.failed })}
              </p>
            ) : null}
            {summary && streetOnly ? <p className="muted">{t('street_only', { count: streetOnly })}</p> : null}
            {summary && !summary.failed ? <Banner tone="ok">{t('preview_all_good')}</Banner> : null}
            <div className="row">
              <Button variant="primary" disabled={!previewed || importable === 0 || running || run?.outcomes !== undefined} busy={running} onClick={() => void start()}>
                {t('import')}
              </Button>
              <span className="muted">{t('preview_hint')}</span>
            </div>
            {run ? (
              <>
                <label className="progress-label">
                  {t('import_progress')}
                  <progress max={run.total} value={run.done} />
                </label>
                <span className="muted">{t('progress_of', { done: run.done, total: run.total })}</span>
                {run.error ? (
                  <>
                    <ErrorBanner error={run.error} />
                    <Banner tone="warn">{t('interrupted')}</Banner>
                  </>
                ) : null}
                {run.outcomes ? (
                  <p role="status" className="summary">
                    {(({ created, replayed, failed: f }) => t('import_summary', { created, replayed, failed: f }))(summarize(run.outcomes))}
                  </p>
                ) : null}
              </>
            ) : null}
            {failed.length && file ? <FailedRowsButton file={file} failed={failed} /> : null}
          </div>
          <AlreadyImported outcomes={already} />
          {failed.length ? <ErrorsTable failed={failed} caption={run?.outcomes ? t('failed_rows') : t('rows_with_errors')} /> : null}
          <PreviewList rows={rows} outcomes={outcomeByRow} located={(row) => (queryOf(row) ? located.get(queryOf(row)!) : undefined)} canPin={canPin} onPin={openPin} />
        </section>
      ) : null}
      {pinning ? (
        <PinDialog
          target={pinning}
          serviceAreaId={area?.id ?? null}
          onClose={() => setPinning(null)}
          onSaved={(key, placeId) => {
            setPinning(null);
            setPins(new Map([...pins, [key, placeId]]));
          }}
        />
      ) : null}
    </section>
  );
}

function ParseProblems({ file }: { file: LoadedFile }) {
  const t = useT(messages);
  const width = file.parsed.headers.length;
  return (
    <section className="stack">
      <Banner tone="error">{t('parse_failed')}</Banner>
      <div className="table-wrap">
        <table className="data">
          <caption>{t('parse_table')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('col_row')}</th>
              <th scope="col">{t('col_problem')}</th>
            </tr>
          </thead>
          <tbody>
            {file.parsed.problems.slice(0, 500).map((p) => (
              <tr key={`${p.row}-${p.code}`}>
                <th scope="row">{p.row === 0 ? t('header_row') : p.row}</th>
                <td>{t(`parse.${p.code}`, { count: file.parsed.rows[p.row - 1]?.length ?? 0, width })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/**
 * The failed rows as a CSV made in the page (formula cells neutralized, web/ui/csv.ts) and handed to the browser as
 * a download: a `blob:` link clicked from here, which the page's CSP allows (a navigation, not a connection).
 */
function FailedRowsButton({ file, failed }: { file: LoadedFile; failed: RowOutcome[] }) {
  const t = useT(messages);
  const download = () => {
    const lines = failed.flatMap((o) => o.row.rows.map((n) => ({ cells: file.parsed.rows[n - 1] ?? o.row.cells, reason: o.errors.map((e) => `${fieldName(t, e.field)}: ${words(t, e)}`).join(' | ') })));
    const text = failedRowsCsv(file.parsed.headers, lines);
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
