// The optional geocoding provider (GEOCODER=nominatim|photon, decision 1507): one adapter per service, wrapped here
// with what every provider needs — an answer cache, the provider's request rate, a timeout — so that an outage, a
// timeout or a refusal is "not found" with a reason, never an error of ours.
import { LRUCache } from 'lru-cache';
import type { Config } from '../../../config.ts';
import { nominatimSearch } from './nominatim.ts';
import { photonSearch } from './photon.ts';

export type ProviderName = 'nominatim' | 'photon';

/** A provider's candidate in our terms; `kind` is how precise the provider says it is. */
export interface ProviderCandidate {
  lat: number;
  lng: number;
  street: string | null;
  number: string | null;
  zip: string | null;
  city: string | null;
  country: string | null;
  kind: 'house' | 'street' | 'postcode' | 'city';
  label: string;
}

export type ProviderAnswer = { ok: true; candidates: ProviderCandidate[] } | { ok: false; reason: string };

export interface GeocoderProvider {
  name: ProviderName;
  search(text: string): Promise<ProviderAnswer>;
}

/** An adapter: one HTTP request to the service, its answer translated; throws on anything unexpected. */
export type ProviderSearch = (baseUrl: string, text: string, signal: AbortSignal) => Promise<ProviderCandidate[]>;

const ADAPTERS: Record<ProviderName, ProviderSearch> = { nominatim: nominatimSearch, photon: photonSearch };

export function createProvider(config: NonNullable<Config['geocoder']>, adapter: ProviderSearch = ADAPTERS[config.kind]): GeocoderProvider {
  const cache = new LRUCache<string, ProviderCandidate[]>({ max: config.cacheSize });
  const spacingMs = 1000 / config.requestsPerSecond;
  let nextSlot = 0;
  return {
    name: config.kind,
    async search(text) {
      const key = text.trim().toLowerCase();
      const cached = cache.get(key);
      if (cached) return { ok: true, candidates: cached };
      // The provider's rate (Nominatim's public policy: one request per second): wait for the next slot, unless
      // that wait alone would exceed the timeout — then this query is not asked at all.
      const now = performance.now();
      const wait = Math.max(0, nextSlot - now);
      if (wait > config.timeoutMs) return { ok: false, reason: `${config.kind} is busy (at most ${config.requestsPerSecond} request(s) per second); try again shortly` };
      nextSlot = Math.max(now, nextSlot) + spacingMs;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        const candidates = await adapter(config.url, text, AbortSignal.timeout(config.timeoutMs));
        cache.set(key, candidates);
        return { ok: true, candidates };
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        return { ok: false, reason: timedOut ? `${config.kind} did not answer within ${config.timeoutMs} ms` : `${config.kind} is unavailable (${err instanceof Error ? err.message : String(err)})` };
      }
    },
  };
}
