// Geocoding against the Monaco region (issue 37). The expected coordinates were derived independently of our reader,
// with osmium-tool: `osmium tags-filter regions/monaco.osm.pbf nwr/addr:housenumber -o a.osm` then `osmium export
// a.osm -f geojsonseq` (a node's point; a building's ring, its vertices' mean) — house precision within 50 m.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { createPlace, createUser, expectOk } from '../../../../test/factories.ts';
import { distanceM } from '../geometry.ts';
import { importRegion } from '../import.ts';
import { geocode, geocodeAddress } from './geocoder.ts';
import { startGeocoderPeer, type GazetteerEntry, type Peer } from './peers.ts';
import { createProvider } from './provider.ts';

const MONACO = path.resolve(import.meta.dirname, '../../../../regions/monaco.osm.pbf');

/** Real addresses of the extract, as a person writes them, with osmium's coordinates. */
const HOUSES: [query: string, lat: number, lng: number][] = [
  ['6 Quai Antoine 1er, 98000 Monaco', 43.732922, 7.42579],
  ['Quai Antoine 1er 6', 43.732922, 7.42579],
  ['10 Avenue Princesse Grace, Monaco', 43.743377, 7.431721],
  ['10 av. princesse grace', 43.743377, 7.431721],
  ['AVENUE PRINCESSE GRACE 10, 98000 MONACO', 43.743377, 7.431721],
  ['20 Avenue Crovetto-Frères, 98000 Monaco', 43.733089, 7.416364],
  ['20 Avenue Crovetto Freres', 43.733089, 7.416364],
  ["54 Boulevard d'Italie, Monaco", 43.748772, 7.434803],
  ['54 bd d italie', 43.748772, 7.434803],
  ['Rue du Château 20, 06360 Èze', 43.728121, 7.361265],
  ['20 rue du chateau, 06360 eze', 43.728121, 7.361265],
  ['3 Place du Campanin', 43.72797, 7.417906],
  ['3 pl. du Campanin', 43.72797, 7.417906],
  ['5b Bd Albert 1er', 43.733438, 7.421488],
  ['5 B Boulevard Albert 1er, 98000 Monaco', 43.733438, 7.421488],
  ['Avenue de Verdun 244, 06360 Èze', 43.73052, 7.363225],
  ["17 Avenue de l'Annonciade", 43.7483, 7.431053],
  ['1 Avenue Pierre Weck, 06320 Cap-d’Ail', 43.722049, 7.396081],
  ['22 Avenue de Grande-Bretagne', 43.743289, 7.429115],
  ['6 Quai Antoine 1er, 98000 Monaco, MC', 43.732922, 7.42579],
];

/** Streets of the extract asked without a number, or with one OSM does not have. */
const STREETS: [query: string, street: string][] = [
  ['Boulevard des Moulins, 98000 Monaco', 'Boulevard des Moulins'],
  ['12 Boulevard des Moulins, 98000 Monaco', 'Boulevard des Moulins'],
  ['Boulevard des Moulins 12', 'Boulevard des Moulins'],
  ['Rue Grimaldi', 'Rue Grimaldi'],
  ['rue grimaldi 999', 'Rue Grimaldi'],
  ['Av. de la Costa', 'Avenue de la Costa'],
  // A shop export's Country column ends the line: the country, not more words of the city.
  ['Boulevard des Moulins 1, 98000 Monaco, MC', 'Boulevard des Moulins'],
  ['3 Avenue de la Costa, 98000 Monaco, Monaco', 'Avenue de la Costa'],
];

const UNKNOWN = ['Rue Inconnue', '12 Rue Inconnue, 98000 Monaco', 'Hauptstraße 5, Berlin'];

