// What a geocoding query asks for: street, number, postcode, city — from one line ("12 Boulevard des Moulins, 98000
// Monaco", "Grimaldistraße 12, Monaco") or from split parts (contract §14: the number before or after the street).
import { normalizeNumber, normalizeStreet, splitStreetLine, type AddressParts } from '../../../shared/address.ts';

export interface ParsedQuery {
  street: string | null;
  number: string | null;
  zip: string | null;
  city: string | null;
  country: string | null;
  /** normalizeStreet(street) */
  streetKey: string | null;
  numberKey: string | null;
  /** The words of postcode and city, normalized, for comparing with a candidate's. */
  cityKey: string | null;
  /** The whole input as one line (what a provider is asked). */
  text: string;
}

const POSTCODE = /^(?:[A-Z]{1,2}-?)?\d{4,5}$/i;

export function parseQuery(input: { line?: string; parts?: AddressParts }): ParsedQuery {
  if (input.parts) {
    const p = input.parts;
    const text = [[p.number, p.street].filter(Boolean).join(' '), [p.zip_code, p.city].filter(Boolean).join(' '), p.country].filter(Boolean).join(', ');
    return finish(p.street ?? null, p.number ?? null, p.zip_code ?? null, p.city ?? null, p.country ?? null, text);
  }
  const text = (input.line ?? '').trim().replace(/\s+/g, ' ');
  const pieces = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  let streetLine = pieces[0] ?? '';
  let rest = pieces.slice(1);
  // No comma: "Boulevard des Moulins 12 98000 Monaco" — a postcode after the street starts the locality.
  if (pieces.length === 1) {
    const m = /^(.*?\p{L}.*?)\s+((?:[A-Z]{1,2}-?)?\d{4,5})\s+(\p{L}.*)$/u.exec(streetLine);
    if (m) {
      streetLine = m[1]!;
      rest = [`${m[2]} ${m[3]}`];
    }
  }
  // "…, 98000 Monaco, MC": the last piece after a locality is the country (the shape a shop export's Country column
  // and the console's own lines give), not more words of the city — read as the city it made no street match.
  let country: string | null = null;
  const last = rest.at(-1);
  if (rest.length >= 2 && last && !/\d/.test(last) && rest.slice(0, -1).some((piece) => piece.split(' ').some((w) => !POSTCODE.test(w)))) {
    country = last;
    rest = rest.slice(0, -1);
  }
  let zip: string | null = null;
  const cityWords: string[] = [];
  for (const word of rest.join(' ').split(' ').filter((w) => w !== '')) {
    if (zip === null && POSTCODE.test(word)) zip = word;
    else cityWords.push(word);
  }
  // A line that is only a postcode and/or a city ("98000", "Monaco").
  if (rest.length === 0 && /^\S+$/.test(streetLine) && POSTCODE.test(streetLine)) return finish(null, null, streetLine, null, null, text);
  const { street, number } = splitStreetLine(streetLine);
  return finish(street || null, number, zip, cityWords.join(' ') || null, country, text);
}

function finish(street: string | null, number: string | null, zip: string | null, city: string | null, country: string | null, text: string): ParsedQuery {
  const streetKey = street ? normalizeStreet(street) || null : null;
  const numberKey = number ? normalizeNumber(number) || null : null;
  const cityKey = city ? normalizeStreet(city) || null : null;
  return { street, number, zip, city, country, streetKey, numberKey, cityKey, text };
}
