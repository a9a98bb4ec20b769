import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { failedRowsCsv, fieldOfPointer, fileHash, guessMapping, missingFields, parseCsv, rowKey, toBooking, toImportRows, type Mapping } from './csv.ts';

const SERVICE = '0190a6c4-7a3b-7c3e-8f00-00000000000a';

describe('parseCsv', () => {
  it('reads comma-separated rows with quoted cells holding separators, quotes and line breaks', () => {
    const parsed = parseCsv('external_id,notes\r\nA-1,"Ring twice, then wait"\r\nA-2,"Say ""hello""\nat the door"\r\n');
    expect(parsed.headers).toEqual(['external_id', 'notes']);
    expect(parsed.rows).toEqual([
      ['A-1', 'Ring twice, then wait'],
      ['A-2', 'Say "hello"\nat the door'],
    ]);
  });

  it('reads semicolon-separated files as German spreadsheets save them, with a byte order mark', () => {
    const parsed = parseCsv('\ufeffexternal_id;pickup_place_id;dropoff_place_id\nB-1;p1;p2\nB-2;"p;3";p4\n');
    expect(parsed.headers).toEqual(['external_id', 'pickup_place_id', 'dropoff_place_id']);
    expect(parsed.rows).toEqual([
      ['B-1', 'p1', 'p2'],
      ['B-2', 'p;3', 'p4'],
    ]);
  });

  it('leaves out empty and blank lines and pads short rows to the header', () => {
    const parsed = parseCsv('a,b,c\n\n1,2,3\n   \n4\n,,\n');
    expect(parsed.rows).toEqual([
      ['1', '2', '3'],
      ['4', '', ''],
    ]);
  });

  it('keeps extra cells beyond the header and trims header names', () => {
    const parsed = parseCsv(' external_id , pickup_place_id \nX,p1,extra\n');
    expect(parsed.headers).toEqual(['external_id', 'pickup_place_id']);
    expect(parsed.rows).toEqual([['X', 'p1', 'extra']]);
  });

  it('answers no headers and no rows for an empty file', () => {
    expect(parseCsv('')).toEqual({ headers: [], rows: [] });
  });
});

describe('guessMapping', () => {
  it('maps the contract columns by their names, ignoring case, spaces and separators', () => {
    const mapping = guessMapping(['Dropoff Place ID', 'EXTERNAL_ID', 'pickup-place-id', 'Comment', 'unrelated']);
    expect(mapping).toMatchObject({ external_id: 1, pickup_place_id: 2, dropoff_place_id: 0, notes: 3, package_count: null });
    expect(missingFields(mapping)).toEqual([]);
  });

  it('guesses from German and short names and never maps one column twice', () => {
    expect(guessMapping(['Referenz', 'Abholort', 'Zustellort', 'Pakete'])).toMatchObject({ external_id: 0, pickup_place_id: 1, dropoff_place_id: 2, package_count: 3 });
    const twice = guessMapping(['pickup', 'pickup']);
    expect(twice.pickup_place_id).toBe(0);
    expect(Object.values(twice).filter((v) => v === 0)).toHaveLength(1);
  });

  it('names the required columns a file lacks', () => {
    expect(missingFields(guessMapping(['external_id', 'notes']))).toEqual(['pickup_place_id', 'dropoff_place_id']);
  });
});

