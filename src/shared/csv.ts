// Writing CSV on the server: the one cell rule for every file the server writes (decision 1581). A cell that a
// spreadsheet would run as a formula — beginning with `=`, `+`, `-`, `@`, a tab or a carriage return — gets a leading
// `'` (OWASP, "CSV Injection"); a plain negative number stays as it is. The console's copy is web/ui/csv.ts. Today
// the server writes no CSV of its own (reports are stored as uploaded); a route that starts to must write through
// toCsv.

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
