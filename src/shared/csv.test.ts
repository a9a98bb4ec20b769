import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { csvCell, toCsv } from './csv.ts';

describe('csvCell', () => {
  it.each(['=1+1', '+49 151 2345678', '-2+3', '@SUM(A1)', '\tx', '\rx', "=HYPERLINK(\"http://x\")"])('neutralizes %j with a leading quote', (value) => {
    expect(csvCell(value)).toBe(`'${value}`);
  });

  it.each(['-12', '-3.5', '-3,5', 'Ring twice', '', "'already", '1-2'])('keeps %j as it is', (value) => {
    expect(csvCell(value)).toBe(value);
  });
});

describe('toCsv', () => {
  it('writes a BOM, CRLF lines, quoted separators, and neutralized formula cells that read back as written', () => {
    const text = toCsv(['name', 'note'], [['=cmd|calc', 'a, "b"\nc'], ['-5', '@x']]);
    expect(text.startsWith('\ufeffname,note\r\n')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const back = Papa.parse<string[]>(text.slice(1).trimEnd()).data;
    expect(back).toEqual([
      ['name', 'note'],
      ["'=cmd|calc", 'a, "b"\nc'],
      ['-5', "'@x"],
    ]);
  });
});
