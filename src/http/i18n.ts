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
