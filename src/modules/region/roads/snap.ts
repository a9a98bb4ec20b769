// Snapping a point onto the nearest drivable road (docs/decisions/1522-road-search.md): a KD-tree of points sampled
// along every road's shape finds the candidate segments near the point, the exact foot of the perpendicular on the
// nearest one is where the car starts — part-way along an edge, not at its nearest node. Only the roads of the graph's
// largest strongly connected part are snapped to, so that every snapped pair has a path (as OSRM does).
import KDBush from 'kdbush';
import type { RoadGraph } from './graph.ts';
import type { RoadPosition } from './search.ts';

/** Sample spacing along a segment, meters: the KD-tree's points are at most this far apart on a road. */
const SPACING_M = 20;
/** Farther than this from every drivable road a point is not on the network (at sea, outside the region). */
export const MAX_SNAP_M = 500;

export interface Snapped extends RoadPosition {
  lat: number;
  lng: number;
  /** How far the point was from the road, meters. */
  offRoadM: number;
}

export interface SnapIndex {
  snap(lat: number, lng: number): Snapped | null;
}

const RAD = Math.PI / 180;
const EARTH_RADIUS_M = 6_371_008.8;

/** The edges whose both ends lie in the largest strongly connected component (Kosaraju, iterative). */
export function largestComponentEdges(graph: RoadGraph): Uint8Array {
  const { firstEdge, edgeFrom, edgeTo } = graph;
  const nodeCount = firstEdge.length - 1;
  const edgeCount = edgeTo.length;
  // Reverse adjacency.
  const revStart = new Uint32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) revStart[edgeTo[e]! + 1]!++;
  for (let v = 0; v < nodeCount; v++) revStart[v + 1]! += revStart[v]!;
  const revCursor = revStart.slice(0, nodeCount);
  const revFrom = new Uint32Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) revFrom[revCursor[edgeTo[e]!]!++] = edgeFrom[e]!;

  const order = new Uint32Array(nodeCount);
  let orderLength = 0;
  const visited = new Uint8Array(nodeCount);
  const stack = new Uint32Array(nodeCount);
  const next = new Uint32Array(nodeCount);
  for (let root = 0; root < nodeCount; root++) {
    if (visited[root]) continue;
    let top = 0;
    stack[0] = root;
    visited[root] = 1;
    next[root] = firstEdge[root]!;
    while (top >= 0) {
      const v = stack[top]!;
      if (next[v]! < firstEdge[v + 1]!) {
        const w = edgeTo[next[v]!++]!;
        if (!visited[w]) {
          visited[w] = 1;
          next[w] = firstEdge[w]!;
          stack[++top] = w;
        }
      } else {
        order[orderLength++] = v;
        top--;
      }
    }
  }
  const component = new Int32Array(nodeCount).fill(-1);
  const sizes: number[] = [];
  for (let i = nodeCount - 1; i >= 0; i--) {
    const root = order[i]!;
    if (component[root]! >= 0) continue;
    const id = sizes.length;
    let size = 0;
    let top = 0;
    stack[0] = root;
    component[root] = id;
    while (top >= 0) {
      const v = stack[top--]!;
      size++;
      for (let k = revStart[v]!; k < revStart[v + 1]!; k++) {
        const w = revFrom[k]!;
        if (component[w]! < 0) {
          component[w] = id;
          stack[++top] = w;
        }
      }
    }
    sizes.push(size);
  }
  const largest = sizes.indexOf(Math.max(0, ...sizes));
  const keep = new Uint8Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) keep[e] = component[edgeFrom[e]!] === largest && component[edgeTo[e]!] === largest ? 1 : 0;
  return keep;
}

