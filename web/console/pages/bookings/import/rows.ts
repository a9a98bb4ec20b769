// The file's rows → the bookings to create, with every problem the page can see before asking the server, at its
// column: a count that is not a number, an e-mail that is not one, a window that ends before it starts, an order
// twice in the file. Shopify's rows that share `Name` are one order: its first row carries the address, the
// quantities add up into the package count (contract §14). The address goes to the server as it is (address-only
// stops: the server geocodes and remembers the place); a pinned address goes as the place made for it.
import { addressKey, splitStreetLine } from '../../../../../src/shared/address.ts';
import { isShopifyExport, type BookingCreate, type ImportField, type Mapping, type ParsedCsv } from './csv.ts';
import { readTime } from './local-time.ts';

/** Packages per booking: more is surely a wrong column, and every package is a row in the booking's answer. */
export const MAX_PACKAGES = 99;

export type RowCode =
  | 'not_a_count'
  | 'not_an_email'
  | 'window_reversed'
  | 'not_a_time'
  | 'needs_date'
  | 'not_a_coordinate'
  | 'no_dropoff'
  | 'no_city'
  | 'no_pickup'
  | 'unknown_locale'
  | 'duplicate_in_file'
  | 'address_not_found'
  | 'geocode_failed'
  | 'too_long';

/** What a row holds that the page refuses itself; `value` is the cell as written, `other` a row it refers to. */
export interface RowProblem {
  field: ImportField | null;
  code: RowCode;
  value?: string;
  other?: number;
  /** Where an address was looked for (its city), for "no street 'Rue Inconnue' in Monaco". */
  where?: string;
}

export interface StopAddress {
  street: string;
  number?: string;
  zip_code?: string;
  city: string;
  country?: string;
  additional_line?: string;
}

export interface ImportRow {
  /** 1-based number among the file's data rows (a Shopify order: its first row): the key and the messages use it. */
  number: number;
  /** Every data row the booking comes from (several for a Shopify order with several line items). */
  rows: number[];
  cells: string[];
  externalId: string | null;
  /** The drop-off's address when it is given by address; null with a place id or nothing. */
  address: StopAddress | null;
  /** The normalized address (the geocode's and the pins' key); null without an address. */
  key: string | null;
  /** True when the row gives its own coordinates (stored as given, not geocoded). */
  located: boolean;
  booking: BookingCreate;
  problems: RowProblem[];
}

export interface RowOptions {
  serviceId: string;
  /** The place chosen in "Pickup place for all rows"; used when no pickup column is mapped. */
  pickupPlaceId: string;
  /** The service area's IANA zone: window times without a zone are its local time. */
  timeZone: string;
  /** Places made from pins, by address key: such a row's drop-off is that place. */
  pins?: ReadonlyMap<string, string>;
}

/**
 * The API's longest cells (contract §5: notes 2,000 characters, other texts 200; external ids 255). A longer cell is
 * the row's problem here, before a bulk body of megabytes meets the server's body limit and fails every row with it.
 */
const LIMITS: Partial<Record<ImportField, number>> = { notes: 2000, external_id: 255, email: 320, phone: 50, number: 50, zip_code: 20, country: 100 };
const DEFAULT_LIMIT = 200;
const UNLIMITED: readonly ImportField[] = ['package_count', 'lat', 'lng', 'date', 'dropoff_starts_at', 'dropoff_ends_at', 'pickup_starts_at', 'pickup_ends_at', 'locale', 'address'];

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const COORDINATE = /^-?\d{1,3}(?:[.,]\d+)?$/;
const LOCALES: Record<string, 'en' | 'de'> = { en: 'en', english: 'en', englisch: 'en', de: 'de', german: 'de', deutsch: 'de' };

/** "de-DE", "Deutsch", "EN" → the locale the messages are written in; null when it is none of them. */
export function readLocale(text: string): 'en' | 'de' | null {
  const value = text.trim().toLowerCase();
  return LOCALES[value] ?? LOCALES[value.split(/[-_]/)[0]!] ?? null;
}

