// Travel times for the optimiser: the ETA routing as a matrix, straight lines or OSRM's table service with fallback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOsrmResponder, type OsrmResponder } from '../../../test/osrm-responder.ts';
import { haversineMeters } from './geo.ts';
import { straightLineLegSeconds } from './routing.ts';
import { travelTimes } from './travel-times.ts';

const alex = { lat: 52.5219, lng: 13.4132 };
const zoo = { lat: 52.5074, lng: 13.3326 };
const tempelhof = { lat: 52.4733, lng: 13.4039 };
const points = [alex, zoo, tempelhof];
const straight = (config: { osrmUrl: string | null }) => ({ ...config, live: { osrmTimeoutMs: 2_000 } }) as Parameters<typeof travelTimes.matrixSeconds>[0];

describe('travel matrix', () => {
  let responder: OsrmResponder;
  beforeAll(async () => {
    responder = await startOsrmResponder();
  });
  afterAll(async () => responder.close());

  it('is the ETA legs between every pair by straight line, zero on the diagonal', async () => {
    const matrix = await travelTimes.matrixSeconds(straight({ osrmUrl: null }), points, 30);
    expect(matrix.map((row) => row.length)).toEqual([3, 3, 3]);
    for (const [i, a] of points.entries()) {
      for (const [j, b] of points.entries()) expect(matrix[i]![j]).toBeCloseTo(i === j ? 0 : straightLineLegSeconds([a, b], 30)[0]!, 6);
    }
  });

  it("uses OSRM's table service when configured, coordinates as lng,lat", async () => {
    responder.mode = 'ok';
    const matrix = await travelTimes.matrixSeconds(straight({ osrmUrl: responder.url }), points, 30);
    expect(matrix[0]![1]).toBeCloseTo(haversineMeters(alex, zoo) / 10, 3);
    expect(matrix[2]![0]).toBeCloseTo(haversineMeters(tempelhof, alex) / 10, 3);
    expect(responder.requests.at(-1)).toBe('/table/v1/driving/13.413200,52.521900;13.332600,52.507400;13.403900,52.473300');
  });

  it.each(['server_error', 'invalid_query', 'not_json'] as const)('falls back to straight lines when OSRM answers %s', async (mode) => {
    responder.mode = mode;
    const matrix = await travelTimes.matrixSeconds(straight({ osrmUrl: responder.url }), points, 30);
    expect(matrix[0]![1]).toBeCloseTo(straightLineLegSeconds([alex, zoo], 30)[0]!, 6);
  });
});
