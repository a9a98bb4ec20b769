// Running an import (or its dry run): the rows in chunks of 100, one bulk call after the other, items still in flight
// elsewhere (409 idempotency_key_in_use) and a refused chunk (429) tried again after a short wait; each row ends as
// ready (dry run), created, already imported (a replay of its key, or 409 `external_id_exists` naming the booking that
// holds its external id: another session, browser or script imported it, contract §14) or failed with its errors at
// their columns.
// problem.ts directly, not the api index: this module runs in the unit tests, where there is no page to make a client for.
import { isApiError } from '../../../../api/problem.ts';
import type { BulkResult } from '../queries.ts';
import type { BookingCreate, ImportField } from './csv.ts';
import { fieldOfPointer, type ImportRow } from './rows.ts';

export const CHUNK = 100;
const ATTEMPTS = 5;

export type RowStatus = 'ready' | 'created' | 'replayed' | 'failed';

export interface RowError {
  /** The column the error concerns; null for the row as a whole. */
  field: ImportField | null;
  /** The API's words (in the page's language); null for the page's own checks, told by `code`. */
  detail: string | null;
  code: string;
  /** The cell as written, for the page's own words ("'two' is not a number of parcels"). */
  value?: string;
  /** Another row the problem refers to ("already in row 4"). */
  other?: number;
  where?: string;
}

export interface RowOutcome {
  row: ImportRow;
  status: RowStatus;
  errors: RowError[];
  /** The booking created or already holding the row's external id, when the answer names it. */
  bookingId?: string;
}

export type Send = (items: { idempotency_key: string; booking: BookingCreate }[], dryRun: boolean) => Promise<BulkResult[]>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function outcomeOf(row: ImportRow, result: BulkResult, dryRun: boolean, mapping?: Parameters<typeof fieldOfPointer>[1]): RowOutcome {
  const id = result.booking?.id;
  if (result.status < 300) return { row, status: result.replayed ? 'replayed' : dryRun ? 'ready' : 'created', errors: [], ...(id ? { bookingId: id } : {}) };
  const problem = result.error;
  if (result.status === 409 && problem?.error_code === 'external_id_exists') {
    const existing = (problem as { booking_id?: unknown }).booking_id;
    return { row, status: 'replayed', errors: [], ...(typeof existing === 'string' ? { bookingId: existing } : {}) };
  }
  const fieldErrors = problem?.errors ?? [];
  const errors: RowError[] = fieldErrors.length
    ? fieldErrors.map((e) => ({ field: fieldOfPointer(e.pointer, mapping), detail: e.detail, code: e.code }))
    : [{ field: null, detail: problem?.detail ?? `HTTP ${result.status}`, code: problem?.error_code ?? 'unknown' }];
  return { row, status: 'failed', errors };
}

const inFlight = (result: BulkResult) => result.status === 409 && result.error?.error_code === 'idempotency_key_in_use';

/**
 * Sends the rows (rows the page refused are failed without a call) and reports progress after every chunk. A thrown
 * error (lost connection, the session ended) stops the run; running it again is safe, the keys replay.
 */
export async function runImport(
  rows: ImportRow[],
  keyOf: (row: ImportRow) => string,
  dryRun: boolean,
  send: Send,
  onProgress: (done: number, total: number) => void,
  wait: (ms: number) => Promise<void> = sleep,
  mapping?: Parameters<typeof fieldOfPointer>[1],
): Promise<RowOutcome[]> {
  const outcomes = new Map<number, RowOutcome>();
  const sendable: ImportRow[] = [];
  for (const row of rows) {
    if (row.problems.length) outcomes.set(row.number, { row, status: 'failed', errors: row.problems.map((p) => ({ field: p.field, detail: null, code: p.code, ...(p.value !== undefined ? { value: p.value } : {}), ...(p.other !== undefined ? { other: p.other } : {}), ...(p.where !== undefined ? { where: p.where } : {}) })) });
    else sendable.push(row);
  }
  let done = outcomes.size;
  onProgress(done, rows.length);
  for (let start = 0; start < sendable.length; start += CHUNK) {
    let pending = sendable.slice(start, start + CHUNK);
    for (let attempt = 1; pending.length; attempt++) {
      let results: BulkResult[];
      try {
        results = await send(
          pending.map((row) => ({ idempotency_key: keyOf(row), booking: row.booking })),
          dryRun,
        );
      } catch (error) {
        // The items' own bucket refills at the credential's rate: wait and send the chunk again (API guide, "Creating
        // bookings in bulk", rate limits).
        if (isApiError(error) && error.status === 429 && attempt < ATTEMPTS) {
          await wait(1000 * attempt);
          continue;
        }
        throw error;
      }
      const retry: ImportRow[] = [];
      results.forEach((result, i) => {
        const row = pending[result.index] ?? pending[i]!;
        if (inFlight(result) && attempt < ATTEMPTS) retry.push(row);
        else outcomes.set(row.number, outcomeOf(row, result, dryRun, mapping));
      });
      done += pending.length - retry.length;
      onProgress(done, rows.length);
      pending = retry;
      if (pending.length) await wait(500 * attempt);
    }
  }
  return rows.map((row) => outcomes.get(row.number)!);
}

export interface Summary {
  ready: number;
  created: number;
  replayed: number;
  failed: number;
}

export const summarize = (outcomes: RowOutcome[]): Summary => {
  const summary: Summary = { ready: 0, created: 0, replayed: 0, failed: 0 };
  for (const outcome of outcomes) summary[outcome.status]++;
  return summary;
};
