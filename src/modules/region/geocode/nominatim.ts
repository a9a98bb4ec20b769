// Nominatim's search API (https://nominatim.org/release-docs/latest/api/Search/): `/search?format=jsonv2&
// addressdetails=1&q=…` answers a JSON array of places with `lat`/`lon` as strings and an `address` object.
import type { ProviderCandidate } from './provider.ts';

interface NominatimPlace {
  lat: string;
  lon: string;
  display_name?: string;
  category?: string;
  type?: string;
  addresstype?: string;
  address?: Record<string, string>;
}

export async function nominatimSearch(baseUrl: string, text: string, signal: AbortSignal): Promise<ProviderCandidate[]> {
  const url = `${baseUrl}/search?${new URLSearchParams({ format: 'jsonv2', addressdetails: '1', limit: '10', q: text })}`;
  // Nominatim's usage policy asks for an identifying User-Agent.
  const res = await fetch(url, { signal, headers: { accept: 'application/json', 'user-agent': 'Tourbook geocoder' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (!Array.isArray(body)) throw new Error('the answer is not a JSON array');
  return (body as NominatimPlace[]).flatMap((place) => {
    const lat = Number(place.lat);
    const lng = Number(place.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return [];
    const a = place.address ?? {};
    const street = a.road ?? a.pedestrian ?? a.footway ?? a.street ?? null;
    const city = a.city ?? a.town ?? a.village ?? a.municipality ?? a.hamlet ?? null;
    const kind: ProviderCandidate['kind'] = a.house_number && street ? 'house' : street ? 'street' : place.addresstype === 'postcode' || place.type === 'postcode' ? 'postcode' : 'city';
    return [{ lat, lng, street, number: a.house_number ?? null, zip: a.postcode ?? null, city, country: a.country_code?.toUpperCase() ?? null, kind, label: place.display_name ?? '' }];
  });
}
