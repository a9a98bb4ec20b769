import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../api/problem.ts';
import type { BulkResult } from '../queries.ts';
import { guessMapping } from './csv.ts';
import { toImportRows } from './rows.ts';
import { runImport, summarize, type Send } from './run.ts';

const SERVICE = '0190a6c4-7a3b-7c3e-8f00-00000000000a';
const rowsOf = (count: number, badCount = '') =>
  toImportRows(
    { headers: ['external_id', 'pickup_place_id', 'dropoff_place_id', 'package_count'], rows: Array.from({ length: count }, (_, i) => [`R-${i + 1}`, 'p1', 'p2', i === 0 ? badCount : '']), problems: [] },
    guessMapping(['external_id', 'pickup_place_id', 'dropoff_place_id', 'package_count']),
    { serviceId: SERVICE, pickupPlaceId: '', timeZone: 'Europe/Monaco' },
  );
const ok = (index: number, replayed = false): BulkResult => ({ index, status: 201, replayed, booking: null, error: null });
const noWait = async () => undefined;
/** An item's problem body as the bulk route answers it. */
const problem = (status: number, error_code: string, detail: string, errors?: NonNullable<BulkResult['error']>['errors']): BulkResult['error'] => ({
  type: `https://tourbook.dev/errors/${error_code}`,
  title: error_code,
  status,
  detail,
  error_code,
  ...(errors ? { errors } : {}),
});

describe('runImport', () => {
  it('sends the rows in chunks of 100, one after the other, and reports progress after each', async () => {
    const calls: number[] = [];
    const progress: number[] = [];
    const send: Send = async (items) => {
      calls.push(items.length);
      return items.map((_, i) => ok(i));
    };
    const outcomes = await runImport(rowsOf(250), (row) => `k-${row.number}`, false, send, (done) => progress.push(done), noWait);
    expect(calls).toEqual([100, 100, 50]);
    expect(progress).toEqual([0, 100, 200, 250]);
    expect(summarize(outcomes)).toEqual({ ready: 0, created: 250, replayed: 0, failed: 0 });
  });

  it('tells ready rows of a dry run from replays, and puts item errors at their columns', async () => {
    const send: Send = async (items, dryRun) => {
      expect(dryRun).toBe(true);
      return items.map((_, i) =>
        i === 1
          ? { index: i, status: 422, replayed: false, booking: null, error: problem(422, 'validation_failed', 'The request body is not valid.', [{ pointer: '/booking/stops/1/place_id', full_pointer: `/bookings/${i}/booking/stops/1/place_id`, code: 'unknown_reference', detail: 'No place with this id is visible to you.' }]) }
          : i === 2
            ? { index: i, status: 422, replayed: false, booking: null, error: problem(422, 'stop_limit_reached', 'Service stop limit reached.') }
            : ok(i, i === 0),
      );
    };
    const outcomes = await runImport(rowsOf(4), (row) => `k-${row.number}`, true, send, () => undefined, noWait);
    expect(outcomes.map((o) => o.status)).toEqual(['replayed', 'failed', 'failed', 'ready']);
    expect(outcomes[1]!.errors).toEqual([{ field: 'dropoff_place_id', detail: 'No place with this id is visible to you.', code: 'unknown_reference' }]);
    expect(outcomes[2]!.errors).toEqual([{ field: null, detail: 'Service stop limit reached.', code: 'stop_limit_reached' }]);
  });

  it('fails a row the page refused without sending it', async () => {
    const sent: string[] = [];
    const send: Send = async (items) => {
      sent.push(...items.map((item) => item.idempotency_key));
      return items.map((_, i) => ok(i));
    };
    const outcomes = await runImport(rowsOf(3, 'many'), (row) => `k-${row.number}`, false, send, () => undefined, noWait);
    expect(sent).toEqual(['k-2', 'k-3']);
    expect(outcomes[0]).toMatchObject({ status: 'failed', errors: [{ field: 'package_count', detail: null, code: 'not_a_count', value: 'many' }] });
  });

  it('counts a row whose external id another booking holds (409 external_id_exists) as already imported, with that booking', async () => {
    const send: Send = async (items) =>
      items.map((_, i) => (i === 0 ? { index: i, status: 409, replayed: false, booking: null, error: { ...problem(409, 'external_id_exists', 'An open booking has this external id.')!, booking_id: 'b-1' } } : ok(i)));
    const outcomes = await runImport(rowsOf(2), (row) => `k-${row.number}`, false, send, () => undefined, noWait);
    expect(outcomes.map((o) => [o.status, o.bookingId])).toEqual([['replayed', 'b-1'], ['created', undefined]]);
    expect(summarize(outcomes)).toEqual({ ready: 0, created: 1, replayed: 1, failed: 0 });
  });

  it('sends again only the items still in flight elsewhere, after a wait, and a chunk refused by the rate limit', async () => {
    const calls: string[][] = [];
    const waits: number[] = [];
    let refused = false;
    const send: Send = async (items) => {
      if (!refused) {
        refused = true;
        throw new ApiError(429, { error_code: 'rate_limited', detail: 'Too many requests.' });
      }
      calls.push(items.map((item) => item.idempotency_key));
      return items.map((item, i) =>
        calls.length === 1 && item.idempotency_key === 'k-2'
          ? { index: i, status: 409, replayed: false, booking: null, error: problem(409, 'idempotency_key_in_use', 'in use') }
          : ok(i, calls.length > 1),
      );
    };
    const outcomes = await runImport(rowsOf(3), (row) => `k-${row.number}`, false, send, () => undefined, async (ms) => void waits.push(ms));
    expect(calls).toEqual([['k-1', 'k-2', 'k-3'], ['k-2']]);
    expect(waits).toHaveLength(2);
    expect(outcomes.map((o) => o.status)).toEqual(['created', 'replayed', 'created']);
  });

  it('gives up on an item still in flight after five tries and fails it with the API\'s words', async () => {
    let calls = 0;
    const send: Send = async (items) => {
      calls++;
      return items.map((_, i) => ({ index: i, status: 409, replayed: false, booking: null, error: problem(409, 'idempotency_key_in_use', 'A request with this key is in progress.') }));
    };
    const outcomes = await runImport(rowsOf(1), () => 'k', false, send, () => undefined, noWait);
    expect(calls).toBe(5);
    expect(outcomes[0]).toMatchObject({ status: 'failed', errors: [{ field: null, code: 'idempotency_key_in_use' }] });
  });

  it('stops at an error that waiting does not change', async () => {
    const send: Send = async () => {
      throw new ApiError(403, { error_code: 'forbidden', detail: 'Not allowed.' });
    };
    await expect(runImport(rowsOf(2), () => 'k', false, send, () => undefined, noWait)).rejects.toMatchObject({ status: 403 });
  });
});
