// Where each row will be, before anything is written: every distinct address of the file asked once of
// `GET /api/geocode` (contract §14), a few at a time so a file of 1,000 rows neither floods the service nor waits on
// one request after the other. A row is located when the best result is not fuzzy and at house or street precision —
// the rule the server applies to an address-only stop (contract §14, "Stops from addresses").

export type Precision = 'house' | 'street' | 'postcode' | 'city';

export interface GeocodeResult {
  label: string;
  location: { lat: number; lng: number };
  precision: Precision;
  source: string;
  fuzzy?: boolean;
}

export type Lookup = (query: string) => Promise<GeocodeResult[]>;

/** Requests in flight at once: enough to keep the service busy, few enough to leave room for other pages. */
export const CONCURRENCY = 6;

export interface Located {
  /** The result the stop will be placed on; null when nothing at street precision or finer was found. */
  result: GeocodeResult | null;
  /** The closest suggestion when nothing was found (the preview names it). */
  closest: GeocodeResult | null;
  /** The lookup failed (connection lost, the service refused): said in words, the row cannot be checked. */
  failed?: boolean;
}

export function locatedOf(results: GeocodeResult[]): Located {
  const usable = results.find((r) => !r.fuzzy && (r.precision === 'house' || r.precision === 'street')) ?? null;
  return { result: usable, closest: usable ? null : (results[0] ?? null) };
}

/**
 * Every query answered once, `limit` at a time, in any order; `onAnswer` after each so the preview fills as answers
 * come. A query that fails is reported as failed, not retried (the dispatcher chooses the file again).
 */
export async function geocodeAll(queries: Iterable<string>, lookup: Lookup, onAnswer: (query: string, located: Located) => void, limit = CONCURRENCY, cancelled: () => boolean = () => false): Promise<void> {
  const pending = [...new Set(queries)];
  let next = 0;
  const worker = async () => {
    while (next < pending.length && !cancelled()) {
      const query = pending[next++]!;
      let located: Located;
      try {
        located = locatedOf(await lookup(query));
      } catch {
        located = { result: null, closest: null, failed: true };
      }
      if (!cancelled()) onAnswer(query, located);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, pending.length) }, worker));
}
