import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvCell, toCsv } from './csv.ts';

const CELLS = ['=1+1', '+49 151 2345678', '-2+3', '@SUM(A1)', '\tx', '\rx', '-12', '-3.5', '-3,5', 'plain', '', '1-2', 'a,"b"\nc'];

describe('the console csv writer (the server’s, src/shared/csv.ts)', () => {
  it('neutralizes cells a spreadsheet would run as formulas and keeps plain negative numbers', () => {
    expect(CELLS.map(csvCell)).toEqual(["'=1+1", "'+49 151 2345678", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", '-12', '-3.5', '-3,5', 'plain', '', '1-2', 'a,"b"\nc']);
  });

  it('writes a file that Papa Parse (the import’s reader) reads back cell for cell, headers neutralized too', () => {
    const rows = [CELLS.slice(0, 7), CELLS.slice(6)];
    const headers = ['h1', '=h2', 'h3', 'h4', 'h5', 'h6', 'h7'];
    const back = Papa.parse<string[]>(toCsv(headers, rows).slice(1).trimEnd()).data;
    expect(back).toEqual([headers.map(csvCell), ...rows.map((row) => row.map(csvCell))]);
  });
});
