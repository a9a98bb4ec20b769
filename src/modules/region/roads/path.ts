// The fastest path between two points on the road, with its shape (contract §15's routes; decision 1700): the same
// edge-based search as search.ts — banned turns honoured, points part-way along edges — from one source to one
// target, remembering the edge each edge was entered from so that the path is read back edge by edge.
import type { RoadGraph } from './graph.ts';
import { haversineM } from './graph.ts';
import type { RoadPosition } from './search.ts';
import type { SearchWorkspace } from './search.ts';

export interface RoadPath {
  /** [lng, lat] pairs along the roads, from the source to the target (GeoJSON order). */
  coordinates: [number, number][];
  seconds: number;
  meters: number;
}

/** The part of edge e's shape between fractions `from` and `to` of its length (0 ≤ from ≤ to ≤ 1). */
export function shapeBetween(graph: RoadGraph, e: number, from: number, to: number): [number, number][] {
  const { shapeStart, shapeLat, shapeLng } = graph;
  const first = shapeStart[e]!;
  const last = shapeStart[e + 1]! - 1;
  const lengths: number[] = [0];
  for (let s = first; s < last; s++) lengths.push(lengths[lengths.length - 1]! + haversineM(shapeLat[s]!, shapeLng[s]!, shapeLat[s + 1]!, shapeLng[s + 1]!));
  const total = lengths[lengths.length - 1]!;
  const at = (fraction: number): [number, number] => {
    const target = fraction * total;
    let k = 0;
    while (k < lengths.length - 2 && lengths[k + 1]! < target) k++;
    const span = lengths[k + 1]! - lengths[k]!;
    const u = span > 0 ? Math.min(1, Math.max(0, (target - lengths[k]!) / span)) : 0;
    const s = first + k;
    const t = Math.min(s + 1, last);
    return [shapeLng[s]! + u * (shapeLng[t]! - shapeLng[s]!), shapeLat[s]! + u * (shapeLat[t]! - shapeLat[s]!)];
  };
  const out: [number, number][] = [at(from)];
  for (let k = 1; k < lengths.length - 1; k++) {
    const fraction = total > 0 ? lengths[k]! / total : 0;
    if (fraction > from && fraction < to) out.push([shapeLng[first + k]!, shapeLat[first + k]!]);
  }
  out.push(at(to));
  return out;
}

/** Appends `more` to `line`, dropping a first point that repeats the line's last. */
function extend(line: [number, number][], more: readonly [number, number][]): void {
  for (const p of more) {
    const last = line[line.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) continue;
    line.push(p);
  }
}

/** The fastest path from `source` to `target`, or null when none exists. */
export function roadPath(workspace: SearchWorkspace, source: RoadPosition, target: RoadPosition): RoadPath | null {
  const { graph, heap, endTime, endMeters, entryTime, entryMeters } = workspace;
  const { firstEdge, edgeTo, edgeSeconds, edgeMeters, bannedStart, bannedTo } = graph;
  const previous = workspace.previousEdge();
  endTime.fill(Infinity);
  entryTime.fill(Infinity);
  heap.clear();

  // The best arrival so far: on the target's edge `edge`, entered from edge `sourceEdge` — or, `direct`, driven along
  // the source's own edge from `startFraction`.
  let best = { seconds: Infinity, meters: Infinity, edge: -1, sourceEdge: -1, direct: false, startFraction: 0, endFraction: 0 };
  const targetFractions = new Map<number, number>(target.edges.map((e, k) => [e, target.fractions[k]!]));

  source.edges.forEach((e, k) => {
    const t = source.fractions[k]!;
    const s = targetFractions.get(e);
    // The target further along the source's own edge: reached without leaving it.
    if (s !== undefined && s >= t && (s - t) * edgeSeconds[e]! < best.seconds) {
      best = { seconds: (s - t) * edgeSeconds[e]!, meters: (s - t) * edgeMeters[e]!, edge: e, sourceEdge: e, direct: true, startFraction: t, endFraction: s };
    }
    const time = (1 - t) * edgeSeconds[e]!;
    if (time < endTime[e]!) {
      endTime[e] = time;
      endMeters[e] = (1 - t) * edgeMeters[e]!;
      previous[e] = -1 - k;
      heap.push(e, time);
    }
  });

  while (heap.size > 0 && heap.peekKey() < best.seconds) {
    const e = heap.pop();
    const time = endTime[e]!;
    const m = endMeters[e]!;
    const v = edgeTo[e]!;
    for (let f = firstEdge[v]!; f < firstEdge[v + 1]!; f++) {
      if (bannedStart[e + 1]! > bannedStart[e]! && isBanned(bannedTo, bannedStart[e]!, bannedStart[e + 1]!, f)) continue;
      if (time >= entryTime[f]!) continue;
      entryTime[f] = time;
      entryMeters[f] = m;
      const s = targetFractions.get(f);
      if (s !== undefined && time + s * edgeSeconds[f]! < best.seconds) {
        best = { seconds: time + s * edgeSeconds[f]!, meters: m + s * edgeMeters[f]!, edge: f, sourceEdge: e, direct: false, startFraction: 0, endFraction: s };
      }
      const end = time + edgeSeconds[f]!;
      if (end < endTime[f]!) {
        endTime[f] = end;
        endMeters[f] = m + edgeMeters[f]!;
        previous[f] = e;
        heap.push(f, end);
      }
    }
  }
  if (best.edge < 0) return null;

  // Read the path back: the target's edge, entered from `sourceEdge`, whose predecessors lead to a source edge.
  const coordinates: [number, number][] = [];
  if (best.direct) {
    extend(coordinates, shapeBetween(graph, best.edge, best.startFraction, best.endFraction));
  } else {
    const chain: number[] = [];
    for (let e = best.sourceEdge; e >= 0; e = previous[e]!) chain.push(e);
    chain.reverse();
    // The first edge of the chain is a source edge: driven from the source's fraction on it.
    const firstK = source.edges.indexOf(chain[0]!);
    chain.forEach((e, i) => extend(coordinates, shapeBetween(graph, e, i === 0 ? (source.fractions[firstK] ?? 0) : 0, 1)));
    extend(coordinates, shapeBetween(graph, best.edge, 0, best.endFraction));
  }
  if (coordinates.length === 1) coordinates.push(coordinates[0]!);
  return { coordinates, seconds: best.seconds, meters: best.meters };
}

function isBanned(bannedTo: Uint32Array, from: number, to: number, f: number): boolean {
  for (let k = from; k < to; k++) if (bannedTo[k] === f) return true;
  return false;
}
