// The CSV import's reading part: a file's text → headers and rows with every parse problem at its row (nothing is
// imported from a file that was not read cleanly, decision 1580), and the columns guessed for each field from common
// English and German header names or Shopify's order export (contract §14, "Console import"; docs/console.md).
import Papa from 'papaparse';
// The client's types directly: the browser tests import this module under the server's tsconfig (no DOM).
import type { Schemas } from '../../../../../clients/typescript/src/index.ts';
import { toCsv } from '../../../../ui/csv.ts';

export type BookingCreate = Schemas['BookingCreate'];

/** The fields a column can fill; the service (and, without a pickup column, the pickup place) apply to every row. */
export const IMPORT_FIELDS = [
  'external_id',
  'pickup_place_id',
  'dropoff_place_id',
  'name',
  'address',
  'street',
  'number',
  'additional_line',
  'zip_code',
  'city',
  'country',
  'lat',
  'lng',
  'phone',
  'email',
  'locale',
  'date',
  'dropoff_starts_at',
  'dropoff_ends_at',
  'pickup_starts_at',
  'pickup_ends_at',
  'notes',
  'package_count',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** Column index per field (null: not mapped). */
export type Mapping = Record<ImportField, number | null>;

export type ParseCode = 'unterminated_quote' | 'malformed_quote' | 'too_many_fields' | 'too_few_fields';

/** A place where the parser did not read the file cleanly: the row (1-based among data rows; 0 the header). */
export interface ParseProblem {
  row: number;
  code: ParseCode;
}

export interface ParsedCsv {
  headers: string[];
  /** The data rows (blank lines left out), each as read; a row of another width is named in `problems`. */
  rows: string[][];
  /** Empty when the file was read cleanly; otherwise nothing may be imported from it. */
  problems: ParseProblem[];
}

const isBlank = (row: string[]) => row.every((cell) => cell.trim() === '');

export function parseCsv(text: string): ParsedCsv {
  // Spreadsheets save UTF-8 with a byte order mark; it would stick to the first header.
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // Papa guesses the separator (',' or ';' — German spreadsheets write ';') from the first rows, blank ones skipped.
  // The file itself is then parsed with blank lines kept (they are left out below), so that the rows Papa's errors
  // name stay indexes into `data`.
  const delimiter = Papa.parse<string[]>(input, { preview: 20, skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] }).meta.delimiter;
  const result = Papa.parse<string[]>(input, { delimiter });
  const dataRow = new Map<number, number>();
  const kept: string[][] = [];
  result.data.forEach((row, index) => {
    if (index > 0 && isBlank(row)) return;
    dataRow.set(index, kept.length);
    kept.push(row);
  });
  const [head = [], ...rows] = kept;
  const headers = head.map((h) => h.trim());
  const problems: ParseProblem[] = [];
  for (const error of result.errors) {
    // A file of one column has no separator to detect: that is not a reading problem.
    if (error.type !== 'Quotes' || error.row === undefined) continue;
    const row = dataRow.get(error.row) ?? kept.length - 1;
    const code: ParseCode = error.code === 'MissingQuotes' ? 'unterminated_quote' : 'malformed_quote';
    if (!problems.some((p) => p.row === row && p.code === code)) problems.push({ row, code });
  }
  rows.forEach((row, i) => {
    if (row.length === headers.length || problems.some((p) => p.row === i + 1)) return;
    problems.push({ row: i + 1, code: row.length > headers.length ? 'too_many_fields' : 'too_few_fields' });
  });
  problems.sort((a, b) => a.row - b.row);
  return { headers, rows, problems };
}

/** Header names compare without case, accents, spaces or punctuation ("E-Mail" = "email", "Straße" = "strasse"). */
export const normalizeHeader = (header: string): string =>
  header
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, '');