describe('toBooking', () => {
  const headers = ['external_id', 'pickup_place_id', 'dropoff_place_id', 'pickup_starts_at', 'pickup_ends_at', 'dropoff_starts_at', 'dropoff_ends_at', 'notes', 'package_count'];
  const mapping = guessMapping(headers);

  it('builds a pickup and a drop-off from places, with time windows, notes on the drop-off and packages between them', () => {
    const { booking, problems } = toBooking(['E-1', 'p1', 'p2', '2026-12-01T09:00:00Z', '2026-12-01T10:00:00Z', '', '', 'Back door', '2'], mapping, SERVICE);
    expect(problems).toEqual([]);
    expect(booking).toEqual({
      service_id: SERVICE,
      external_id: 'E-1',
      stops: [
        { type: 'pickup', place_id: 'p1', time_window: { starts_at: '2026-12-01T09:00:00Z', ends_at: '2026-12-01T10:00:00Z' } },
        { type: 'dropoff', place_id: 'p2', notes: 'Back door' },
      ],
      packages: [
        { pickup_stop_index: 0, dropoff_stop_index: 1 },
        { pickup_stop_index: 0, dropoff_stop_index: 1 },
      ],
    });
  });

  it('leaves out empty cells so the API names what is missing, and sends one end of a window for the API to refuse', () => {
    const { booking } = toBooking(['', '', 'p2', '', '', '2026-12-01T09:00:00Z', '', '', '0'], mapping, SERVICE);
    expect(booking).toEqual({ service_id: SERVICE, stops: [{ type: 'pickup' }, { type: 'dropoff', place_id: 'p2', time_window: { starts_at: '2026-12-01T09:00:00Z', ends_at: '' } }] });
  });

  it('refuses a package count that is not a whole number up to 99 at its column', () => {
    for (const count of ['two', '-1', '1.5', '100']) {
      const { booking, problems } = toBooking(['E', 'p1', 'p2', '', '', '', '', '', count], mapping, SERVICE);
      expect(problems).toEqual([{ field: 'package_count', code: 'not_a_count' }]);
      expect(booking.packages).toBeUndefined();
    }
  });

  it('ignores unmapped fields and numbers rows from 1', () => {
    const only: Mapping = { ...guessMapping([]), pickup_place_id: 0, dropoff_place_id: 1 };
    const rows = toImportRows({ headers: ['a', 'b', 'c'], rows: [['p1', 'p2', 'x']] }, only, SERVICE);
    expect(rows).toEqual([{ number: 1, cells: ['p1', 'p2', 'x'], problems: [], booking: { service_id: SERVICE, stops: [{ type: 'pickup', place_id: 'p1' }, { type: 'dropoff', place_id: 'p2' }] } }]);
  });
});

describe('fieldOfPointer', () => {
  it.each([
    ['/booking/external_id', 'external_id'],
    ['/booking/stops/0', 'pickup_place_id'],
    ['/booking/stops/0/place_id', 'pickup_place_id'],
    ['/booking/stops/1/place_id', 'dropoff_place_id'],
    ['/booking/stops/0/time_window/starts_at', 'pickup_starts_at'],
    ['/booking/stops/1/time_window/ends_at', 'dropoff_ends_at'],
    ['/booking/stops/1/time_window', 'dropoff_starts_at'],
    ['/booking/stops/1/notes', 'notes'],
    ['/booking/packages/0/external_label', 'package_count'],
    ['/booking/service_id', null],
    ['/booking/stops', null],
    ['/booking', null],
    ['', null],
  ])('puts an error at %s in the column %s', (pointer, field) => {
    expect(fieldOfPointer(pointer)).toBe(field);
  });
});

describe('keys and the failed rows', () => {
  it('derives the same key for the same file and row, and another for another file', async () => {
    const a = await fileHash(new TextEncoder().encode('a,b\n1,2\n'));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await fileHash(new TextEncoder().encode('a,b\n1,2\n'))).toBe(a);
    expect(await fileHash(new TextEncoder().encode('a,b\n1,3\n'))).not.toBe(a);
    expect(rowKey(a, 7)).toBe(`csv-${a}-row-7`);
    expect(rowKey(a, 7).length).toBeLessThanOrEqual(255);
  });

  it('writes the failed rows with their reason as a CSV that reads back the same', () => {
    const text = failedRowsCsv(['external_id', 'notes'], [{ cells: ['X-1', 'a, "quoted" note'], reason: 'Pickup place: No place with this id is visible to you.' }]);
    expect(text.startsWith('\ufeff')).toBe(true);
    const back = parseCsv(text);
    expect(back.headers).toEqual(['external_id', 'notes', 'import_error']);
    expect(back.rows).toEqual([['X-1', 'a, "quoted" note', 'Pickup place: No place with this id is visible to you.']]);
  });
});

describe('a large file', () => {
  it('parses, maps and builds 10,000 rows well within the test timeout', { timeout: 10_000 }, () => {
    const data = Array.from({ length: 10_000 }, (_, i) => [`BIG-${i}`, `pickup-${i}`, `dropoff-${i}`, 'a note; with "quotes"', '1']);
    const text = Papa.unparse({ fields: ['external_id', 'pickup_place_id', 'dropoff_place_id', 'notes', 'package_count'], data }, { delimiter: ';' });
    const parsed = parseCsv(text);
    const rows = toImportRows(parsed, guessMapping(parsed.headers), SERVICE);
    expect(rows).toHaveLength(10_000);
    expect(rows[9_999]!.booking.external_id).toBe('BIG-9999');
    expect(rows.every((r) => r.problems.length === 0)).toBe(true);
  });
});
