// Amounts typed by people ("12.50", "12,50", "1.234,50") to the API's minor units, and back for an input's value.

export const fractionDigits = (currency: string): number => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** Minor units, or null when the text is not an amount. The last `.` or `,` followed by 1–digits digits is the decimal mark. */
export function parseAmount(text: string, currency: string): number | null {
  const digits = fractionDigits(currency);
  const compact = text.replace(/[\s\u00a0']/g, '');
  if (!/^\d[\d.,]*$/.test(compact)) return null;
  const match = /^(.*?)(?:[.,](\d+))?$/.exec(compact);
  let whole = compact;
  let fraction = '';
  if (match && match[2] !== undefined && match[2].length <= digits && digits > 0) {
    whole = match[1]!;
    fraction = match[2];
  }
  whole = whole.replace(/[.,]/g, '');
  if (!/^\d+$/.test(whole)) return null;
  return Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
}

/** An input's value for minor units, with the language's decimal mark and no grouping: 1250 EUR, de → "12,50". */
export function amountInput(minor: number, currency: string, lang: 'en' | 'de'): string {
  const digits = fractionDigits(currency);
  const text = (minor / 10 ** digits).toFixed(digits);
  return lang === 'de' ? text.replace('.', ',') : text;
}