// Header names each field is guessed from (normalized as above), English then German; first match wins.
const ALIASES: Record<ImportField, string[]> = {
  external_id: ['externalid', 'order', 'orderid', 'ordernumber', 'orderno', 'reference', 'ref', 'external', 'bestellnummer', 'bestellung', 'auftragsnummer', 'auftrag', 'referenz', 'externeid'],
  pickup_place_id: ['pickupplaceid', 'pickupplace', 'pickup', 'fromplaceid', 'abholortid', 'abholort', 'abholung'],
  dropoff_place_id: ['dropoffplaceid', 'dropoffplace', 'toplaceid', 'deliveryplaceid', 'zustellortid', 'zustellort'],
  name: ['name', 'recipient', 'recipientname', 'customer', 'customername', 'contact', 'contactname', 'shippingname', 'empfanger', 'empfaenger', 'empfangername', 'kunde', 'kundenname'],
  address: ['address', 'fulladdress', 'deliveryaddress', 'shippingaddress', 'adresse', 'anschrift', 'lieferadresse', 'zustelladresse'],
  street: ['street', 'streetaddress', 'address1', 'addressline1', 'strasse', 'strasseundhausnummer'],
  number: ['housenumber', 'number', 'houseno', 'streetnumber', 'no', 'nr', 'hausnummer', 'hausnr'],
  additional_line: ['address2', 'addressline2', 'additionaladdress', 'adresszusatz', 'zusatz'],
  zip_code: ['zip', 'zipcode', 'postcode', 'postalcode', 'postal', 'plz', 'postleitzahl'],
  city: ['city', 'town', 'ort', 'stadt', 'wohnort'],
  country: ['country', 'countrycode', 'land', 'landercode'],
  lat: ['lat', 'latitude', 'breite', 'breitengrad'],
  lng: ['lng', 'lon', 'long', 'longitude', 'lange', 'langengrad'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile', 'telefon', 'telefonnummer', 'handy', 'mobil'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse'],
  locale: ['language', 'locale', 'lang', 'sprache'],
  date: ['date', 'deliverydate', 'day', 'datum', 'lieferdatum', 'liefertag', 'tag'],
  dropoff_starts_at: ['dropoffstartsat', 'dropoffstart', 'dropofffrom', 'dropoffwindowstart', 'windowfrom', 'windowstart', 'from', 'deliveryfrom', 'zeitfenstervon', 'zeitfensterbeginn', 'von', 'lieferungab'],
  dropoff_ends_at: ['dropoffendsat', 'dropoffend', 'dropoffuntil', 'dropoffwindowend', 'windowto', 'windowend', 'to', 'until', 'deliveryuntil', 'zeitfensterbis', 'zeitfensterende', 'bis', 'lieferungbis'],
  pickup_starts_at: ['pickupstartsat', 'pickupstart', 'pickupfrom', 'pickupwindowstart', 'abholungvon'],
  pickup_ends_at: ['pickupendsat', 'pickupend', 'pickupuntil', 'pickupwindowend', 'abholungbis'],
  notes: ['notes', 'note', 'dropoffnotes', 'comment', 'comments', 'instructions', 'hinweis', 'hinweise', 'notiz', 'bemerkung', 'bemerkungen', 'anmerkung'],
  package_count: ['packagecount', 'packages', 'package', 'parcels', 'parcel', 'quantity', 'qty', 'pakete', 'paket', 'anzahlpakete', 'anzahl', 'menge', 'stuck'],
};

/**
 * Shopify's order export (help.shopify.com, "Exporting orders"): the columns it is told by, and which of them fill
 * which field. `Shipping Address1` holds street and number; `Name` is the order ("#1042"), the external id as written.
 */
const SHOPIFY_SIGNATURE = ['name', 'lineitemquantity', 'shippingaddress1'];
const SHOPIFY: Partial<Record<ImportField, string>> = {
  external_id: 'name',
  name: 'shippingname',
  email: 'email',
  street: 'shippingaddress1',
  additional_line: 'shippingaddress2',
  zip_code: 'shippingzip',
  city: 'shippingcity',
  country: 'shippingcountry',
  phone: 'shippingphone',
  notes: 'notes',
  package_count: 'lineitemquantity',
};

export const isShopifyExport = (headers: string[]): boolean => {
  const names = new Set(headers.map(normalizeHeader));
  return SHOPIFY_SIGNATURE.every((h) => names.has(h));
};

export const emptyMapping = (): Mapping => Object.fromEntries(IMPORT_FIELDS.map((f) => [f, null])) as Mapping;

/** Each field from the first header named like it; a header fills one field at most. */
export function guessMapping(headers: string[]): Mapping {
  const normalized = headers.map(normalizeHeader);
  const mapping = emptyMapping();
  if (isShopifyExport(headers)) {
    for (const [field, header] of Object.entries(SHOPIFY) as [ImportField, string][]) {
      const index = normalized.indexOf(header);
      if (index >= 0) mapping[field] = index;
    }
    return mapping;
  }
  const taken = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    for (const alias of [normalizeHeader(field), ...ALIASES[field]]) {
      const index = normalized.findIndex((h, i) => !taken.has(i) && h === alias);
      if (index >= 0) {
        mapping[field] = index;
        taken.add(index);
        break;
      }
    }
  }
  // A street column that holds the number too ("Straße und Hausnummer") is split when rows are read.
  return mapping;
}

/** What the drop-off needs: a place id column, or an address (one line, or a street and a city). */
export function missingFields(mapping: Mapping): ImportField[] {
  if (mapping.dropoff_place_id !== null || mapping.address !== null) return [];
  return (['street', 'city'] as const).filter((f) => mapping[f] === null);
}

/** The idempotency key of a row: the same file imports under the same keys, also after a reload (decision 1030). */
export const rowKey = (fileHash: string, rowNumber: number): string => `csv-${fileHash}-row-${rowNumber}`;

/** SHA-256 of the file's bytes, hex, shortened to 128 bits (plenty to tell files apart). */
export async function fileHash(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest.slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The failed rows as they were in the file, with one more column saying why each failed (formula cells made safe). */
export function failedRowsCsv(headers: string[], failed: { cells: string[]; reason: string }[]): string {
  const reasonHeader = headers.includes('import_error') ? 'import_error_2' : 'import_error';
  return toCsv([...headers, reasonHeader], failed.map((f) => [...f.cells.slice(0, headers.length), ...Array<string>(Math.max(0, headers.length - f.cells.length)).fill(''), f.reason]));
}
