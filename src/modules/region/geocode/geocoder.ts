// The geocoder (contract §14, decision 1506): the tenant's own places, then the imported regions, then the optional
// provider. A result is `house`/`street` only when its street matches the query's after normalization; looser
// candidates follow as `fuzzy: true`; at most 10, best first.
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { queryRows } from '../../../db/sql.ts';
import { normalizeStreet, type AddressParts } from '../../../shared/address.ts';
import { placesByAddressPrefix } from '../../places/index.ts';
import type { GeocoderProvider, ProviderCandidate } from './provider.ts';
import { parseQuery, type ParsedQuery } from './query.ts';

export type Precision = 'house' | 'street' | 'postcode' | 'city';

export interface GeocodeResult {
  label: string;
  location: { lat: number; lng: number };
  address: { street: string | null; number: string | null; zip_code: string | null; city: string | null; country: string | null };
  precision: Precision;
  source: 'places' | 'region' | 'nominatim' | 'photon';
  /** A looser candidate (another street, another city): a suggestion, never where a stop is placed. */
  fuzzy?: true;
}

export interface GeocodeAnswer {
  results: GeocodeResult[];
  /** Why the provider did not help, when it was asked and failed (an outage, a timeout, its rate). */
  notice: string | null;
}

export interface GeocodeOptions {
  /** A customer geocodes with its own places only. */
  customerId?: string | null;
  serviceAreaId?: string;
  /** The provider after places and regions; unset: the one configured at start (setGeocoderProvider). */
  provider?: GeocoderProvider | null;
}

export const MAX_RESULTS = 10;
const RANK: Record<Precision, number> = { house: 0, street: 1, postcode: 2, city: 3 };

let configuredProvider: GeocoderProvider | null = null;
/** The provider of this process (GEOCODER), set where the routes are built from the config. */
export function setGeocoderProvider(provider: GeocoderProvider | null): void {
  configuredProvider = provider;
}

interface Candidate extends GeocodeResult {
  /** 0 when postcode/city agree with the query's or it names none; 1 when they disagree. */
  mismatch: number;
}

export async function geocode(q: Queryable, tenantId: string, input: { line?: string; parts?: AddressParts }, options: GeocodeOptions = {}): Promise<GeocodeAnswer> {
  const query = parseQuery(input);
  if (!query.streetKey && !query.zip && !query.cityKey) return { results: [], notice: null };
  const candidates: Candidate[] = [];
  if (query.streetKey) candidates.push(...(await fromPlaces(q, tenantId, query, options.customerId)));
  candidates.push(...(await fromRegions(q, query)));
  let notice: string | null = null;
  const provider = options.provider === undefined ? configuredProvider : options.provider;
  const exact = candidates.some((c) => !c.fuzzy && c.mismatch === 0 && (c.precision === 'house' || (c.precision === 'street' && !query.numberKey)));
  if (provider && !exact) {
    const answer = await provider.search(query.text);
    if (answer.ok) candidates.push(...answer.candidates.map((c) => fromProvider(c, provider.name, query)));
    else notice = answer.reason;
  }
  return { results: rank(candidates), notice };
}

