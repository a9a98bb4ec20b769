// Photon's search API (https://github.com/komoot/photon#search-api): `/api?q=…&limit=…` answers a GeoJSON
// FeatureCollection; each feature's point is [lon, lat] and its properties carry housenumber, street, postcode, city,
// countrycode and `type` (house, street, city, …).
import type { ProviderCandidate } from './provider.ts';

interface PhotonFeature {
  geometry?: { type?: string; coordinates?: [number, number] };
  properties?: Record<string, string | undefined>;
}

export async function photonSearch(baseUrl: string, text: string, signal: AbortSignal): Promise<ProviderCandidate[]> {
  const url = `${baseUrl}/api?${new URLSearchParams({ q: text, limit: '10' })}`;
  const res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = (await res.json()) as { type?: string; features?: PhotonFeature[] };
  if (body?.type !== 'FeatureCollection' || !Array.isArray(body.features)) throw new Error('the answer is not a GeoJSON FeatureCollection');
  return body.features.flatMap((feature) => {
    const [lng, lat] = feature.geometry?.coordinates ?? [];
    if (typeof lat !== 'number' || typeof lng !== 'number') return [];
    const p = feature.properties ?? {};
    // A street feature names the street in `name`; an address feature in `street`.
    const street = p.street ?? (p.type === 'street' ? (p.name ?? null) : null);
    const kind: ProviderCandidate['kind'] = p.housenumber && street ? 'house' : street ? 'street' : p.osm_value === 'postcode' || p.type === 'postcode' ? 'postcode' : 'city';
    const label = [[p.housenumber, street].filter(Boolean).join(' ') || p.name, [p.postcode, p.city].filter(Boolean).join(' '), p.country].filter(Boolean).join(', ');
    return [{ lat, lng, street, number: p.housenumber ?? null, zip: p.postcode ?? null, city: p.city ?? null, country: p.countrycode?.toUpperCase() ?? null, kind, label }];
  });
}
