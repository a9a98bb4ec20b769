// Writing CSV: the one cell rule for every file Tourbook writes, server and console alike (decision 1581) — the
// console's web/ui/csv.ts re-exports this file, so there is one copy. A cell that a spreadsheet would run as a formula
// — beginning with `=`, `+`, `-`, `@`, a tab or a carriage return — gets a leading `'` (OWASP, "CSV Injection"); a
// plain negative number stays as it is. Today the server writes no CSV of its own (reports are stored as uploaded);
// a route that starts to must write through toCsv. Imports nothing: the page bundle takes it as it is.

const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(?:[.,]\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string): string {
  return FORMULA_START.test(value) && !NEGATIVE_NUMBER.test(value) ? `'${value}` : value;
}

const quoted = (value: string): string => (NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A whole file: a BOM (spreadsheets then read UTF-8), ',' between cells, CRLF after each line (RFC 4180). */
export function toCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => cells.map((c) => quoted(csvCell(c))).join(',');
  return `\ufeff${[headers, ...rows].map(line).join('\r\n')}\r\n`;
}