export function buildSnapIndex(graph: RoadGraph): SnapIndex {
  const { edgeTwin, shapeStart, shapeLat, shapeLng } = graph;
  const edgeCount = edgeTwin.length;
  const keep = largestComponentEdges(graph);
  let lat0 = 0;
  for (let i = 0; i < shapeLat.length; i++) lat0 += shapeLat[i]!;
  lat0 = shapeLat.length > 0 ? lat0 / shapeLat.length : 0;
  const kx = Math.cos(lat0 * RAD) * EARTH_RADIUS_M * RAD;
  const ky = EARTH_RADIUS_M * RAD;
  const x = (lng: number): number => lng * kx;
  const y = (lat: number): number => lat * ky;

  // Samples: (edge, shape point index of the segment's start) per sample; one of a twin pair is indexed.
  const sampleEdge: number[] = [];
  const sampleSegment: number[] = [];
  const sampleX: number[] = [];
  const sampleY: number[] = [];
  for (let e = 0; e < edgeCount; e++) {
    if (!keep[e] || (edgeTwin[e]! >= 0 && edgeTwin[e]! < e && keep[edgeTwin[e]!])) continue;
    for (let s = shapeStart[e]!; s < shapeStart[e + 1]! - 1; s++) {
      const ax = x(shapeLng[s]!);
      const ay = y(shapeLat[s]!);
      const bx = x(shapeLng[s + 1]!);
      const by = y(shapeLat[s + 1]!);
      const steps = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay) / SPACING_M));
      for (let k = 0; k <= steps; k++) {
        sampleEdge.push(e);
        sampleSegment.push(s);
        sampleX.push(ax + ((bx - ax) * k) / steps);
        sampleY.push(ay + ((by - ay) * k) / steps);
      }
    }
  }
  const tree = new KDBush(Math.max(1, sampleX.length));
  for (let i = 0; i < sampleX.length; i++) tree.add(sampleX[i]!, sampleY[i]!);
  if (sampleX.length === 0) tree.add(Infinity, Infinity);
  tree.finish();

  const projectedLength = (e: number, untilSegment: number): number => {
    let length = 0;
    for (let s = shapeStart[e]!; s < untilSegment; s++) length += Math.hypot(x(shapeLng[s + 1]!) - x(shapeLng[s]!), y(shapeLat[s + 1]!) - y(shapeLat[s]!));
    return length;
  };

  return {
    snap(lat, lng) {
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || sampleX.length === 0) return null;
      const px = x(lng);
      const py = y(lat);
      for (let radius = 40; radius <= MAX_SNAP_M * 2; radius *= 2) {
        const reach = Math.min(radius, MAX_SNAP_M);
        let best = Infinity;
        let bestEdge = -1;
        let bestSegment = -1;
        let bestT = 0;
        for (const i of tree.within(px, py, reach + SPACING_M / 2)) {
          const s = sampleSegment[i]!;
          const ax = x(shapeLng[s]!);
          const ay = y(shapeLat[s]!);
          const dx = x(shapeLng[s + 1]!) - ax;
          const dy = y(shapeLat[s + 1]!) - ay;
          const length2 = dx * dx + dy * dy;
          const t = length2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0;
          const d = Math.hypot(ax + t * dx - px, ay + t * dy - py);
          if (d < best) {
            best = d;
            bestEdge = sampleEdge[i]!;
            bestSegment = s;
            bestT = t;
          }
        }
        if (bestEdge >= 0 && best <= reach) {
          const total = projectedLength(bestEdge, shapeStart[bestEdge + 1]! - 1);
          const segment = projectedLength(bestEdge, bestSegment + 1) - projectedLength(bestEdge, bestSegment);
          const along = total > 0 ? Math.min(1, (projectedLength(bestEdge, bestSegment) + bestT * segment) / total) : 0;
          const twin = edgeTwin[bestEdge]!;
          const snappedLat = shapeLat[bestSegment]! + bestT * (shapeLat[bestSegment + 1]! - shapeLat[bestSegment]!);
          const snappedLng = shapeLng[bestSegment]! + bestT * (shapeLng[bestSegment + 1]! - shapeLng[bestSegment]!);
          const position = twin >= 0 && keep[twin] ? { edges: [bestEdge, twin], fractions: [along, 1 - along] } : { edges: [bestEdge], fractions: [along] };
          return { ...position, lat: snappedLat, lng: snappedLng, offRoadM: best };
        }
        if (reach === MAX_SNAP_M) break;
      }
      return null;
    },
  };
}
