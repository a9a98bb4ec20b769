import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guessMapping, parseCsv } from './csv.ts';
import { decodeBytes } from './decode.ts';
import { fieldOfPointer, geocodeQuery, readLocale, splitAddressLine, toImportRows, type RowOptions } from './rows.ts';

const OPTIONS: RowOptions = { serviceId: 'svc', pickupPlaceId: 'depot', timeZone: 'Europe/Monaco' };
const rowsOf = (text: string, options = OPTIONS) => {
  const parsed = parseCsv(text);
  return toImportRows(parsed, guessMapping(parsed.headers), options);
};

describe('Shopify’s order export', () => {
  const text = decodeBytes(readFileSync(new URL('../../../../../test/fixtures/shopify-orders-export.csv', import.meta.url))).text;
  const rows = rowsOf(text);

  it('makes one booking per order, its line items’ quantities adding up into its parcels', () => {
    expect(rows.map((r) => r.externalId)).toEqual(['#1001', '#1002', '#1003', '#1004', '#1005', '#1006']);
    expect(rows.map((r) => r.booking.packages?.length ?? 0)).toEqual([3, 1, 6, 1, 4, 2]);
    expect(rows.map((r) => r.rows)).toEqual([[1, 2], [3], [4, 5, 6], [7], [8], [9, 10]]);
    expect(rows.every((r) => r.problems.length === 0)).toBe(true);
  });

  it('takes the recipient from the Shipping columns and Email, the address split into street and number', () => {
    const first = rows[0]!;
    expect(first.booking).toEqual({
      service_id: 'svc',
      external_id: '#1001',
      stops: [
        { type: 'pickup', place_id: 'depot' },
        {
          type: 'dropoff',
          address: { street: 'Boulevard des Moulins', number: '12', zip_code: '98000', city: 'Monaco', country: 'MC' },
          contact: { name: 'Camille Rossi', phone_number: '+377 93 25 11 11', email: 'camille.rossi@example.com' },
          notes: 'Ring at the concierge',
        },
      ],
      packages: [0, 1, 2].map(() => ({ pickup_stop_index: 0, dropoff_stop_index: 1 })),
    });
    expect(rows[1]!.address).toMatchObject({ street: 'Rue Grimaldi', number: '3', additional_line: 'Apt. 4' });
    expect(geocodeQuery(rows[1]!.address!)).toBe('Rue Grimaldi 3, 98000 Monaco, MC');
    expect(rows[0]!.key).toBe(rowsOf(text)[0]!.key);
  });
});

describe('a German shop export', () => {
  const head = 'Bestellnummer;Empfänger;Straße;Hausnummer;PLZ;Ort;Telefon;E-Mail;Datum;Zeitfenster von;Zeitfenster bis;Pakete;Bemerkungen;Sprache';
  it('reads windows in the service area’s zone, the language into contact.locale', () => {
    const [row] = rowsOf(`${head}\nA-1;Jürgen Groß;Rue Grimaldi;3;98000;Monaco;+377 93 00 00 00;jg@example.com;01.12.2026;14:00;16:30;2;Klingeln;Deutsch\n`);
    expect(row!.problems).toEqual([]);
    expect(row!.booking.stops[1]).toEqual({
      type: 'dropoff',
      address: { street: 'Rue Grimaldi', number: '3', zip_code: '98000', city: 'Monaco' },
      contact: { name: 'Jürgen Groß', phone_number: '+377 93 00 00 00', email: 'jg@example.com', locale: 'de' },
      time_window: { starts_at: '2026-12-01T13:00:00.000Z', ends_at: '2026-12-01T15:30:00.000Z' },
      notes: 'Klingeln',
    });
  });

  it('names every problem at its column with the cell as written, and an order twice in the file', () => {
    const lines = [
      head,
      'A-1;Ann;Rue Grimaldi;3;98000;Monaco;;bob@;01.12.2026;14:00;16:00;2;;de',
      'A-2;Ben;Rue Grimaldi;4;98000;Monaco;;;01.12.2026;16:00;14:00;two;;',
      'A-3;Cem;Rue Grimaldi;5;98000;;;;;14:00;;1;;Klingonisch',
      'A-1;Dan;Rue Grimaldi;6;98000;Monaco;;;2026-12-01;noon;15:00;1;;',
      'A-5;Eva;;;98000;Monaco;;;;;;1;;',
    ];
    const rows = rowsOf(lines.join('\n'));
    expect(rows.map((r) => r.problems)).toEqual([
      [{ field: 'email', code: 'not_an_email', value: 'bob@' }],
      [
        { field: 'package_count', code: 'not_a_count', value: 'two' },
        { field: 'dropoff_ends_at', code: 'window_reversed' },
      ],
      [
        { field: 'city', code: 'no_city' },
        { field: 'locale', code: 'unknown_locale', value: 'Klingonisch' },
        { field: 'dropoff_starts_at', code: 'needs_date', value: '14:00' },
      ],
      [
        { field: 'dropoff_starts_at', code: 'not_a_time', value: 'noon' },
        { field: 'external_id', code: 'duplicate_in_file', value: 'A-1', other: 1 },
      ],
      [{ field: 'street', code: 'no_dropoff' }],
    ]);
  });
});

