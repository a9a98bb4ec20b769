// Languages (en, de), chosen from the browser and switchable; each page keeps its own catalog beside it
// (`messages.ts`), typed so a key missing in one language fails the type check. Dates, times and money use Intl in
// the service area's time zone and currency.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export type Lang = 'en' | 'de';
export const LANGS: readonly Lang[] = ['en', 'de'];

export interface Catalog<K extends string> {
  en: Record<K, string>;
  de: Record<K, string>;
}

/** A page's messages; `{name}` placeholders are filled by `t(key, { name })`. */
export const defineMessages = <K extends string>(catalog: Catalog<K>): Catalog<K> => catalog;

const STORAGE_KEY = 'tourbook.lang';

export function detectLang(): Lang {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'en' || stored === 'de') return stored;
  } catch {
    // storage blocked: fall through to the browser's languages
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return 'en';
}

interface LangState {
  lang: Lang;
  setLang: (lang: Lang) => void;
}

const LangContext = createContext<LangState>({ lang: 'en', setLang: () => undefined });

export function LangProvider({ children, initial }: { children: ReactNode; initial?: Lang }) {
  const [lang, setLangState] = useState<Lang>(initial ?? detectLang);
  const setLang = useCallback((next: Lang) => {
    setLangState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // the choice then lasts for this page only
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo(() => ({ lang, setLang }), [lang, setLang]);
  return <LangContext.Provider value={value}>{children}</LangContext.Provider>;
}

export const useLang = (): LangState => useContext(LangContext);

export type Params = Record<string, string | number>;

export function translate(template: string, params?: Params): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function useT<K extends string>(catalog: Catalog<K>): (key: K, params?: Params) => string {
  const { lang } = useLang();
  return useCallback((key: K, params?: Params) => translate(catalog[lang][key], params), [catalog, lang]);
}

const locales: Record<Lang, string> = { en: 'en-GB', de: 'de-DE' };

export interface Formatters {
  dateTime(iso: string | null | undefined, timeZone?: string): string;
  date(iso: string | null | undefined, timeZone?: string): string;
  time(iso: string | null | undefined, timeZone?: string): string;
  /** Money in minor units (the API's `amount`), e.g. 1250 EUR → "€12.50". */
  money(amount: number, currency: string): string;
  number(value: number): string;
  /** A share from 0 to 1 as a percentage, at most one decimal ("93.5%", "93,5 %"). */
  percent(share: number): string;
}

/** Formatters are cached per language and time zone: Intl objects are costly to build per row. */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let found = cache.get(key) as T | undefined;
  if (!found) {
    found = make();
    cache.set(key, found);
  }
  return found;
}

export function formattersFor(lang: Lang): Formatters {
  const locale = locales[lang];
  const dt = (kind: 'dateTime' | 'date' | 'time', timeZone: string | undefined) =>
    cached(`${lang}|${kind}|${timeZone ?? ''}`, () =>
      new Intl.DateTimeFormat(locale, {
        ...(kind !== 'time' ? { dateStyle: 'medium' as const } : {}),
        ...(kind !== 'date' ? { timeStyle: 'short' as const } : {}),
        ...(timeZone ? { timeZone } : {}),
      }),
    ) as Intl.DateTimeFormat;
  const fmt = (kind: 'dateTime' | 'date' | 'time') => (iso: string | null | undefined, timeZone?: string) => (iso ? dt(kind, timeZone).format(new Date(iso)) : '—');
  return {
    dateTime: fmt('dateTime'),
    date: fmt('date'),
    time: fmt('time'),
    money: (amount, currency) => {
      const nf = cached(`${lang}|money|${currency}`, () => new Intl.NumberFormat(locale, { style: 'currency', currency })) as Intl.NumberFormat;
      const digits = nf.resolvedOptions().maximumFractionDigits ?? 2;
      return nf.format(amount / 10 ** digits);
    },
    number: (value) => (cached(`${lang}|number`, () => new Intl.NumberFormat(locale)) as Intl.NumberFormat).format(value),
    percent: (share) => (cached(`${lang}|percent`, () => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 })) as Intl.NumberFormat).format(share),
  };
}

export function useFormat(): Formatters {
  const { lang } = useLang();
  return useMemo(() => formattersFor(lang), [lang]);
}
