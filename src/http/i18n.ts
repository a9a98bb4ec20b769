// Localized strings (Accept-Language en|de): error details, failure option reasons, reason labels. The keyed texts are
// the catalogs src/messages.ts names, installed at start-up (decision 0210); field details translate by their English.
export type Lang = 'en' | 'de';

/** Texts by message key, each in English and German: what a file or module exports as its `messages`. */
export type Messages = Record<string, { en: string; de: string }>;

let catalog: Messages | null = null;

const placeholdersOf = (text: string): string => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort().join(' ');

/**
 * The problems of a set of catalogs: a key defined twice with different texts, a text left empty, an English and a
 * German text that take different `{placeholders}` (a translation that drops a value or names one nobody passes).
 */
export function catalogProblems(catalogs: readonly Messages[]): string[] {
  const seen: Messages = {};
  const problems: string[] = [];
  for (const messages of catalogs) {
    for (const [key, text] of Object.entries(messages)) {
      const known = seen[key];
      if (known && (known.en !== text.en || known.de !== text.de)) problems.push(`${key} is defined twice with different texts`);
      if (!text.en.trim() || !text.de.trim()) problems.push(`${key} has no ${text.en.trim() ? 'de' : 'en'} text`);
      else if (placeholdersOf(text.en) !== placeholdersOf(text.de)) problems.push(`${key} takes "${placeholdersOf(text.en)}" in en but "${placeholdersOf(text.de)}" in de`);
      seen[key] = text;
    }
  }
  return problems;
}

/**
 * Installs the catalogs every `t()` reads: called at start-up (createRuntime, buildApp) with the table of
 * src/messages.ts, never by a module being imported (decision 0210). Refuses catalogs with problems.
 */
export function useMessages(catalogs: readonly Messages[]): void {
  const problems = catalogProblems(catalogs);
  if (problems.length) throw new Error(`message catalogs: ${problems.join('; ')}`);
  catalog = Object.assign({}, ...catalogs) as Messages;
}

/** Picks en or de from an Accept-Language header, honouring q-values; anything else is en. */
export function pickLang(header: string | undefined): Lang {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag === 'de' || tag.startsWith('de-')) return 'de';
    if (tag === 'en' || tag.startsWith('en-') || tag === '*') return 'en';
  }
  return 'en';
}

/** Translates a message key; `{name}` placeholders take params. Unknown keys come back as the key. */
export function t(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  // Loud rather than every text coming back as its key: a process that reached here skipped its start-up.
  if (!catalog) throw new Error(`no message catalog to translate ${key}: useMessages runs at start-up (src/messages.ts)`);
  const entry = catalog[key];
  const text = entry ? entry[lang] : key;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export function hasMessage(key: string): boolean {
  return catalog !== null && key in catalog;
}

/**
 * Plain-text messages translated by their English text, gettext style (decision 0156): field-level details are written
 * in English where the rule is (`detail: 'is not a known field'`) and translated when the response is written. A
 * `{name}` in the English text stands for any value and is carried into the translation. The table is
 * `src/http/field-details.ts`, installed at start-up beside the message catalogs (src/messages.ts, decision 0210).
 */
export type FieldDetails = Record<string, { de: string }>;

let exact: Map<string, Record<Exclude<Lang, 'en'>, string>> | null = null;
let patterns: { pattern: RegExp; names: string[]; text: Record<Exclude<Lang, 'en'>, string> }[] = [];

/** The problems of a field-detail table: a German text left empty, or taking other `{placeholders}` than its English. */
export function fieldDetailProblems(table: FieldDetails): string[] {
  return Object.entries(table).flatMap(([english, text]) => {
    if (!text.de.trim()) return [`"${english}" has no de text`];
    return placeholdersOf(english) === placeholdersOf(text.de) ? [] : [`"${english}" takes "${placeholdersOf(english)}" in en but "${placeholdersOf(text.de)}" in de`];
  });
}

/**
 * Installs the field-detail table `translate` reads: called at start-up with the message catalogs, never by a file
 * being imported. A text with `{values}` is tried in the table's order, so the catch-alls come last. Refuses a table
 * with problems.
 */
export function useFieldDetails(table: FieldDetails): void {
  const problems = fieldDetailProblems(table);
  if (problems.length) throw new Error(`field details: ${problems.join('; ')}`);
  exact = new Map();
  patterns = [];
  for (const [english, text] of Object.entries(table)) {
    const names = [...english.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    if (!names.length) {
      exact.set(english, text);
      continue;
    }
    const source = english.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(.+?)');
    patterns.push({ pattern: new RegExp(`^${source}$`, 's'), names, text });
  }
}

/** `english` in `lang`; a text without a translation comes back unchanged. */
export function translate(lang: Lang, english: string): string {
  if (lang === 'en') return english;
  // Loud, like t(): a process that reached here skipped its start-up.
  if (!exact) throw new Error(`no field-detail table to translate "${english}": useFieldDetails runs at start-up (src/messages.ts)`);
  const found = exact.get(english);
  if (found) return found[lang];
  for (const { pattern, names, text } of patterns) {
    const match = pattern.exec(english);
    // A value can be a translatable text itself: `Query parameter limit {detail}.` carries a field's detail.
    if (match) return text[lang].replace(/\{(\w+)\}/g, (placeholder, name: string) => (names.includes(name) ? translate(lang, match[names.indexOf(name) + 1]!) : placeholder));
  }
  return english;
}