describe('addresses and coordinates', () => {
  it('reads a one-line address and keeps coordinates given with it (stored as given)', () => {
    const [row] = rowsOf('Order,Address,lat,lng,Parcels\nX-1,"Boulevard des Moulins 12, 98000 Monaco",43.7412,"7,4279",1\n');
    expect(row!.booking.stops[1]).toEqual({ type: 'dropoff', address: { street: 'Boulevard des Moulins', number: '12', zip_code: '98000', city: 'Monaco' }, location: { lat: 43.7412, lng: 7.4279 } });
    expect(row!.located).toBe(true);
    expect(rowsOf('Order,Address,lat,lng\nX-1,"Rue Grimaldi, Monaco",north,200\n')[0]!.problems).toEqual([
      { field: 'lat', code: 'not_a_coordinate', value: 'north' },
      { field: 'lng', code: 'not_a_coordinate', value: '200' },
    ]);
  });

  it('sends a pinned address as the place made for it', () => {
    const text = 'Order,Street,City\nX-1,Rue Inconnue 4,Monaco\n';
    const [plain] = rowsOf(text);
    const [pinned] = rowsOf(text, { ...OPTIONS, pins: new Map([[plain!.key!, 'place-9']]) });
    expect(pinned!.booking.stops[1]).toEqual({ type: 'dropoff', place_id: 'place-9' });
    expect(pinned!.located).toBe(true);
  });

  it('splits one-line addresses in the common orders', () => {
    expect(splitAddressLine('12 Rue Grimaldi, Monaco, MC')).toEqual({ street: 'Rue Grimaldi', number: '12', city: 'Monaco', country: 'MC' });
    expect(splitAddressLine('Hauptstraße 5, D-10115 Berlin')).toEqual({ street: 'Hauptstraße', number: '5', zip_code: '10115', city: 'Berlin' });
  });

  it('uses the pickup column when there is one, else the place chosen for all rows', () => {
    expect(rowsOf('pickup_place_id,dropoff_place_id\np1,p2\n,p3\n').map((r) => [r.booking.stops[0], r.problems])).toEqual([
      [{ type: 'pickup', place_id: 'p1' }, []],
      [{ type: 'pickup' }, [{ field: 'pickup_place_id', code: 'no_pickup' }]],
    ]);
  });
});

describe('cells longer than the API takes', () => {
  it('names a 5 MB notes cell and an over-long name at their columns and sends nothing of the row', () => {
    const [row] = rowsOf(`Order,Name,Street,City,Notes\nX-1,${'n'.repeat(201)},Rue Grimaldi 3,Monaco,"${'x'.repeat(5 * 1024 * 1024)}"\n`);
    expect(row!.problems).toEqual([
      { field: 'name', code: 'too_long', value: '200' },
      { field: 'notes', code: 'too_long', value: '2000' },
    ]);
    expect(row!.booking.stops).toEqual([]);
  });
});

describe('readLocale and fieldOfPointer', () => {
  it('reads languages as spreadsheets write them', () => {
    expect(['de', 'DE-de', 'Deutsch', 'German', 'en_GB', 'English', 'fr'].map(readLocale)).toEqual(['de', 'de', 'de', 'de', 'en', 'en', null]);
  });

  it('puts the API’s pointers at the columns they concern', () => {
    expect(fieldOfPointer('/booking/stops/1/address')).toBe('street');
    expect(fieldOfPointer('/booking/stops/1/address/zip_code')).toBe('zip_code');
    expect(fieldOfPointer('/booking/stops/1/contact/email')).toBe('email');
    expect(fieldOfPointer('/booking/stops/1/contact/phone_number')).toBe('phone');
    expect(fieldOfPointer('/booking/stops/0/place_id')).toBe('pickup_place_id');
    expect(fieldOfPointer('/booking/stops/1/time_window/ends_at')).toBe('dropoff_ends_at');
    expect(fieldOfPointer('/booking/external_id')).toBe('external_id');
    expect(fieldOfPointer('/booking/service_id')).toBe(null);
  });

  it('builds 10,000 rows with addresses well within the test timeout', { timeout: 10_000 }, () => {
    const text = ['Order,Street,Zip,City,Parcels', ...Array.from({ length: 10_000 }, (_, i) => `O-${i},Rue ${i} ${i % 40},98000,Monaco,${i % 5}`)].join('\n');
    const rows = rowsOf(text);
    expect(rows).toHaveLength(10_000);
    expect(rows.filter((r) => r.problems.length)).toHaveLength(0);
  });
});
