// Writing CSV in the console: one cell rule and one file shape for every download (decision 1581). A cell that a
// spreadsheet would run as a formula — beginning with `=`, `+`, `-`, `@`, a tab or a carriage return — gets a leading
// `'` (OWASP, "CSV Injection"); a plain negative number (`-12`, `-3.5`, `-3,5`) stays as it is, since no spreadsheet
// reads it as anything but a number. src/shared/csv.ts is the server's copy of the same rule.
import Papa from 'papaparse';

const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(?:[.,]\d+)?$/;

export function csvCell(value: string): string {
  return FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
}

/** A whole file: a BOM (spreadsheets then read UTF-8), ',' between cells, CRLF after each line (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const data = rows.map((row) => row.map(csvCell));
  return `\ufeff${Papa.unparse({ fields: headers.map(csvCell), data }, { newline: '\r\n' })}\r\n`;
}
