import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvCell, toCsv } from './csv.ts';
import * as server from '../../src/shared/csv.ts';

const CELLS = ['=1+1', '+49 151 2345678', '-2+3', '@SUM(A1)', '\tx', '\rx', '-12', '-3.5', '-3,5', 'plain', '', '1-2', 'a,"b"\nc'];

describe('the console csv writer', () => {
  it('neutralizes cells a spreadsheet would run as formulas and keeps plain negative numbers', () => {
    expect(CELLS.map(csvCell)).toEqual(["'=1+1", "'+49 151 2345678", "'-2+3", "'@SUM(A1)", "'\tx", "'\rx", '-12', '-3.5', '-3,5', 'plain', '', '1-2', 'a,"b"\nc']);
  });

  it('writes the same file as the server writer, one rule on both sides', () => {
    const rows = [CELLS.slice(0, 7), CELLS.slice(6)];
    const headers = ['h1', '=h2', 'h3', 'h4', 'h5', 'h6', 'h7'];
    expect(toCsv(headers, rows)).toBe(server.toCsv(headers, rows));
    expect(Papa.parse<string[]>(toCsv(headers, rows).slice(1).trimEnd()).data[0]).toEqual(['h1', "'=h2", 'h3', 'h4', 'h5', 'h6', 'h7']);
  });
});
