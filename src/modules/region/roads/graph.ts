// The drivable road graph of a region (docs/decisions/1520-road-graph.md): intersections as nodes, the road between two
// of them as one directed edge per direction a car may drive it, its shape kept for routes; adjacency in CSR form over
// typed arrays so that one process holds a city's graph compactly and searches it without per-node objects.
import type { OsmData, OsmNode } from '../osm-data.ts';
import { carClass, onewayOf, speedKmh } from './tags.ts';

export interface RoadGraph {
  /** Graph nodes (intersections and road ends). */
  nodeLat: Float64Array;
  nodeLng: Float64Array;
  /** CSR adjacency: the edges leaving node n are firstEdge[n] … firstEdge[n + 1] - 1. */
  firstEdge: Uint32Array;
  edgeFrom: Uint32Array;
  edgeTo: Uint32Array;
  edgeSeconds: Float32Array;
  edgeMeters: Float32Array;
  /** The same road driven the other way, or -1 (one-way). */
  edgeTwin: Int32Array;
  /** Edge e's shape is shapeLat/shapeLng[shapeStart[e] … shapeStart[e + 1] - 1], from its start node to its end node. */
  shapeStart: Uint32Array;
  shapeLat: Float64Array;
  shapeLng: Float64Array;
  /** Turns a car may not take: from edge e, the edges bannedTo[bannedStart[e] … bannedStart[e + 1] - 1] are forbidden. */
  bannedStart: Uint32Array;
  bannedTo: Uint32Array;
}

const EARTH_RADIUS_M = 6_371_008.8;

export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

interface DraftEdge {
  from: number;
  to: number;
  seconds: number;
  meters: number;
  wayId: number;
  twin: number;
  shape: OsmNode[];
}

/** Restriction relations this graph honours: `type=restriction`, a `from` way, a `via` node, a `to` way (decision 1521). */
interface Restriction {
  from: number;
  via: number;
  to: number;
  only: boolean;
}

function restrictionsOf(osm: OsmData): Restriction[] {
  const restrictions: Restriction[] = [];
  for (const relation of osm.relations) {
    if (relation.tags['type'] !== 'restriction') continue;
    const kind = relation.tags['restriction:motorcar'] ?? relation.tags['restriction'];
    if (!kind || !(kind.startsWith('no_') || kind.startsWith('only_'))) continue;
    const except = (relation.tags['except'] ?? '').split(';').map((s) => s.trim());
    if (except.includes('motorcar') || except.includes('motor_vehicle')) continue;
    const from = relation.members.filter((m) => m.role === 'from' && m.type === 'way');
    const via = relation.members.filter((m) => m.role === 'via');
    const to = relation.members.filter((m) => m.role === 'to' && m.type === 'way');
    // Via-way restrictions (a sequence of ways) are rare and not modelled: decision 1521.
    if (from.length !== 1 || to.length !== 1 || via.length !== 1 || via[0]!.type !== 'node') continue;
    restrictions.push({ from: from[0]!.ref, via: via[0]!.ref, to: to[0]!.ref, only: kind.startsWith('only_') });
  }
  return restrictions;
}

/** Builds the car graph of an extract. */
export function buildRoadGraph(osm: OsmData): RoadGraph {
  const restrictions = restrictionsOf(osm);
  const drivable = osm.ways.flatMap((way) => {
    const highway = carClass(way.tags);
    return highway ? [{ way, highway }] : [];
  });
  // A node is a graph node where roads meet or end, or where a restriction turns: count how often ways use it.
  const uses = new Map<number, number>();
  for (const { way } of drivable) {
    way.refs.forEach((ref, i) => {
      const end = i === 0 || i === way.refs.length - 1;
      uses.set(ref, (uses.get(ref) ?? 0) + (end ? 2 : 1));
    });
  }
  for (const r of restrictions) if (uses.has(r.via)) uses.set(r.via, 2);

  const graphNode = new Map<number, number>();
  const nodes: OsmNode[] = [];
  const nodeIndex = (node: OsmNode): number => {
    let index = graphNode.get(node.id);
    if (index === undefined) {
      index = nodes.length;
      graphNode.set(node.id, index);
      nodes.push(node);
    }
    return index;
  };

  const edges: DraftEdge[] = [];
  for (const { way, highway } of drivable) {
    const oneway = onewayOf(way.tags);
    const metersPerSecond = speedKmh(way.tags, highway) / 3.6;
    let chain: OsmNode[] = [];
    const close = (): void => {
      if (chain.length >= 2) {
        let meters = 0;
        for (let i = 1; i < chain.length; i++) meters += haversineM(chain[i - 1]!.lat, chain[i - 1]!.lng, chain[i]!.lat, chain[i]!.lng);
        const from = nodeIndex(chain[0]!);
        const to = nodeIndex(chain[chain.length - 1]!);
        const seconds = meters / metersPerSecond;
        const forward = oneway >= 0 ? edges.push({ from, to, seconds, meters, wayId: way.id, twin: -1, shape: chain }) - 1 : -1;
        if (oneway <= 0) {
          const backward = edges.push({ from: to, to: from, seconds, meters, wayId: way.id, twin: forward, shape: [...chain].reverse() }) - 1;
          if (forward >= 0) edges[forward]!.twin = backward;
        }
      }
    };
    for (const ref of way.refs) {
      const node = osm.nodes.get(ref);
      // The extract cut the way at its border: the road stops here.
      if (!node) {
        close();
        chain = [];
        continue;
      }
      chain.push(node);
      if (chain.length > 1 && (uses.get(ref) ?? 0) >= 2) {
        close();
        chain = [node];
      }
    }
    close();
  }
  return toCsr(nodes, edges, restrictions, graphNode);
}