/** A one-line address: "Boulevard des Moulins 12, 98000 Monaco" or "12 Rue Grimaldi, Monaco, MC". */
export function splitAddressLine(line: string): Partial<StopAddress> {
  const parts = line.split(',').map((p) => p.trim()).filter(Boolean);
  const first = parts.shift() ?? '';
  const { street, number } = splitStreetLine(first);
  const out: Partial<StopAddress> = { street, ...(number ? { number } : {}) };
  for (const part of parts) {
    const zipCity = /^(?:[A-Z]{1,2}-)?(\d{4,5})\s+(.+)$/.exec(part);
    if (zipCity && !out.city) Object.assign(out, { zip_code: zipCity[1], city: zipCity[2] });
    else if (/^\d{4,5}$/.test(part) && !out.zip_code) out.zip_code = part;
    else if (!out.city) out.city = part;
    else if (!out.country) out.country = part;
  }
  return out;
}

/** The text asked of `GET /api/geocode` for an address. */
export const geocodeQuery = (a: StopAddress): string => [[a.street, a.number].filter(Boolean).join(' '), [a.zip_code, a.city].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ');

type Cell = (field: ImportField) => string;

function readAddress(cell: Cell, problems: RowProblem[]): StopAddress | null {
  const line = cell('address');
  const parts: Partial<StopAddress> = line ? splitAddressLine(line) : {};
  const street = cell('street');
  if (street) {
    const split = cell('number') ? { street, number: cell('number') } : splitStreetLine(street);
    parts.street = split.street;
    if (split.number) parts.number = split.number;
  }
  // Spreadsheets (and Shopify) write postcodes as text with a leading "'" to keep their zeros.
  const zip = cell('zip_code').replace(/^'/, '');
  if (zip) parts.zip_code = zip;
  if (cell('city')) parts.city = cell('city');
  if (cell('country')) parts.country = cell('country');
  if (cell('additional_line')) parts.additional_line = cell('additional_line');
  if (!parts.street) return null;
  if (!parts.city) {
    problems.push({ field: 'city', code: 'no_city' });
    return null;
  }
  return parts as StopAddress;
}

function readWindow(cell: Cell, kind: 'pickup' | 'dropoff', timeZone: string, problems: RowProblem[]) {
  const startField = `${kind}_starts_at` as const;
  const endField = `${kind}_ends_at` as const;
  const startText = cell(startField);
  const endText = cell(endField);
  if (!startText && !endText) return undefined;
  const read = (text: string, field: ImportField): string => {
    if (!text) return '';
    const result = readTime(text, cell('date'), timeZone);
    if ('at' in result) return result.at;
    problems.push({ field, code: result.problem, value: text });
    return text;
  };
  const starts_at = read(startText, startField);
  const ends_at = read(endText, endField);
  if (starts_at && ends_at && !Number.isNaN(Date.parse(starts_at)) && !Number.isNaN(Date.parse(ends_at)) && Date.parse(ends_at) <= Date.parse(starts_at)) {
    problems.push({ field: endField, code: 'window_reversed' });
  }
  // One end alone is sent too, so the API names what is missing.
  return { starts_at, ends_at };
}

function readCount(text: string, problems: RowProblem[]): number | null {
  if (!text) return null;
  if (/^\d+$/.test(text) && Number(text) <= MAX_PACKAGES) return Number(text);
  problems.push({ field: 'package_count', code: 'not_a_count', value: text });
  return null;
}

/** One booking from a row (and, for a Shopify order, the counts of its further rows). */
export function toBooking(cells: string[], mapping: Mapping, options: RowOptions, extraCounts: string[] = []): Omit<ImportRow, 'number' | 'rows' | 'cells'> {
  const cell: Cell = (field) => {
    const index = mapping[field];
    return index === null ? '' : (cells[index] ?? '').trim();
  };
  const problems: RowProblem[] = [];
  for (const field of Object.keys(mapping) as ImportField[]) {
    const limit = LIMITS[field] ?? DEFAULT_LIMIT;
    const length = cell(field).length;
    // Unlimited fields are read (and refused) for what they say; a one-line address is split before its parts are sent.
    if (length > (UNLIMITED.includes(field) ? 2000 : limit)) problems.push({ field, code: 'too_long', value: String(UNLIMITED.includes(field) ? 2000 : limit) });
  }
  if (problems.length) return { externalId: cell('external_id').slice(0, 255) || null, address: null, key: null, located: false, booking: { service_id: options.serviceId, stops: [] }, problems };
  const pickupPlace = mapping.pickup_place_id === null ? options.pickupPlaceId : cell('pickup_place_id');
  if (!pickupPlace && mapping.pickup_place_id !== null) problems.push({ field: 'pickup_place_id', code: 'no_pickup' });

  const dropoffPlace = cell('dropoff_place_id');
  const address = dropoffPlace ? null : readAddress(cell, problems);
  const key = address ? addressKey(address) : null;
  const pinned = key ? options.pins?.get(key) : undefined;
  let location: { lat: number; lng: number } | null = null;
  const latText = cell('lat');
  const lngText = cell('lng');
  if (latText || lngText) {
    const lat = COORDINATE.test(latText) ? Number(latText.replace(',', '.')) : NaN;
    const lng = COORDINATE.test(lngText) ? Number(lngText.replace(',', '.')) : NaN;
    if (!(Math.abs(lat) <= 90)) problems.push({ field: 'lat', code: 'not_a_coordinate', value: latText });
    if (!(Math.abs(lng) <= 180)) problems.push({ field: 'lng', code: 'not_a_coordinate', value: lngText });
    if (Math.abs(lat) <= 90 && Math.abs(lng) <= 180) location = { lat, lng };
  }
  if (!dropoffPlace && !address && !problems.some((p) => p.code === 'no_city')) problems.push({ field: mapping.dropoff_place_id !== null ? 'dropoff_place_id' : mapping.address !== null ? 'address' : 'street', code: 'no_dropoff' });

  const email = cell('email');
  if (email && !EMAIL.test(email)) problems.push({ field: 'email', code: 'not_an_email', value: email });
  const localeText = cell('locale');
  const locale = localeText ? readLocale(localeText) : null;
  if (localeText && !locale) problems.push({ field: 'locale', code: 'unknown_locale', value: localeText });
  const contact = {
    ...(cell('name') ? { name: cell('name') } : {}),
    ...(cell('phone') ? { phone_number: cell('phone') } : {}),
    ...(email ? { email } : {}),
    ...(locale ? { locale } : {}),
  };

  const counts = [cell('package_count'), ...extraCounts].map((text) => readCount(text.trim(), problems));
  const count = counts.some((c) => c !== null) ? counts.reduce<number>((sum, c) => sum + (c ?? 0), 0) : null;
  if (count !== null && count > MAX_PACKAGES && !problems.some((p) => p.code === 'not_a_count')) problems.push({ field: 'package_count', code: 'not_a_count', value: String(count) });

  const pickupWindow = readWindow(cell, 'pickup', options.timeZone, problems);
  const dropoffWindow = readWindow(cell, 'dropoff', options.timeZone, problems);
  const notes = cell('notes');
  const dropoff = {
    type: 'dropoff',
    ...(dropoffPlace ? { place_id: dropoffPlace } : pinned ? { place_id: pinned } : {}),
    ...(address && !dropoffPlace && !pinned ? { address } : {}),
    ...(location && address && !pinned ? { location } : {}),
    ...(Object.keys(contact).length ? { contact } : {}),
    ...(dropoffWindow ? { time_window: dropoffWindow } : {}),
    ...(notes ? { notes } : {}),
  };
  const pickup = { type: 'pickup', ...(pickupPlace ? { place_id: pickupPlace } : {}), ...(pickupWindow ? { time_window: pickupWindow } : {}) };
  const externalId = cell('external_id') || null;
  const packages = count && count <= MAX_PACKAGES ? Array.from({ length: count }, () => ({ pickup_stop_index: 0, dropoff_stop_index: 1 })) : [];
  const booking: BookingCreate = {
    service_id: options.serviceId,
    ...(externalId ? { external_id: externalId } : {}),
    stops: [pickup, dropoff],
    ...(packages.length ? { packages } : {}),
  };
  return { externalId, address: address && !dropoffPlace ? address : null, key: dropoffPlace ? null : key, located: location !== null || Boolean(pinned), booking, problems };
}

/**
 * Every booking of the file. A Shopify export's rows sharing `Name` are one order; in any other file an external id
 * met a second time is a problem of the later row ("already in row N"), so a file cannot import an order twice.
 */
export function toImportRows(parsed: ParsedCsv, mapping: Mapping, options: RowOptions): ImportRow[] {
  const shopify = isShopifyExport(parsed.headers) && mapping.external_id !== null;
  const idOf = (cells: string[]) => (mapping.external_id === null ? '' : (cells[mapping.external_id] ?? '').trim());
  const groups: { rows: number[]; cells: string[][] }[] = [];
  const byId = new Map<string, { rows: number[]; cells: string[][] }>();
  parsed.rows.forEach((cells, i) => {
    const id = idOf(cells);
    const group = shopify && id ? byId.get(id) : undefined;
    if (group) {
      group.rows.push(i + 1);
      group.cells.push(cells);
      return;
    }
    const created = { rows: [i + 1], cells: [cells] };
    groups.push(created);
    if (shopify && id) byId.set(id, created);
  });
  const firstRowOf = new Map<string, number>();
  return groups.map((group) => {
    const [cells, ...more] = group.cells as [string[], ...string[][]];
    const extraCounts = mapping.package_count === null ? [] : more.map((c) => c[mapping.package_count!] ?? '');
    const row: ImportRow = { number: group.rows[0]!, rows: group.rows, cells, ...toBooking(cells, mapping, options, extraCounts) };
    if (row.externalId) {
      const first = firstRowOf.get(row.externalId);
      if (first === undefined) firstRowOf.set(row.externalId, row.number);
      else row.problems.push({ field: 'external_id', code: 'duplicate_in_file', value: row.externalId, other: first });
    }
    return row;
  });
}

/**
 * The column an API error pointer (relative to the item: `/booking/stops/1/address`) concerns, or null when it
 * concerns the booking as a whole (the service, a stop limit). Stop 0 is the pickup, stop 1 the drop-off.
 */
export function fieldOfPointer(pointer: string, mapping?: Mapping): ImportField | null {
  const parts = pointer.split('/').slice(1);
  if (parts[0] !== 'booking') return null;
  if (parts[1] === 'external_id') return 'external_id';
  if (parts[1] === 'packages') return 'package_count';
  if (parts[1] !== 'stops') return null;
  const kind = parts[2] === '0' ? 'pickup' : parts[2] === '1' ? 'dropoff' : null;
  if (!kind) return null;
  if (parts[3] === 'time_window') return parts[4] === 'ends_at' ? `${kind}_ends_at` : `${kind}_starts_at`;
  if (parts[3] === 'notes') return 'notes';
  if (parts[3] === 'contact') return parts[4] === 'email' ? 'email' : parts[4] === 'phone_number' ? 'phone' : parts[4] === 'locale' ? 'locale' : 'name';
  if (parts[3] === 'address' && kind === 'dropoff') {
    const part = parts[4];
    if (part === 'city' || part === 'zip_code' || part === 'country' || part === 'number' || part === 'additional_line') return part;
    return mapping && mapping.address !== null && mapping.street === null ? 'address' : 'street';
  }
  if (parts[3] === 'location' && kind === 'dropoff') return parts[4] === 'lng' ? 'lng' : 'lat';
  return `${kind}_place_id`;
}
