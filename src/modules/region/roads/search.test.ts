// The road graph and its search against references (docs/decisions/1522-road-search.md): tags, one-way streets and
// turn restrictions on hand-made extracts, and the edge-based Dijkstra (matrices and routes) against Bellman-Ford on
// random graphs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OsmData, OsmNode, OsmRelation, OsmWay } from '../osm-data.ts';
import { buildRoadGraph, haversineM, type RoadGraph } from './graph.ts';
import { roadPath } from './path.ts';
import { roadMatrix, SearchWorkspace, type RoadPosition } from './search.ts';
import { buildSnapIndex } from './snap.ts';
import { carClass, onewayOf, parseMaxspeed, speedKmh } from './tags.ts';

function osm(nodes: OsmNode[], ways: OsmWay[], relations: OsmRelation[] = []): OsmData {
  return { nodes: new Map(nodes.map((n) => [n.id, n])), ways, relations, bbox: { minLat: 0, minLng: 0, maxLat: 1, maxLng: 1 } };
}

/** Node id i at (lat, lng) = (43.7 + row · 0.001, 7.4 + column · 0.001) on a grid of `size` columns. */
function gridNode(id: number, size: number): OsmNode {
  return { id, lat: 43.7 + Math.floor(id / size) * 0.001, lng: 7.4 + (id % size) * 0.001 };
}

