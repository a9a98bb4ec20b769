import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsrmResponder, type OsrmResponder } from '../../../test/osrm-responder.ts';
import { haversineMeters } from './geo.ts';
import { DETOUR_FACTOR, osrm, straightLine, type FallbackReason } from './routing.ts';

const alex = { lat: 52.5219, lng: 13.4132 };
const zoo = { lat: 52.5074, lng: 13.3326 };
const tempelhof = { lat: 52.4733, lng: 13.4039 };

describe('straight-line routing', () => {
  it('travels haversine × 1.3 at the given speed', async () => {
    const [leg] = await straightLine.legSeconds([alex, zoo], 30);
    expect(leg).toBeCloseTo((haversineMeters(alex, zoo) * DETOUR_FACTOR) / (30 / 3.6), 6);
  });
  it('gives one leg per consecutive pair', async () => {
    expect(await straightLine.legSeconds([alex, zoo, tempelhof], 30)).toHaveLength(2);
    expect(await straightLine.legSeconds([alex], 30)).toEqual([]);
  });
});

describe('OSRM routing against a loopback responder', () => {
  let responder: OsrmResponder;
  const fallbacks: FallbackReason[] = [];
  const provider = () => osrm({ url: responder.url, timeoutMs: 300, onFallback: (reason) => fallbacks.push(reason) });
  beforeAll(async () => {
    responder = await startOsrmResponder();
  });
  afterAll(async () => {
    await responder.close();
  });

  it('uses the legs of the route service, coordinates as lng,lat', async () => {
    responder.mode = 'ok';
    fallbacks.length = 0;
    const legs = await provider().legSeconds([alex, zoo, tempelhof], 30);
    expect(legs[0]).toBeCloseTo(haversineMeters(alex, zoo) / 10, 3);
    expect(legs[1]).toBeCloseTo(haversineMeters(zoo, tempelhof) / 10, 3);
    expect(responder.requests.at(-1)).toBe('/route/v1/driving/13.413200,52.521900;13.332600,52.507400;13.403900,52.473300');
    expect(fallbacks).toEqual([]);
  });

  it('asks long routes in chunks and joins their legs', async () => {
    responder.mode = 'ok';
    const points = Array.from({ length: 150 }, (_, i) => ({ lat: 52.4 + i / 1000, lng: 13.4 }));
    const before = responder.requests.length;
    const legs = await provider().legSeconds(points, 30);
    expect(legs).toHaveLength(149);
    expect(responder.requests.length - before).toBe(2);
    expect(legs[120]).toBeCloseTo(haversineMeters(points[120]!, points[121]!) / 10, 3);
  });

  it.each([
    ['an OSRM error code', 'invalid_query', 'bad_response'],
    ['a 500', 'server_error', 'bad_response'],
    ['an answer that is not JSON', 'not_json', 'bad_response'],
    ['no answer within the timeout', 'slow', 'timeout'],
  ] as const)('falls back to straight lines on %s and counts it', async (_name, mode, reason) => {
    responder.mode = mode;
    fallbacks.length = 0;
    const legs = await provider().legSeconds([alex, zoo], 30);
    expect(legs).toEqual(await straightLine.legSeconds([alex, zoo], 30));
    expect(fallbacks).toEqual([reason]);
  });

  it('falls back when nothing listens', async () => {
    fallbacks.length = 0;
    const legs = await osrm({ url: 'http://127.0.0.1:9', timeoutMs: 300, onFallback: (r) => fallbacks.push(r) }).legSeconds([alex, zoo], 30);
    expect(legs).toHaveLength(1);
    expect(fallbacks).toEqual(['error']);
  });
});
