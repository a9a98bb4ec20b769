// Localized strings (Accept-Language en|de): error details, failure option reasons, reason labels.
export type Lang = 'en' | 'de';

export type Messages = Record<string, { en: string; de: string }>;

const catalog: Messages = {};

/** Modules add their strings at import time; a key defined twice is a programming error. */
export function defineMessages(messages: Messages): void {
  for (const [key, value] of Object.entries(messages)) {
    if (catalog[key] && (catalog[key].en !== value.en || catalog[key].de !== value.de)) {
      throw new Error(`message ${key} is defined twice with different texts`);
    }
    catalog[key] = value;
  }
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
  const entry = catalog[key];
  const text = entry ? entry[lang] : key;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
}

export function hasMessage(key: string): boolean {
  return key in catalog;
}

/**
 * Plain-text messages translated by their English text, gettext style (decision 0156): field-level details are written
 * in English where the rule is (`detail: 'is not a known field'`) and translated when the response is written. A
 * `{name}` in the English text stands for any value and is carried into the translation.
 */
const exact = new Map<string, Record<Exclude<Lang, 'en'>, string>>();
const patterns: { pattern: RegExp; names: string[]; text: Record<Exclude<Lang, 'en'>, string> }[] = [];

export function defineTranslations(entries: Record<string, { de: string }>): void {
  for (const [english, text] of Object.entries(entries)) {
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
  const found = exact.get(english);
  if (found) return found[lang];
  for (const { pattern, names, text } of patterns) {
    const match = pattern.exec(english);
    // A value can be a translatable text itself: `Query parameter limit {detail}.` carries a field's detail.
    if (match) return text[lang].replace(/\{(\w+)\}/g, (placeholder, name: string) => (names.includes(name) ? translate(lang, match[names.indexOf(name) + 1]!) : placeholder));
  }
  return english;
}
