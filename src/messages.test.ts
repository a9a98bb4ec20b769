// The message catalogs of src/messages.ts, checked the way the worker checks its job kinds: every message key the code
// uses has its English and German text, and the catalogs install without a problem (decision 0210).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogProblems, t, useMessages, type Messages } from './http/i18n.ts';
import { MESSAGE_CATALOGS } from './messages.ts';

const SRC = import.meta.dirname;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const KEY = String.raw`'([a-z_]+\.[a-z_]+)'`;
/** Where the code names a message key: a detail `{ key: … }` (or a choice of two), `t(lang, …)`, a throttle's key. */
const KEY_SHAPES = [
  new RegExp(String.raw`\{ key: ${KEY}`, 'g'),
  new RegExp(String.raw`\bkey: [^,}?]+\? ${KEY} : ${KEY}`, 'g'),
  new RegExp(String.raw`\bt\([^,()]+, ${KEY}`, 'g'),
  new RegExp(String.raw`\.check\((?:[^()]|\([^()]*\))*, ${KEY}\)`, 'g'),
];
/** A key built at run time: `t(lang, \`prefix.${…}\`)`. */
const BUILT_KEY = /\bt\([^,()]+, `([a-z_]+)\.\$\{/g;
/** Each prefix of a built key, with the union type that lists its suffixes. */
const BUILT_KEY_SUFFIXES: Record<string, { file: string; type: string }> = {
  failure_options: { file: 'modules/failures/failure-options.ts', type: 'FailureBlocker' },
  webhooks: { file: 'modules/webhooks/targets.ts', type: 'TargetProblem' },
};

const texts = sources(SRC).map((file) => ({ file: path.relative(SRC, file), text: fs.readFileSync(file, 'utf8') }));
const usedKeys = texts.flatMap(({ file, text }) =>
  KEY_SHAPES.flatMap((shape) => [...text.matchAll(shape)].flatMap((match) => match.slice(1).filter((key): key is string => !!key).map((key) => ({ file, key })))),
);
const builtKeys = texts.flatMap(({ file, text }) => [...text.matchAll(BUILT_KEY)].map((match) => ({ file, prefix: match[1]! })));

/** The string literals of a union type `export type Name = | 'a' | 'b';` in a source file. */
function unionMembers(file: string, type: string): string[] {
  const source = fs.readFileSync(path.join(SRC, file), 'utf8');
  const declaration = new RegExp(String.raw`export type ${type} =([^;]+);`).exec(source);
  return [...(declaration?.[1] ?? '').matchAll(/'([a-z_]+)'/g)].map((match) => match[1]!);
}

const catalog: Messages = Object.assign({}, ...MESSAGE_CATALOGS);

describe('the message catalogs', () => {
  it('install without a key defined twice, an empty text or a translation taking other placeholders', () => {
    expect(catalogProblems(MESSAGE_CATALOGS)).toEqual([]);
    useMessages(MESSAGE_CATALOGS);
    expect(t('de', 'error.forbidden')).toBe('Ihre Rolle darf dies nicht tun.');
  });

  it('find the keys the sources use (the scan itself works)', () => {
    const keys = usedKeys.map((used) => used.key);
    for (const key of ['error.not_found', 'error.removed_with_successor', 'identity.sign_in_throttled', 'tracking.failure_unknown', 'reasons.note_required']) expect(keys).toContain(key);
    expect(new Set(keys).size).toBeGreaterThan(40);
    expect(builtKeys.map((built) => built.prefix).sort()).toEqual(['failure_options', 'webhooks']);
  });

  it('have an English and a German text for every message key the code uses', () => {
    const missing = usedKeys.filter(({ key }) => !catalog[key]?.en || !catalog[key]?.de).map(({ file, key }) => `${file}: ${key}`);
    expect(missing).toEqual([]);
  });

  it('have both texts for every key built at run time, each suffix read from its union type', () => {
    const missing: string[] = [];
    for (const { file, prefix } of builtKeys) {
      const suffixes = BUILT_KEY_SUFFIXES[prefix];
      if (!suffixes) {
        missing.push(`${file}: ${prefix}.… has no entry in BUILT_KEY_SUFFIXES`);
        continue;
      }
      const members = unionMembers(suffixes.file, suffixes.type);
      if (!members.length) missing.push(`${suffixes.file}: no union type ${suffixes.type}`);
      for (const member of members) if (!catalog[`${prefix}.${member}`]?.de) missing.push(`${prefix}.${member}`);
    }
    expect(missing).toEqual([]);
  });

  it('refuse catalogs with problems at start-up instead of answering with keys', () => {
    expect(() => useMessages([{ 'x.a': { en: 'A {n}', de: 'A' } }])).toThrow('x.a takes "{n}" in en but "" in de');
    expect(() => useMessages([{ 'x.a': { en: 'A', de: 'A' } }, { 'x.a': { en: 'B', de: 'B' } }])).toThrow('x.a is defined twice with different texts');
    expect(() => useMessages([{ 'x.a': { en: 'A', de: ' ' } }])).toThrow('x.a has no de text');
    useMessages(MESSAGE_CATALOGS);
  });
});