/** Exact ones first by precision, agreeing localities first, then the fuzzy ones; duplicates of a label dropped. */
function rank(candidates: Candidate[]): GeocodeResult[] {
  const sorted = candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => Number(a.c.fuzzy ?? false) - Number(b.c.fuzzy ?? false) || a.c.mismatch - b.c.mismatch || RANK[a.c.precision] - RANK[b.c.precision] || a.i - b.i);
  const seen = new Set<string>();
  const out: GeocodeResult[] = [];
  for (const { c } of sorted) {
    const key = `${c.label}|${c.precision}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { mismatch: _mismatch, ...result } = c;
    out.push(result);
    if (out.length === MAX_RESULTS) break;
  }
  return out;
}

/** Whether the candidate's postcode or city disagrees with the query's (no query locality: no disagreement). */
function mismatchOf(query: ParsedQuery, zip: string | null, city: string | null): number {
  if (!query.zip && !query.cityKey) return 0;
  if (query.zip && zip && query.zip.replace(/\D/g, '') === zip.replace(/\D/g, '')) return 0;
  if (query.cityKey && city && normalizeStreet(city) === query.cityKey) return 0;
  if (!zip && !city) return 0;
  return 1;
}

function label(street: string | null, number: string | null, zip: string | null, city: string | null): string {
  return [[number, street].filter(Boolean).join(' '), [zip, city].filter(Boolean).join(' ')].filter((s) => s !== '').join(', ');
}

async function fromPlaces(q: Queryable, tenantId: string, query: ParsedQuery, customerId: string | null | undefined): Promise<Candidate[]> {
  // addressKey() is street|number|zip|city|country: the street (and number) are its prefix.
  const prefix = query.numberKey ? `${query.streetKey}|${query.numberKey}|` : `${query.streetKey}|`;
  const rows = await placesByAddressPrefix(q, tenantId, customerId ?? undefined, prefix, MAX_RESULTS);
  return rows.map((row) => {
    const a = row.address;
    const precision: Precision = a.number && query.numberKey ? 'house' : 'street';
    return {
      label: label(a.street, a.number, a.zip_code, a.city),
      location: { lat: row.lat, lng: row.lng },
      address: { street: a.street, number: a.number, zip_code: a.zip_code, city: a.city, country: a.country },
      precision,
      source: 'places' as const,
      mismatch: mismatchOf(query, a.zip_code, a.city),
    };
  });
}

interface RegionRow {
  street: string;
  number: string | null;
  zip_code: string | null;
  city: string | null;
  country: string | null;
  lat: number;
  lng: number;
}

async function fromRegions(q: Queryable, query: ParsedQuery): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const make = (row: RegionRow, precision: Precision, fuzzy = false): Candidate => {
    const mismatch = mismatchOf(query, row.zip_code, row.city);
    const street = precision === 'house' || precision === 'street' ? row.street : null;
    return {
      label: precision === 'postcode' || precision === 'city' ? label(null, null, row.zip_code, row.city) : label(street, row.number, row.zip_code, row.city),
      location: { lat: Number(row.lat), lng: Number(row.lng) },
      address: { street, number: precision === 'house' ? row.number : null, zip_code: row.zip_code, city: row.city, country: row.country },
      precision,
      source: 'region',
      // Another city than the query names is a suggestion, not the address asked for.
      ...(fuzzy || (mismatch && (precision === 'house' || precision === 'street')) ? { fuzzy: true as const } : {}),
      mismatch,
    };
  };
  if (query.streetKey) {
    if (query.numberKey) {
      const houses = await queryRows<RegionRow>(
        q,
        sql`SELECT street, number, zip_code, city, country, lat, lng FROM region_addresses WHERE street_key = ${query.streetKey} AND number_key = ${query.numberKey} LIMIT ${MAX_RESULTS}`,
      );
      out.push(...houses.map((row) => make(row, 'house')));
    }
    const streets = await queryRows<RegionRow>(
      q,
      sql`SELECT name AS street, NULL AS number, zip_code, city, country, lat, lng FROM region_streets WHERE street_key = ${query.streetKey} LIMIT ${MAX_RESULTS}`,
    );
    out.push(...streets.map((row) => make(row, 'street')));
    if (!out.some((c) => !c.fuzzy)) out.push(...(await fuzzyStreets(q, query)).map((row) => make(row, 'street', true)));
  }
  if (query.zip) {
    const rows = await queryRows<RegionRow>(q, sql`SELECT name AS street, NULL AS number, zip_code, city, country, lat, lng FROM region_localities WHERE kind = 'postcode' AND name = ${query.zip} LIMIT 3`);
    out.push(...rows.map((row) => make(row, 'postcode')));
  }
  if (query.cityKey) {
    const rows = await queryRows<RegionRow>(q, sql`SELECT name AS street, NULL AS number, zip_code, city, country, lat, lng FROM region_localities WHERE kind = 'city' AND name_key = ${query.cityKey} LIMIT 3`);
    out.push(...rows.map((row) => make(row, 'city')));
  }
  // A single word that is a city's name ("Monaco", "Èze") was read as a street: answer the city too.
  if (query.streetKey && !query.numberKey && !query.cityKey) {
    const rows = await queryRows<RegionRow>(q, sql`SELECT name AS street, NULL AS number, zip_code, city, country, lat, lng FROM region_localities WHERE kind = 'city' AND name_key = ${query.streetKey} LIMIT 3`);
    out.push(...rows.map((row) => make(row, 'city')));
  }
  return out;
}

/** Streets whose name is close to the query's: trigram similarity of the normalized names (kept small: ≤ 5). */
async function fuzzyStreets(q: Queryable, query: ParsedQuery): Promise<RegionRow[]> {
  const streets = await streetIndex(q);
  const wanted = trigrams(query.streetKey!);
  const scored: { row: RegionRow; score: number }[] = [];
  for (const s of streets) {
    const score = similarity(wanted, s.grams);
    if (score >= 0.45) scored.push({ row: s.row, score });
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, 5).map((s) => s.row);
}

/** Every region street with its trigrams, cached per set of imported regions (a re-import makes a new id). */
let streetCache: { version: string; streets: { row: RegionRow; grams: Set<string> }[] } | null = null;
async function streetIndex(q: Queryable): Promise<{ row: RegionRow; grams: Set<string> }[]> {
  const [version] = await queryRows<{ v: string | null }>(q, sql`SELECT string_agg(id::text, ',' ORDER BY id) AS v FROM regions`);
  const v = version?.v ?? '';
  if (streetCache?.version === v) return streetCache.streets;
  const rows = await queryRows<RegionRow & { street_key: string }>(q, sql`SELECT name AS street, NULL AS number, zip_code, city, country, lat, lng, street_key FROM region_streets`);
  streetCache = { version: v, streets: rows.map((row) => ({ row, grams: trigrams(row.street_key) })) };
  return streetCache.streets;
}

function trigrams(text: string): Set<string> {
  const padded = `  ${text} `;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const g of a) if (b.has(g)) shared++;
  return shared / (a.size + b.size - shared);
}

function fromProvider(c: ProviderCandidate, source: 'nominatim' | 'photon', query: ParsedQuery): Candidate {
  const streetMatches = !!c.street && !!query.streetKey && normalizeStreet(c.street) === query.streetKey;
  const numberMatches = !!c.number && !!query.numberKey && c.number.toLowerCase().replace(/\s/g, '') === query.numberKey;
  let precision: Precision = c.kind;
  // Our rule, not the provider's: house or street only when the street is the one asked for.
  if ((precision === 'house' || precision === 'street') && query.streetKey && !streetMatches) precision = 'street';
  if (precision === 'house' && !numberMatches) precision = 'street';
  const fuzzy = (c.kind === 'house' || c.kind === 'street') && !streetMatches;
  return {
    label: c.label || label(c.street, c.number, c.zip, c.city),
    location: { lat: c.lat, lng: c.lng },
    address: { street: c.street, number: precision === 'house' ? c.number : null, zip_code: c.zip, city: c.city, country: c.country },
    precision,
    source,
    ...(fuzzy ? { fuzzy: true as const } : {}),
    mismatch: mismatchOf(query, c.zip, c.city),
  };
}

/**
 * For engineer "intake-api" (address-only stops): the geocoder's best placement and its closest match. `best` is
 * never fuzzy and never coarser than a street (a stop is never placed on a postcode or a guess); `closest` is the
 * first result of any kind, for the 422's "did you mean".
 */
export async function geocodeAddress(
  q: Queryable,
  tenantId: string,
  input: { line?: string; parts?: AddressParts },
  options: GeocodeOptions = {},
): Promise<{ best: GeocodeResult | null; closest: GeocodeResult | null }> {
  const { results } = await geocode(q, tenantId, input, options);
  const best = results.find((r) => !r.fuzzy && (r.precision === 'house' || r.precision === 'street')) ?? null;
  return { best, closest: results[0] ?? null };
}
