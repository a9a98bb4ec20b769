import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { failedRowsCsv, fileHash, guessMapping, isShopifyExport, missingFields, parseCsv, rowKey } from './csv.ts';
import { decodeBytes } from './decode.ts';

describe('parseCsv', () => {
  it('reads comma-separated rows with quoted cells holding separators, quotes and line breaks', () => {
    const parsed = parseCsv('external_id,notes\r\nA-1,"Ring twice, then wait"\r\nA-2,"Say ""hello""\nat the door"\r\n');
    expect(parsed.headers).toEqual(['external_id', 'notes']);
    expect(parsed.rows).toEqual([
      ['A-1', 'Ring twice, then wait'],
      ['A-2', 'Say "hello"\nat the door'],
    ]);
    expect(parsed.problems).toEqual([]);
  });

  it('reads semicolon-separated files as German spreadsheets save them, with a byte order mark', () => {
    const parsed = parseCsv('\ufeffexternal_id;pickup_place_id;dropoff_place_id\nB-1;p1;p2\nB-2;"p;3";p4\n');
    expect(parsed.headers).toEqual(['external_id', 'pickup_place_id', 'dropoff_place_id']);
    expect(parsed.rows).toEqual([
      ['B-1', 'p1', 'p2'],
      ['B-2', 'p;3', 'p4'],
    ]);
  });

  it('names an unterminated quote at its row: the rows after it are not silently read into its cell', () => {
    const parsed = parseCsv('id,notes\n1,fine\n2,"unterminated; quote\n3,x\n4,y\n5,z\n');
    expect(parsed.problems).toEqual([{ row: 2, code: 'unterminated_quote' }]);
    expect(parsed.rows).toHaveLength(2);
  });

  it('names rows with too many or too few cells, counting rows after blank lines as data rows', () => {
    const parsed = parseCsv('a,b,c\n\n1,2,3\n   \n4\n5,6,7,8\n,,\n9,"x"y,1\n');
    expect(parsed.rows.slice(0, 3)).toEqual([['1', '2', '3'], ['4'], ['5', '6', '7', '8']]);
    expect(parsed.problems).toEqual([
      { row: 2, code: 'too_few_fields' },
      { row: 3, code: 'too_many_fields' },
      { row: 4, code: 'malformed_quote' },
      { row: 4, code: 'unterminated_quote' },
    ]);
  });

  it('reads a file of one column without complaining that it has no separator', () => {
    // An unquoted comma in a one-column file splits the row: named, not dropped.
    expect(parseCsv('address\nRue Grimaldi 3, Monaco\n')).toMatchObject({ problems: [{ row: 1, code: 'too_many_fields' }] });
    expect(parseCsv('address\nRue Grimaldi\n')).toEqual({ headers: ['address'], rows: [['Rue Grimaldi']], problems: [] });
  });

  it('answers no headers and no rows for an empty file', () => {
    expect(parseCsv('')).toEqual({ headers: [], rows: [], problems: [] });
  });

  it('reads 5 MB in one cell and 10,000 rows', { timeout: 20_000 }, () => {
    const big = parseCsv(`id,notes\n1,"${'x'.repeat(5 * 1024 * 1024)}"\n`);
    expect(big.rows[0]![1]).toHaveLength(5 * 1024 * 1024);
    const many = parseCsv(['id,street,city', ...Array.from({ length: 10_000 }, (_, i) => `${i},Rue ${i},Monaco`)].join('\n'));
    expect(many.rows).toHaveLength(10_000);
    expect(many.problems).toEqual([]);
  });
});

describe('decodeBytes', () => {
  const text = 'Empfänger;Straße\nJürgen Groß;Rue Grimaldi 3\n';
  const utf16le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  const utf16be = (s: string) => {
    const le = Buffer.from(s, 'utf16le');
    for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1]!, le[i]!];
    return Buffer.concat([Buffer.from([0xfe, 0xff]), le]);
  };

  it('reads UTF-8 with and without its BOM', () => {
    expect(decodeBytes(Buffer.from(text))).toEqual({ text, encoding: 'utf-8', guessed: false });
    expect(decodeBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))).toEqual({ text, encoding: 'utf-8', guessed: false });
  });

  it('reads UTF-16 little- and big-endian by their BOM', () => {
    expect(decodeBytes(utf16le(text))).toEqual({ text, encoding: 'utf-16le', guessed: false });
    expect(decodeBytes(utf16be(text))).toEqual({ text, encoding: 'utf-16be', guessed: false });
    expect(parseCsv(decodeBytes(utf16le(text)).text).headers).toEqual(['Empfänger', 'Straße']);
  });

  it('falls back to Windows-1252 when the bytes are not UTF-8, and says it guessed', () => {
    // Node's decoder reads 0x80–0x9f as Latin-1; the browser's as Windows-1252 (€ …): the browser test has the €.
    const latin = Buffer.from('Empf\xe4nger;Stra\xdfe;Preis\nJ\xfcrgen;Caf\xe9;5\n', 'latin1');
    expect(decodeBytes(latin)).toEqual({ text: 'Empfänger;Straße;Preis\nJürgen;Café;5\n', encoding: 'windows-1252', guessed: true });
  });

  it('refuses a file whose BOM names an encoding its bytes break', () => {
    expect(() => decodeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0x41]))).toThrow();
  });
});

