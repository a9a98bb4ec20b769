// The CSV import's pure part: a file's text → headers and rows, the columns guessed for each booking field, rows →
// booking bodies for the bulk create, the API's error pointers → the column they concern, and the failed rows as a CSV.
import Papa from 'papaparse';
// The client's types directly: the browser tests import this module under the server's tsconfig (no DOM).
import type { Schemas } from '../../../../../clients/typescript/src/index.ts';

export type BookingCreate = Schemas['BookingCreate'];

/** The booking fields a column can fill; a service chosen in the page applies to every row. */
export const IMPORT_FIELDS = [
  'external_id',
  'pickup_place_id',
  'dropoff_place_id',
  'pickup_starts_at',
  'pickup_ends_at',
  'dropoff_starts_at',
  'dropoff_ends_at',
  'notes',
  'package_count',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** A booking needs both places; every other field may stay unmapped. */
export const REQUIRED_FIELDS: readonly ImportField[] = ['pickup_place_id', 'dropoff_place_id'];

/** Column index per field (null: not mapped). */
export type Mapping = Record<ImportField, number | null>;

export interface ParsedCsv {
  headers: string[];
  /** The data rows (empty lines left out), each as long as the header (missing cells are ''). */
  rows: string[][];
}

/** What a row holds that cannot be sent at all (the API validates the rest). */
export interface RowProblem {
  field: ImportField;
  code: 'not_a_count';
}

export interface ImportRow {
  /** 1-based number among the file's data rows: the key and the messages use it. */
  number: number;
  cells: string[];
  booking: BookingCreate;
  problems: RowProblem[];
}

/** Packages per row: more is surely a wrong column, and every package is a row in the booking's answer. */
export const MAX_PACKAGES = 99;

// Header names each field is guessed from, compared without case, spaces, dashes or underscores.
const ALIASES: Record<ImportField, string[]> = {
  external_id: ['externalid', 'external', 'reference', 'ref', 'orderid', 'order', 'referenz', 'externeid', 'bestellnummer'],
  pickup_place_id: ['pickupplaceid', 'pickupplace', 'pickup', 'from', 'fromplaceid', 'abholort', 'abholung', 'von'],
  dropoff_place_id: ['dropoffplaceid', 'dropoffplace', 'dropoff', 'to', 'toplaceid', 'deliveryplaceid', 'zustellort', 'zustellung', 'nach'],
  pickup_starts_at: ['pickupstartsat', 'pickupstart', 'pickupfrom', 'pickupwindowstart'],
  pickup_ends_at: ['pickupendsat', 'pickupend', 'pickupuntil', 'pickupwindowend'],
  dropoff_starts_at: ['dropoffstartsat', 'dropoffstart', 'dropofffrom', 'dropoffwindowstart'],
  dropoff_ends_at: ['dropoffendsat', 'dropoffend', 'dropoffuntil', 'dropoffwindowend'],
  notes: ['notes', 'note', 'dropoffnotes', 'comment', 'hinweis', 'notiz', 'bemerkung'],
  package_count: ['packagecount', 'packages', 'package', 'parcels', 'pakete', 'anzahlpakete'],
};

const normalize = (header: string): string => header.toLowerCase().replace(/[\s_\-.]+/g, '');

export function parseCsv(text: string): ParsedCsv {
  // Spreadsheets save UTF-8 with a byte order mark; it would stick to the first header.
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Papa guesses the separator (',' or ';' — German spreadsheets write ';') from the first rows.
  const result = Papa.parse<string[]>(input, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] });
  const [head = [], ...body] = result.data;
  const headers = head.map((h) => h.trim());
  const width = headers.length;
  const rows = body.map((row) => (row.length >= width ? row : [...row, ...Array<string>(width - row.length).fill('')]));
  return { headers, rows };
}

/** Each field from the first header named like it; a header fills one field at most. */
export function guessMapping(headers: string[]): Mapping {
  const taken = new Set<number>();
  const mapping = Object.fromEntries(IMPORT_FIELDS.map((f) => [f, null])) as Mapping;
  for (const field of IMPORT_FIELDS) {
    for (const alias of [normalize(field), ...ALIASES[field]]) {
      const index = headers.findIndex((h, i) => !taken.has(i) && normalize(h) === alias);
      if (index >= 0) {
        mapping[field] = index;
        taken.add(index);
        break;
      }
    }
  }
  return mapping;
}

