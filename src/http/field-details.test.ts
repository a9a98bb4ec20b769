// Every field-level detail the service writes has a German translation (decision 0156): the sources are read for the
// texts rules put into `errors[]`, so a new rule without its translation fails here instead of answering in English.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTourbookMessages } from '../messages.ts';
import { fieldDetails as table } from './field-details.ts';
import { fieldDetailProblems, translate } from './i18n.ts';

const SRC = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** A literal's text with each `${…}` as a sample value. */
const sample = (literal: string) => literal.replace(/\$\{[^}]*\}/g, 'x1');

/** The English texts written as field details: `code: …, detail: '…'`, a stop error's detail, a bad parameter's. */
function fieldDetails(): { where: string; text: string }[] {
  const found: { where: string; text: string }[] = [];
  const literal = String.raw`(['"\x60])((?:(?!\1)[^\\]|\\.)*)\1`;
  const shapes = [new RegExp(String.raw`code: [^,]+, detail: ${literal}`, 'g'), new RegExp(String.raw`stopErrors\([^;]*?, ${literal}\)`, 'g'), new RegExp(String.raw`badParameter\(\s*'[a-z_]+',\s*[^,]+,\s*${literal}`, 'g')];
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const shape of shapes) {
      for (const match of text.matchAll(shape)) found.push({ where: `${path.relative(SRC, file)}: ${match[0].slice(0, 80)}`, text: sample(match[2]!.replace(/\\(.)/g, '$1')) });
    }
  }
  return found;
}

describe('field details in German', () => {
  // The table as a running Tourbook installs it at start-up (decision 0210), not by importing a file.
  beforeAll(() => useTourbookMessages());

  it('finds the field details the sources write (the scan itself works)', () => {
    const texts = fieldDetails().map((d) => d.text);
    expect(texts).toContain('is already used by another user of this tenant');
    expect(texts).toContain('is failed');
    expect(texts).toContain('The cursor is not one this API issued.');
    expect(texts.length).toBeGreaterThan(50);
  });

  it('translates every field detail written in the sources', () => {
    const untranslated = fieldDetails().filter((d) => translate('de', d.text) === d.text);
    expect(untranslated.map((d) => d.where)).toEqual([]);
  });

  it("translates Ajv's messages and carries their values", () => {
    expect(translate('de', 'must NOT have more than 64 characters')).toBe('darf höchstens 64 Zeichen haben');
    expect(translate('de', 'must match format "uuid"')).toBe('muss dem Format „uuid“ entsprechen');
    expect(translate('de', 'must be integer')).toBe('muss eine ganze Zahl sein');
    expect(translate('de', 'must be one of: "a", "b"')).toBe('muss einer dieser Werte sein: "a", "b"');
    expect(translate('de', 'Query parameter limit must be <= 100.')).toBe('Query-Parameter limit: muss ≤ 100 sein.');
    expect(translate('en', 'is required')).toBe('is required');
    expect(translate('de', 'a text no rule writes')).toBe('a text no rule writes');
  });

  it('refuses, at start-up, a German text left empty or taking other placeholders than its English', () => {
    expect(fieldDetailProblems(table)).toEqual([]);
    expect(fieldDetailProblems({ 'must be <= {limit}': { de: 'muss ≤ {max} sein' }, 'is invalid': { de: ' ' } })).toEqual([
      '"must be <= {limit}" takes "{limit}" in en but "{max}" in de',
      '"is invalid" has no de text',
    ]);
  });
});