describe('geocoding on the Monaco region', { timeout: 120_000 }, () => {
  let t: TestApp;
  let tenant: TestTenant;
  beforeAll(async () => {
    t = await buildTestApp();
    tenant = await t.createTenant();
    await importRegion(t.deps, MONACO, { name: 'monaco' });
  }, 240_000);
  afterAll(async () => t?.close());

  const ask = async (q: string) => (await expectOk(tenant.admin.get(`/api/geocode?q=${encodeURIComponent(q)}`))).results as {
    label: string;
    location: { lat: number; lng: number };
    address: { street: string | null; number: string | null };
    precision: string;
    source: string;
    fuzzy?: true;
  }[];

  for (const [q, lat, lng] of HOUSES) {
    it(`"${q}" → house within 50 m`, async () => {
      const [first] = await ask(q);
      expect(first, q).toMatchObject({ precision: 'house', source: 'region' });
      expect(first!.fuzzy).toBeUndefined();
      expect(distanceM(first!.location, { lat, lng })).toBeLessThan(50);
    });
  }

  for (const [q, street] of STREETS) {
    it(`"${q}" → street ${street}`, async () => {
      const [first] = await ask(q);
      expect(first, q).toMatchObject({ precision: 'street', source: 'region', address: { street } });
      expect(first!.fuzzy).toBeUndefined();
      expect(first!.location.lat).toBeGreaterThan(43.71);
      expect(first!.location.lat).toBeLessThan(43.77);
    });
  }

  for (const q of UNKNOWN) {
    it(`"${q}" → nothing, or only fuzzy suggestions and localities`, async () => {
      const results = await ask(q);
      for (const r of results) expect(r.fuzzy === true || r.precision === 'postcode' || r.precision === 'city', JSON.stringify(r)).toBe(true);
    });
  }

  it('a misspelt street is a fuzzy suggestion after nothing exact; never a best placement', async () => {
    const results = await ask('Boulevard des Mouli');
    expect(results[0]).toMatchObject({ fuzzy: true, address: { street: 'Boulevard des Moulins' } });
    const { best, closest } = await geocodeAddress(t.deps.db, tenant.tenantId, { line: 'Boulevard des Mouli 12' });
    expect(best).toBeNull();
    expect(closest?.address.street).toBe('Boulevard des Moulins');
  });

  it('postcodes and cities: precision postcode/city, from the boundaries (Monaco, the French communes)', async () => {
    expect((await ask('98000'))[0]).toMatchObject({ precision: 'postcode', address: { zip_code: '98000' } });
    for (const city of ['Beausoleil', 'Cap-d’Ail', 'Roquebrune-Cap-Martin', 'La Turbie', 'Èze', 'eze']) {
      const results = await ask(city);
      expect(results.some((r) => r.precision === 'city'), city).toBe(true);
    }
  });

  it("the tenant's own place comes first; a customer geocodes with its own places only", async () => {
    // A tenant of its own: the other tests ask for the region's answer to the same address.
    const own = await t.createTenant();
    const mine = await createPlace(own.admin, { location: { lat: 43.7333, lng: 7.4166 }, address: { street: 'Avenue Crovetto-Frères', number: '20', zip_code: '98000', city: 'Monaco', country: 'MC' } });
    const [first, second] = (await expectOk(own.admin.get(`/api/geocode?q=${encodeURIComponent('20 Avenue Crovetto Frères')}`))).results;
    expect(first).toMatchObject({ source: 'places', precision: 'house', location: mine.location });
    // The region's same door (same label) is not repeated after the place.
    expect(second?.label ?? '').not.toBe(first.label);
    const customer = await createUser(own.admin, { role: 'customer' });
    const theirs = (await expectOk(customer.client.get(`/api/geocode?q=${encodeURIComponent('20 Avenue Crovetto Frères')}`))).results;
    expect(theirs[0].source).toBe('region');
    expect((await expectOk(tenant.admin.get(`/api/geocode?q=${encodeURIComponent('20 Avenue Crovetto Frères')}`))).results[0].source).toBe('region');
  });

  it('at most 10 results; drivers may not geocode; bad input is a 4xx with its pointer', async () => {
    expect((await ask('Avenue')).length).toBeLessThanOrEqual(10);
    const driver = await createUser(tenant.admin, { role: 'driver' });
    expect((await driver.client.get('/api/geocode?q=Rue%20Grimaldi')).status).toBe(403);
    const empty = await tenant.admin.get('/api/geocode?q=');
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('q');
    expect((await tenant.admin.get('/api/geocode')).status).toBe(400);
    expect((await tenant.admin.get('/api/geocode?q=x&service_area_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await tenant.admin.get('/api/regions')).status).toBe(200);
    expect((await driver.client.get('/api/regions')).status).toBe(403);
  });

  it('GET /api/regions lists Monaco with its counts', async () => {
    const { regions } = await expectOk(tenant.admin.get('/api/regions'));
    expect(regions).toEqual([
      expect.objectContaining({ name: 'monaco', bbox: expect.objectContaining({ min_lng: expect.closeTo(7.349, 3) }), addresses: expect.any(Number), streets: expect.any(Number), road_nodes: expect.any(Number), road_edges: expect.any(Number) }),
    ]);
    expect(regions[0].addresses).toBeGreaterThan(50);
  });

  describe('providers after the region', () => {
    const GAZETTEER: GazetteerEntry[] = [
      { lat: 43.7401, lng: 7.4277, number: '12', street: 'Boulevard des Moulins', zip: '98000', city: 'Monaco', country: 'MC' },
      { lat: 43.7312, lng: 7.4198, number: '7', street: 'Rue Grimaldi', zip: '98000', city: 'Monaco', country: 'MC' },
    ];
    let peers: Record<'nominatim' | 'photon', Peer>;
    beforeAll(async () => {
      peers = { nominatim: await startGeocoderPeer('nominatim', GAZETTEER), photon: await startGeocoderPeer('photon', GAZETTEER) };
    });
    afterAll(async () => {
      await peers?.nominatim.close();
      await peers?.photon.close();
    });
    const provider = (kind: 'nominatim' | 'photon', options: { requestsPerSecond?: number; timeoutMs?: number } = {}) =>
      createProvider({ kind, url: peers[kind].url, requestsPerSecond: options.requestsPerSecond ?? 1000, timeoutMs: options.timeoutMs ?? 2000, cacheSize: 100 });

    for (const kind of ['nominatim', 'photon'] as const) {
      it(`${kind}: a house the region lacks comes from the provider, precision house; the answer is cached`, async () => {
        const p = provider(kind);
        const before = peers[kind].requests.length;
        const { results } = await geocode(t.deps.db, tenant.tenantId, { line: '12 Boulevard des Moulins, 98000 Monaco' }, { provider: p });
        expect(results[0]).toMatchObject({ source: kind, precision: 'house', location: { lat: 43.7401, lng: 7.4277 }, address: { number: '12', zip_code: '98000', country: 'MC' } });
        expect(results.some((r) => r.source === 'region' && r.precision === 'street')).toBe(true);
        await geocode(t.deps.db, tenant.tenantId, { line: '12 Boulevard des Moulins, 98000 Monaco' }, { provider: p });
        expect(peers[kind].requests.length - before).toBe(1);
        expect(peers[kind].requests.at(-1)!.url).toMatch(kind === 'nominatim' ? /^\/search\?format=jsonv2&addressdetails=1/ : /^\/api\?q=/);
      });

      it(`${kind}: not asked when the region has the house`, async () => {
        const before = peers[kind].requests.length;
        const { results } = await geocode(t.deps.db, tenant.tenantId, { line: '6 Quai Antoine 1er' }, { provider: provider(kind) });
        expect(results[0]).toMatchObject({ source: 'region', precision: 'house' });
        expect(peers[kind].requests.length).toBe(before);
      });

      it(`${kind}: an outage or a timeout is "not found" with a reason, never an error`, async () => {
        peers[kind].mode = 'down';
        try {
          const down = await geocode(t.deps.db, tenant.tenantId, { line: '7 Rue Inconnue, 98000 Monaco' }, { provider: provider(kind) });
          expect(down.results.every((r) => r.source === 'region')).toBe(true);
          expect(down.notice).toMatch(new RegExp(`${kind} is unavailable \\(HTTP 503\\)`));
          peers[kind].mode = 'slow';
          const slow = await geocode(t.deps.db, tenant.tenantId, { line: '8 Rue Inconnue' }, { provider: provider(kind, { timeoutMs: 200 }) });
          expect(slow.notice).toBe(`${kind} did not answer within 200 ms`);
        } finally {
          peers[kind].mode = 'up';
        }
      });
    }

    it('the provider rate is kept: a query that would wait past the timeout for its slot is not sent', async () => {
      const before = peers.nominatim.requests.length;
      const strict = provider('nominatim', { requestsPerSecond: 0.01, timeoutMs: 500 });
      await geocode(t.deps.db, tenant.tenantId, { line: '12 Rue Inconnue' }, { provider: strict });
      const refused = await geocode(t.deps.db, tenant.tenantId, { line: '13 Rue Inconnue' }, { provider: strict });
      expect(refused.notice).toMatch(/nominatim is busy \(at most 0\.01 request\(s\) per second\)/);
      expect(peers.nominatim.requests.length - before).toBe(1);
    });
  });
});
