// Address normalization: one comparable form for a street and a whole address, shared by place de-duplication and the
// geocoder (contract §14: case, accents, abbreviations such as `Bd`/`Av.`, the number before or after the street).

/** A postal address as places and stops carry it (contract §5, Place). */
export interface AddressParts {
  street?: string | null;
  number?: string | null;
  zip_code?: string | null;
  city?: string | null;
  country?: string | null;
}

/** Common abbreviations of street kinds in French, German, Italian and English addresses, written out. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  av: 'avenue',
  ave: 'avenue',
  bd: 'boulevard',
  bld: 'boulevard',
  blvd: 'boulevard',
  boul: 'boulevard',
  ch: 'chemin',
  imp: 'impasse',
  pl: 'place',
  rte: 'route',
  sq: 'square',
  all: 'allee',
  esc: 'escalier',
  pte: 'porte',
  fbg: 'faubourg',
  qu: 'quai',
  str: 'strasse',
  rd: 'road',
  ln: 'lane',
  dr: 'drive',
  ste: 'sainte',
  st: 'saint',
  pza: 'piazza',
  v: 'via',
};

/** German compounds end in "str."/"straße"; written out so "Hauptstr. 5" and "Hauptstraße 5" meet. */
const GERMAN_STREET_SUFFIX = /(\p{L})str(?=\s|$)/gu;

/** Lower case, no accents, ß as ss, punctuation as spaces, abbreviations written out, single spaces. */
export function normalizeStreet(street: string): string {
  const folded = street
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/strasse\b/g, 'str')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return folded
    .replace(GERMAN_STREET_SUFFIX, '$1strasse')
    .split(' ')
    .filter((word) => word !== '')
    .map((word) => ABBREVIATIONS[word] ?? word)
    .join(' ');
}

/** House numbers compare without spaces and case: "12 B" and "12b" are one number. */
export function normalizeNumber(number: string): string {
  return number.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function normalizeWords(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The key two addresses share exactly when they name the same door: normalized street, number, postcode, city and
 * country. Null when there is no street (a key of a postcode alone would merge unrelated places).
 */
export function addressKey(address: AddressParts): string | null {
  const street = address.street ? normalizeStreet(address.street) : '';
  if (street === '') return null;
  const number = address.number ? normalizeNumber(address.number) : '';
  const zip = address.zip_code ? normalizeNumber(address.zip_code) : '';
  const city = address.city ? normalizeWords(address.city) : '';
  const country = address.country ? normalizeWords(address.country) : '';
  return [street, number, zip, city, country].join('|');
}

/** A house number as addresses write it: digits, optionally a letter or a "bis"/"ter" and a range ("12-14"). */
const NUMBER = String.raw`\d{1,5}(?:\s?[a-zA-Z]|\s?(?:bis|ter))?(?:\s?[-/]\s?\d{1,5}[a-zA-Z]?)?`;
const NUMBER_FIRST = new RegExp(String.raw`^(${NUMBER})[\s,]+(.*\p{L}.*)$`, 'u');
const NUMBER_LAST = new RegExp(String.raw`^(.*\p{L}.*?)[\s,]+(${NUMBER})$`, 'u');

/** A street line split into street and number, whichever comes first ("12 Rue Grimaldi", "Grimaldistraße 12"). */
export function splitStreetLine(line: string): { street: string; number: string | null } {
  const text = line.trim().replace(/\s+/g, ' ');
  const first = NUMBER_FIRST.exec(text);
  if (first) return { street: first[2]!.trim(), number: first[1]!.replace(/\s+/g, '') };
  const last = NUMBER_LAST.exec(text);
  if (last) return { street: last[1]!.trim(), number: last[2]!.replace(/\s+/g, '') };
  return { street: text, number: null };
}