export const missingFields = (mapping: Mapping): ImportField[] => REQUIRED_FIELDS.filter((f) => mapping[f] === null);

/**
 * A row as the single create's body: the pickup (stop 0) and drop-off (stop 1) from their places, time windows when
 * both ends are given (one end alone is sent too, so the API names what is missing), notes on the drop-off, and
 * `package_count` packages carried from the pickup to the drop-off. Empty cells are left out.
 */
export function toBooking(cells: string[], mapping: Mapping, serviceId: string): { booking: BookingCreate; problems: RowProblem[] } {
  const cell = (field: ImportField): string => {
    const index = mapping[field];
    return index === null ? '' : (cells[index] ?? '').trim();
  };
  const problems: RowProblem[] = [];
  const stop = (type: 'pickup' | 'dropoff') => {
    const placeId = cell(`${type}_place_id`);
    const startsAt = cell(`${type}_starts_at`);
    const endsAt = cell(`${type}_ends_at`);
    return {
      type,
      ...(placeId ? { place_id: placeId } : {}),
      ...(startsAt || endsAt ? { time_window: { starts_at: startsAt, ends_at: endsAt } } : {}),
    };
  };
  const notes = cell('notes');
  const stops = [stop('pickup'), { ...stop('dropoff'), ...(notes ? { notes } : {}) }];
  const externalId = cell('external_id');
  const countText = cell('package_count');
  let packages: BookingCreate['packages'];
  if (countText) {
    const count = /^\d+$/.test(countText) ? Number(countText) : NaN;
    if (Number.isInteger(count) && count <= MAX_PACKAGES) packages = Array.from({ length: count }, () => ({ pickup_stop_index: 0, dropoff_stop_index: 1 }));
    else problems.push({ field: 'package_count', code: 'not_a_count' });
  }
  const booking: BookingCreate = {
    service_id: serviceId,
    ...(externalId ? { external_id: externalId } : {}),
    stops,
    ...(packages?.length ? { packages } : {}),
  };
  return { booking, problems };
}

export function toImportRows(parsed: ParsedCsv, mapping: Mapping, serviceId: string): ImportRow[] {
  return parsed.rows.map((cells, i) => ({ number: i + 1, cells, ...toBooking(cells, mapping, serviceId) }));
}

/**
 * The column an API error pointer (relative to the item: `/booking/stops/0/place_id`) concerns, or null when it
 * concerns the booking as a whole (the service, a stop limit). Stop 0 is the pickup, stop 1 the drop-off.
 */
export function fieldOfPointer(pointer: string): ImportField | null {
  const parts = pointer.split('/').slice(1);
  if (parts[0] !== 'booking') return null;
  if (parts[1] === 'external_id') return 'external_id';
  if (parts[1] === 'packages') return 'package_count';
  if (parts[1] !== 'stops') return null;
  const kind = parts[2] === '0' ? 'pickup' : parts[2] === '1' ? 'dropoff' : null;
  if (!kind) return null;
  if (parts[3] === 'time_window') return parts[4] === 'ends_at' ? `${kind}_ends_at` : `${kind}_starts_at`;
  if (parts[3] === 'notes') return 'notes';
  return `${kind}_place_id`;
}

/** The idempotency key of a row: the same file imports under the same keys, also after a reload (decision 1030). */
export const rowKey = (fileHash: string, rowNumber: number): string => `csv-${fileHash}-row-${rowNumber}`;

/** SHA-256 of the file's bytes, hex, shortened to 128 bits (plenty to tell files apart). */
export async function fileHash(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The failed rows as they were in the file, with one more column saying why each failed. */
export function failedRowsCsv(headers: string[], failed: { cells: string[]; reason: string }[]): string {
  const reasonHeader = headers.includes('import_error') ? 'import_error_2' : 'import_error';
  // A leading BOM so spreadsheets open it as UTF-8; ',' and CRLF as RFC 4180 writes it.
  return `\ufeff${Papa.unparse({ fields: [...headers, reasonHeader], data: failed.map((f) => [...f.cells.slice(0, headers.length), f.reason]) }, { newline: '\r\n' })}\r\n`;
}