function toCsr(nodes: readonly OsmNode[], draft: readonly DraftEdge[], restrictions: readonly Restriction[], graphNode: ReadonlyMap<number, number>): RoadGraph {
  const nodeCount = nodes.length;
  const edgeCount = draft.length;
  // Order the edges by their start node (a counting sort keeps it linear).
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (const e of draft) firstEdge[e.from + 1]!++;
  for (let n = 0; n < nodeCount; n++) firstEdge[n + 1]! += firstEdge[n]!;
  const cursor = firstEdge.slice(0, nodeCount);
  const position = new Uint32Array(edgeCount);
  draft.forEach((e, i) => (position[i] = cursor[e.from]!++));

  const edgeFrom = new Uint32Array(edgeCount);
  const edgeTo = new Uint32Array(edgeCount);
  const edgeSeconds = new Float32Array(edgeCount);
  const edgeMeters = new Float32Array(edgeCount);
  const edgeTwin = new Int32Array(edgeCount);
  const shapeCounts = new Uint32Array(edgeCount);
  draft.forEach((e, i) => {
    const p = position[i]!;
    edgeFrom[p] = e.from;
    edgeTo[p] = e.to;
    edgeSeconds[p] = e.seconds;
    edgeMeters[p] = e.meters;
    edgeTwin[p] = e.twin < 0 ? -1 : position[e.twin]!;
    shapeCounts[p] = e.shape.length;
  });
  const shapeStart = new Uint32Array(edgeCount + 1);
  for (let p = 0; p < edgeCount; p++) shapeStart[p + 1] = shapeStart[p]! + shapeCounts[p]!;
  const shapeLat = new Float64Array(shapeStart[edgeCount]!);
  const shapeLng = new Float64Array(shapeStart[edgeCount]!);
  draft.forEach((e, i) => {
    let s = shapeStart[position[i]!]!;
    for (const node of e.shape) {
      shapeLat[s] = node.lat;
      shapeLng[s++] = node.lng;
    }
  });

  // Turn restrictions as banned (from edge, to edge) pairs at their via node: `no_*` bans the named turn, `only_*`
  // bans every other way out of the via node for a car arriving on the from way.
  const wayOf = new Float64Array(edgeCount);
  draft.forEach((e, i) => (wayOf[position[i]!] = e.wayId));
  const viaNodes = new Set<number>();
  for (const r of restrictions) {
    const via = graphNode.get(r.via);
    if (via !== undefined) viaNodes.add(via);
  }
  const inEdges = new Map<number, number[]>();
  for (let e = 0; e < edgeCount; e++) if (viaNodes.has(edgeTo[e]!)) inEdges.set(edgeTo[e]!, [...(inEdges.get(edgeTo[e]!) ?? []), e]);
  const banned = new Map<number, Set<number>>();
  for (const r of restrictions) {
    const via = graphNode.get(r.via);
    if (via === undefined) continue;
    const outs: number[] = [];
    for (let f = firstEdge[via]!; f < firstEdge[via + 1]!; f++) outs.push(f);
    const toEdges = outs.filter((f) => wayOf[f] === r.to);
    if (toEdges.length === 0) continue;
    const forbidden = r.only ? outs.filter((o) => !toEdges.includes(o)) : toEdges;
    for (const e of inEdges.get(via) ?? []) {
      if (wayOf[e] !== r.from) continue;
      const set = banned.get(e) ?? new Set<number>();
      for (const f of forbidden) set.add(f);
      banned.set(e, set);
    }
  }
  const bannedStart = new Uint32Array(edgeCount + 1);
  for (let e = 0; e < edgeCount; e++) bannedStart[e + 1] = bannedStart[e]! + (banned.get(e)?.size ?? 0);
  const bannedTo = new Uint32Array(bannedStart[edgeCount]!);
  for (const [e, set] of banned) bannedTo.set([...set].sort((a, b) => a - b), bannedStart[e]!);

  return {
    nodeLat: Float64Array.from(nodes, (n) => n.lat),
    nodeLng: Float64Array.from(nodes, (n) => n.lng),
    firstEdge,
    edgeFrom,
    edgeTo,
    edgeSeconds,
    edgeMeters,
    edgeTwin,
    shapeStart,
    shapeLat,
    shapeLng,
    bannedStart,
    bannedTo,
  };
}