/** Bellman-Ford over the edge states (an independent relaxation of every allowed turn until nothing changes). */
function reference(graph: RoadGraph, source: RoadPosition, target: RoadPosition): number {
  const edges = graph.edgeTo.length;
  const end = new Float64Array(edges).fill(Infinity);
  let best = Infinity;
  source.edges.forEach((e, k) => {
    end[e] = Math.min(end[e]!, (1 - source.fractions[k]!) * graph.edgeSeconds[e]!);
    target.edges.forEach((f, j) => {
      if (f === e && target.fractions[j]! >= source.fractions[k]!) best = Math.min(best, (target.fractions[j]! - source.fractions[k]!) * graph.edgeSeconds[e]!);
    });
  });
  const banned = (e: number, f: number): boolean => {
    for (let k = graph.bannedStart[e]!; k < graph.bannedStart[e + 1]!; k++) if (graph.bannedTo[k] === f) return true;
    return false;
  };
  for (let round = 0; round < edges + 1; round++) {
    let changed = false;
    for (let e = 0; e < edges; e++) {
      if (end[e] === Infinity) continue;
      for (let f = 0; f < edges; f++) {
        if (graph.edgeFrom[f] !== graph.edgeTo[e] || banned(e, f)) continue;
        if (end[e]! + graph.edgeSeconds[f]! < end[f]!) {
          end[f] = end[e]! + graph.edgeSeconds[f]!;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  target.edges.forEach((f, j) => {
    for (let e = 0; e < edges; e++) {
      if (graph.edgeTo[e] === graph.edgeFrom[f] && !banned(e, f) && end[e] !== Infinity) best = Math.min(best, end[e]! + target.fractions[j]! * graph.edgeSeconds[f]!);
    }
  });
  return best;
}

describe('road tags', () => {
  it('reads car access, one-way streets and speeds', () => {
    expect(carClass({ highway: 'residential' })).toBe('residential');
    expect(carClass({ highway: 'footway' })).toBeNull();
    expect(carClass({ highway: 'residential', access: 'private' })).toBeNull();
    expect(carClass({ highway: 'service', access: 'no', motorcar: 'yes' })).toBe('service');
    expect(carClass({ highway: 'primary', motor_vehicle: 'no' })).toBeNull();
    expect(onewayOf({ highway: 'residential', oneway: 'yes' })).toBe(1);
    expect(onewayOf({ highway: 'residential', oneway: '-1' })).toBe(-1);
    expect(onewayOf({ highway: 'residential', junction: 'roundabout' })).toBe(1);
    expect(onewayOf({ highway: 'motorway' })).toBe(1);
    expect(onewayOf({ highway: 'motorway', oneway: 'no' })).toBe(0);
    expect(onewayOf({ highway: 'residential' })).toBe(0);
    expect(parseMaxspeed('50')).toBe(50);
    expect(parseMaxspeed('30 mph')).toBeCloseTo(48.28, 2);
    expect(parseMaxspeed('FR:urban')).toBe(50);
    expect(parseMaxspeed('none')).toBeNull();
    expect(speedKmh({ maxspeed: '70' }, 'primary')).toBe(70);
    expect(speedKmh({}, 'living_street')).toBe(10);
  });
});

describe('road graph', () => {
  // A plus-shaped crossing: 0 west, 1 centre, 2 east, 3 north, 4 south.
  const nodes: OsmNode[] = [
    { id: 10, lat: 43.7, lng: 7.399 },
    { id: 11, lat: 43.7, lng: 7.4 },
    { id: 12, lat: 43.7, lng: 7.401 },
    { id: 13, lat: 43.701, lng: 7.4 },
    { id: 14, lat: 43.699, lng: 7.4 },
    { id: 15, lat: 43.701, lng: 7.401 },
    { id: 16, lat: 43.699, lng: 7.399 },
  ];
  const ways: OsmWay[] = [
    { id: 1, refs: [10, 11, 12], tags: { highway: 'residential' } },
    { id: 2, refs: [14, 11, 13], tags: { highway: 'residential', oneway: 'yes' } },
    // A ring round the crossing (north-east and south-west corners) so that every arm can be left again.
    { id: 3, refs: [13, 15, 12], tags: { highway: 'residential' } },
    { id: 4, refs: [14, 16, 10], tags: { highway: 'residential' } },
  ];
  const at = (graph: RoadGraph, lat: number, lng: number): RoadPosition => buildSnapIndex(graph).snap(lat, lng)!;

  it('splits ways at intersections and keeps one-way streets one way', () => {
    const graph = buildRoadGraph(osm(nodes, ways));
    expect(graph.nodeLat.length).toBe(5);
    expect(graph.edgeTo.length).toBe(4 + 2 + 2 + 2);
    const ws = new SearchWorkspace(graph);
    const south = at(graph, 43.6992, 7.4);
    const north = at(graph, 43.7008, 7.4);
    const { seconds, meters } = roadMatrix(ws, [south, north], [south, north]);
    // South to north is straight up the one-way street: 0.0016° of latitude, about 178 m.
    expect(meters[1]).toBeCloseTo(177.9, 0);
    // North to south goes round the ring (against the one-way street is no way).
    expect(meters[2]).toBeGreaterThan(400);
    expect(seconds[2]).toBeGreaterThan(seconds[1]!);
  });

  it('honours no_ and only_ turn restrictions at their via node', () => {
    const west = (graph: RoadGraph): RoadPosition => at(graph, 43.7, 7.3992);
    const north = (graph: RoadGraph): RoadPosition => at(graph, 43.7008, 7.4);
    const free = buildRoadGraph(osm(nodes, ways));
    const freeSeconds = roadMatrix(new SearchWorkspace(free), [west(free)], [north(free)]).seconds[0]!;

    const freeEast = (): number => roadMatrix(new SearchWorkspace(free), [west(free)], [at(free, 43.7, 7.4008)]).seconds[0]!;
    const member = (type: 'way' | 'node', ref: number, role: string) => ({ type, ref, role });
    const noLeft = buildRoadGraph(osm(nodes, ways, [{ id: 1, members: [member('way', 1, 'from'), member('node', 11, 'via'), member('way', 2, 'to')], tags: { type: 'restriction', restriction: 'no_left_turn' } }]));
    // West → north turns left at the crossing; without it the car goes round the ring to come up from the south.
    const restricted = roadMatrix(new SearchWorkspace(noLeft), [west(noLeft)], [north(noLeft)]).seconds[0]!;
    expect(restricted).toBeGreaterThan(freeSeconds + 20);
    expect(restricted).toBeLessThan(Infinity);

    const onlyStraight = buildRoadGraph(osm(nodes, ways, [{ id: 1, members: [member('way', 1, 'from'), member('node', 11, 'via'), member('way', 1, 'to')], tags: { type: 'restriction', restriction: 'only_straight_on' } }]));
    const east = at(onlyStraight, 43.7, 7.4008);
    const m = roadMatrix(new SearchWorkspace(onlyStraight), [west(onlyStraight)], [north(onlyStraight), east]);
    expect(m.seconds[0]).toBeCloseTo(restricted, 6);
    expect(m.seconds[1]).toBeCloseTo(freeEast(), 6);
    // A car from the south is not bound by it: the restriction is about arriving on way 1.
    const south = at(onlyStraight, 43.6992, 7.4);
    const fromSouth = roadMatrix(new SearchWorkspace(onlyStraight), [south], [north(onlyStraight)]).seconds[0]!;
    expect(fromSouth).toBeCloseTo(roadMatrix(new SearchWorkspace(free), [at(free, 43.6992, 7.4)], [north(free)]).seconds[0]!, 6);
  });

  it('snaps onto the edge and counts the part of it driven', () => {
    const graph = buildRoadGraph(osm(nodes, ways));
    const a = at(graph, 43.70005, 7.3993);
    const b = at(graph, 43.70005, 7.3998);
    const { seconds, meters } = roadMatrix(new SearchWorkspace(graph), [a], [b]);
    // 0.0005° of longitude at 43.7° N is about 40 m, along the same edge.
    expect(meters[0]).toBeGreaterThan(38);
    expect(meters[0]).toBeLessThan(42);
    expect(seconds[0]).toBeCloseTo(meters[0]! / (30 / 3.6), 5);
  });
});

describe('road search against Bellman-Ford', () => {
  const size = 5;
  const arbitrary = fc.record({
    ways: fc.array(
      fc.record({ from: fc.nat(size * size - 1), to: fc.nat(size * size - 1), via: fc.option(fc.nat(size * size - 1)), oneway: fc.constantFrom('yes', 'no', '-1'), maxspeed: fc.constantFrom('30', '50', '20 mph') }),
      { minLength: 3, maxLength: 30 },
    ),
    restrictions: fc.array(fc.record({ from: fc.nat(29), to: fc.nat(29), only: fc.boolean() }), { maxLength: 6 }),
    points: fc.array(fc.record({ lat: fc.double({ min: 43.7, max: 43.704, noNaN: true }), lng: fc.double({ min: 7.4, max: 7.404, noNaN: true }) }), { minLength: 2, maxLength: 5 }),
  });

  it('finds the fastest path between snapped points, turn restrictions included', () => {
    fc.assert(
      fc.property(arbitrary, ({ ways, restrictions, points }) => {
        const nodes = Array.from({ length: size * size }, (_, i) => gridNode(i, size));
        const osmWays: OsmWay[] = ways.flatMap((w, i) => {
          const refs = [w.from, ...(w.via === null ? [] : [w.via]), w.to].filter((r, k, all) => k === 0 || r !== all[k - 1]);
          return refs.length >= 2 ? [{ id: i + 1, refs, tags: { highway: 'residential', oneway: w.oneway, maxspeed: w.maxspeed } }] : [];
        });
        const relations: OsmRelation[] = restrictions.flatMap((r, i) => {
          const from = osmWays[r.from % Math.max(1, osmWays.length)];
          const to = osmWays[r.to % Math.max(1, osmWays.length)];
          const via = from && to ? from.refs.find((ref) => to.refs.includes(ref)) : undefined;
          if (!from || !to || via === undefined) return [];
          const members = [
            { type: 'way' as const, ref: from.id, role: 'from' },
            { type: 'node' as const, ref: via, role: 'via' },
            { type: 'way' as const, ref: to.id, role: 'to' },
          ];
          return [{ id: i + 1, members, tags: { type: 'restriction', restriction: r.only ? 'only_straight_on' : 'no_right_turn' } }];
        });
        const graph = buildRoadGraph(osm(nodes, osmWays, relations));
        if (graph.edgeTo.length === 0) return;
        const index = buildSnapIndex(graph);
        const positions = points.map((p) => index.snap(p.lat, p.lng)).filter((p): p is NonNullable<typeof p> => p !== null);
        const workspace = new SearchWorkspace(graph);
        const { seconds, meters } = roadMatrix(workspace, positions, positions);
        positions.forEach((s, i) =>
          positions.forEach((t, j) => {
            const expected = reference(graph, s, t);
            const actual = seconds[i * positions.length + j]!;
            // The route between the two (roads/path.ts): as fast as the matrix says, from one point to the other
            // along shapes whose length is its meters.
            const path = roadPath(workspace, s, t);
            if (expected === Infinity) {
              expect(actual).toBe(Infinity);
              expect(path).toBeNull();
              return;
            }
            expect(actual).toBeCloseTo(expected, 6);
            expect(path!.seconds).toBeCloseTo(expected, 6);
            expect(path!.meters).toBeCloseTo(meters[i * positions.length + j]!, 3);
            const line = path!.coordinates;
            expect(line[0]![0]).toBeCloseTo(s.lng, 5);
            expect(line[0]![1]).toBeCloseTo(s.lat, 5);
            expect(line[line.length - 1]![0]).toBeCloseTo(t.lng, 5);
            expect(line[line.length - 1]![1]).toBeCloseTo(t.lat, 5);
            let length = 0;
            for (let k = 1; k < line.length; k++) length += haversineM(line[k - 1]![1], line[k - 1]![0], line[k]![1], line[k]![0]);
            expect(Math.abs(length - path!.meters)).toBeLessThan(1 + path!.meters * 0.01);
          }),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('road graph encoding', () => {
  it('decodes what it encodes, and refuses a truncated or foreign blob', async () => {
    const { encodeRoadGraph, decodeRoadGraph } = await import('./encoding.ts');
    const nodes = Array.from({ length: 9 }, (_, i) => gridNode(i, 3));
    const graph = buildRoadGraph(osm(nodes, [{ id: 1, refs: [0, 1, 2, 5, 8], tags: { highway: 'residential', oneway: 'yes' } }, { id: 2, refs: [3, 4, 5], tags: { highway: 'primary' } }]));
    const bytes = encodeRoadGraph(graph);
    const decoded = decodeRoadGraph(bytes);
    for (const [name, array] of Object.entries(graph)) expect(Array.from(decoded[name as keyof RoadGraph])).toEqual(Array.from(array as ArrayLike<number>));
    // Stored bytes may come back at an odd offset of a larger buffer.
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(decodeRoadGraph(shifted.subarray(3)).edgeSeconds).toEqual(graph.edgeSeconds);
    expect(() => decodeRoadGraph(bytes.subarray(0, bytes.length - 16))).toThrow('truncated');
    expect(() => decodeRoadGraph(new TextEncoder().encode('<osm version="0.6"></osm> plus padding bytes until the header would end, and more than that'))).toThrow('not a road graph');
  });
});
