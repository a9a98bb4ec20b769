// Local protocol peers for the provider adapters' tests (the only stand-ins, docs/testing.md): a Nominatim that
// answers `/search?format=jsonv2&addressdetails=1&q=` as its API documents (a JSON array; lat/lon strings; an
// `address` object with house_number, road, postcode, city, country_code) and a Photon that answers `/api?q=` with a
// GeoJSON FeatureCollection (coordinates [lon, lat]; properties housenumber, street, postcode, city, countrycode,
// type). Both search a small gazetteer by the words of the query.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GazetteerEntry {
  lat: number;
  lng: number;
  number?: string;
  street?: string;
  zip: string;
  city: string;
  country: string;
}

export interface Peer {
  url: string;
  /** Requests received, with their arrival time (performance.now()). */
  requests: { url: string; at: number }[];
  /** `down`: answer 503; `slow`: never answer. */
  mode: 'up' | 'down' | 'slow';
  close(): Promise<void>;
}

const words = (text: string) => text.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

function search(gazetteer: readonly GazetteerEntry[], q: string): GazetteerEntry[] {
  const wanted = words(q);
  return gazetteer.filter((e) => {
    const have = new Set(words([e.number, e.street, e.zip, e.city].filter(Boolean).join(' ')));
    return wanted.every((w) => have.has(w));
  });
}

function nominatimPlace(e: GazetteerEntry) {
  const address: Record<string, string> = { postcode: e.zip, city: e.city, country: e.country === 'MC' ? 'Monaco' : 'France', country_code: e.country.toLowerCase() };
  if (e.street) address.road = e.street;
  if (e.number) address.house_number = e.number;
  const type = e.number ? 'house' : e.street ? 'residential' : 'city';
  return {
    place_id: Math.floor(e.lat * 1e6),
    licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
    osm_type: 'node',
    osm_id: Math.floor(e.lng * 1e6),
    lat: e.lat.toFixed(7),
    lon: e.lng.toFixed(7),
    category: e.number ? 'place' : e.street ? 'highway' : 'boundary',
    type,
    place_rank: e.number ? 30 : e.street ? 26 : 16,
    importance: 0.1,
    addresstype: e.number ? 'place' : e.street ? 'road' : 'city',
    name: e.street ?? e.city,
    display_name: [[e.number, e.street].filter(Boolean).join(' '), e.city, e.zip, address.country].filter(Boolean).join(', '),
    address,
    boundingbox: [String(e.lat - 0.0001), String(e.lat + 0.0001), String(e.lng - 0.0001), String(e.lng + 0.0001)],
  };
}

function photonFeature(e: GazetteerEntry) {
  const properties: Record<string, string | number> = { osm_type: 'N', osm_id: Math.floor(e.lng * 1e6), countrycode: e.country, postcode: e.zip, city: e.city, country: e.country === 'MC' ? 'Monaco' : 'France' };
  if (e.number && e.street) Object.assign(properties, { housenumber: e.number, street: e.street, type: 'house', osm_key: 'place', osm_value: 'house' });
  else if (e.street) Object.assign(properties, { name: e.street, type: 'street', osm_key: 'highway', osm_value: 'residential' });
  else Object.assign(properties, { name: e.city, type: 'city', osm_key: 'place', osm_value: 'city' });
  return { type: 'Feature', geometry: { type: 'Point', coordinates: [e.lng, e.lat] }, properties };
}

export async function startGeocoderPeer(kind: 'nominatim' | 'photon', gazetteer: readonly GazetteerEntry[]): Promise<Peer> {
  const peer: Peer = { url: '', requests: [], mode: 'up', close: async () => undefined };
  const server = http.createServer((req, res) => {
    peer.requests.push({ url: req.url ?? '', at: performance.now() });
    if (peer.mode === 'slow') return;
    if (peer.mode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://peer');
    const q = url.searchParams.get('q') ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const found = search(gazetteer, q).slice(0, limit);
    if (kind === 'nominatim' && url.pathname === '/search' && url.searchParams.get('format') === 'jsonv2') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(found.map(nominatimPlace)));
    } else if (kind === 'photon' && url.pathname === '/api') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ type: 'FeatureCollection', features: found.map(photonFeature) }));
    } else {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 400, message: 'Parameter q missing or format unsupported' } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}