describe('guessMapping', () => {
  it('maps the contract columns by their names, ignoring case, spaces and separators', () => {
    const mapping = guessMapping(['External ID', 'pickup-place-id', 'DROPOFF_PLACE_ID', 'notes', 'Package Count']);
    expect(mapping).toMatchObject({ external_id: 0, pickup_place_id: 1, dropoff_place_id: 2, notes: 3, package_count: 4 });
    expect(missingFields(mapping)).toEqual([]);
  });

  it('recognizes a German shop export', () => {
    const headers = ['Bestellnummer', 'Empfänger', 'Straße', 'Hausnummer', 'PLZ', 'Ort', 'Land', 'Telefon', 'E-Mail', 'Datum', 'Zeitfenster von', 'Zeitfenster bis', 'Pakete', 'Bemerkungen', 'Sprache'];
    expect(guessMapping(headers)).toMatchObject({ external_id: 0, name: 1, street: 2, number: 3, zip_code: 4, city: 5, country: 6, phone: 7, email: 8, date: 9, dropoff_starts_at: 10, dropoff_ends_at: 11, package_count: 12, notes: 13, locale: 14, pickup_place_id: null, dropoff_place_id: null });
    expect(guessMapping(['Postleitzahl', 'Stadt', 'Adresse'])).toMatchObject({ zip_code: 0, city: 1, address: 2 });
  });

  it('recognizes an English export with a one-line address and coordinates', () => {
    const headers = ['Order', 'Name', 'Address', 'Phone', 'Email', 'Window from', 'Window to', 'Parcels', 'Notes', 'Language', 'lat', 'lng'];
    expect(guessMapping(headers)).toMatchObject({ external_id: 0, name: 1, address: 2, phone: 3, email: 4, dropoff_starts_at: 5, dropoff_ends_at: 6, package_count: 7, notes: 8, locale: 9, lat: 10, lng: 11 });
    expect(missingFields(guessMapping(headers))).toEqual([]);
    expect(guessMapping(['Order', 'House number', 'Zip', 'City', 'Street'])).toMatchObject({ number: 1, zip_code: 2, city: 3, street: 4 });
  });

  it('names what a drop-off lacks: a place id, a one-line address, or a street and a city', () => {
    expect(missingFields(guessMapping(['Order', 'Street']))).toEqual(['city']);
    expect(missingFields(guessMapping(['Order']))).toEqual(['street', 'city']);
  });

  it('reads Shopify’s order export as it is: Name is the order, the Shipping columns and Email the recipient', () => {
    const text = decodeBytes(readFileSync(new URL('../../../../../test/fixtures/shopify-orders-export.csv', import.meta.url))).text;
    const parsed = parseCsv(text);
    expect(parsed.problems).toEqual([]);
    expect(isShopifyExport(parsed.headers)).toBe(true);
    const mapping = guessMapping(parsed.headers);
    const at = (header: string) => parsed.headers.indexOf(header);
    expect(mapping).toMatchObject({ external_id: at('Name'), name: at('Shipping Name'), email: at('Email'), street: at('Shipping Address1'), additional_line: at('Shipping Address2'), city: at('Shipping City'), zip_code: at('Shipping Zip'), country: at('Shipping Country'), phone: at('Shipping Phone'), package_count: at('Lineitem quantity'), notes: at('Notes') });
    expect(isShopifyExport(['Name', 'Street'])).toBe(false);
  });
});

describe('rowKey and fileHash', () => {
  it('derives the same key for the same file and row, and another for another file', async () => {
    const a = await fileHash(new TextEncoder().encode('a,b\n1,2\n'));
    const b = await fileHash(new TextEncoder().encode('a,b\n1,3\n'));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(rowKey(a, 7)).toBe(`csv-${a}-row-7`);
  });
});

describe('failedRowsCsv', () => {
  it('writes the failed rows with their reason, formula cells neutralized, reading back as written', () => {
    const text = failedRowsCsv(['external_id', 'notes'], [{ cells: ['=HYPERLINK("http://evil")', 'Ring; twice'], reason: 'Parcels: \'-1\' is not a number' }, { cells: ['-12'], reason: '@bad' }]);
    expect(text.startsWith('\ufeff')).toBe(true);
    const back = Papa.parse<string[]>(text.slice(1).trimEnd()).data;
    expect(back).toEqual([
      ['external_id', 'notes', 'import_error'],
      ['\'=HYPERLINK("http://evil")', 'Ring; twice', 'Parcels: \'-1\' is not a number'],
      ['-12', '', "'@bad"],
    ]);
  });
});
