// One-to-many shortest paths over the road graph (docs/decisions/1522-road-search.md): an edge-based Dijkstra — a label
// per directed edge, "the car has just driven this edge" — so that a banned turn is a banned pair of edges, and points
// that lie part-way along an edge (snap.ts) start and end there, counting the part of the edge they drive.
import type { RoadGraph } from './graph.ts';
import { IndexedHeap } from './heap.ts';

/** A point on the road: up to two directed edges (a two-way road's both directions) and how far along each (0–1). */
export interface RoadPosition {
  edges: readonly number[];
  fractions: readonly number[];
}

export interface RoadMatrix {
  /** Row-major, sources × targets; Infinity where no drivable path exists. */
  seconds: Float64Array;
  meters: Float64Array;
}

/** Reusable work arrays for one graph (one per thread: searches never run interleaved on one workspace). */
export class SearchWorkspace {
  readonly heap: IndexedHeap;
  /** Seconds (and meters) when the car reaches the end of edge e / the start of edge e. */
  readonly endTime: Float64Array;
  readonly endMeters: Float64Array;
  readonly entryTime: Float64Array;
  readonly entryMeters: Float64Array;
  private previous: Int32Array | null = null;
  constructor(readonly graph: RoadGraph) {
    const edges = graph.edgeTo.length;
    this.heap = new IndexedHeap(edges);
    this.endTime = new Float64Array(edges);
    this.endMeters = new Float64Array(edges);
    this.entryTime = new Float64Array(edges);
    this.entryMeters = new Float64Array(edges);
  }

  /** The edge each edge was entered from (roads/path.ts; a source edge k as -1 - k): made on the first route asked. */
  previousEdge(): Int32Array {
    this.previous ??= new Int32Array(this.graph.edgeTo.length);
    return this.previous;
  }
}

/** Targets indexed by edge (CSR): which targets lie on edge e, and where. */
function targetsByEdge(edgeCount: number, targets: readonly RoadPosition[]): { start: Uint32Array; target: Uint32Array; fraction: Float64Array } {
  const start = new Uint32Array(edgeCount + 1);
  for (const t of targets) for (const e of t.edges) start[e + 1]!++;
  for (let e = 0; e < edgeCount; e++) start[e + 1]! += start[e]!;
  const cursor = start.slice(0, edgeCount);
  const total = start[edgeCount]!;
  const target = new Uint32Array(total);
  const fraction = new Float64Array(total);
  targets.forEach((t, i) =>
    t.edges.forEach((e, k) => {
      const at = cursor[e]!++;
      target[at] = i;
      fraction[at] = t.fractions[k]!;
    }),
  );
  return { start, target, fraction };
}

/** Fastest-path seconds and their meters from every source to every target (row = source). */
export function roadMatrix(workspace: SearchWorkspace, sources: readonly RoadPosition[], targets: readonly RoadPosition[]): RoadMatrix {
  const { graph, heap, endTime, endMeters, entryTime } = workspace;
  const { firstEdge, edgeTo, edgeSeconds, edgeMeters, bannedStart, bannedTo } = graph;
  const edgeCount = edgeTo.length;
  const byEdge = targetsByEdge(edgeCount, targets);
  const targetStart = byEdge.start;
  const targetOf = byEdge.target;
  const targetFraction = byEdge.fraction;
  const n = targets.length;
  const seconds = new Float64Array(sources.length * n).fill(Infinity);
  const meters = new Float64Array(sources.length * n).fill(Infinity);

  // Every array below is typed and allocated once per matrix (or per graph, in the workspace): a relaxation allocates
  // nothing (docs/performance.md "Road travel times").
  for (let row = 0; row < sources.length; row++) {
    const source = sources[row]!;
    const base = row * n;
    endTime.fill(Infinity);
    entryTime.fill(Infinity);
    heap.clear();
    // Targets not reached yet; once none is left, the search stops when nothing in the heap can improve the slowest.
    let unreached = n;
    for (let k = 0; k < source.edges.length; k++) {
      const e = source.edges[k]!;
      const t = source.fractions[k]!;
      // Targets further along the source's own edge are reached without leaving it.
      for (let j = targetStart[e]!; j < targetStart[e + 1]!; j++) {
        const s = targetFraction[j]!;
        if (s < t) continue;
        const cell = base + targetOf[j]!;
        const time = (s - t) * edgeSeconds[e]!;
        if (time < seconds[cell]!) {
          if (seconds[cell] === Infinity) unreached--;
          seconds[cell] = time;
          meters[cell] = (s - t) * edgeMeters[e]!;
        }
      }
      const time = (1 - t) * edgeSeconds[e]!;
      if (time < endTime[e]!) {
        endTime[e] = time;
        endMeters[e] = (1 - t) * edgeMeters[e]!;
        heap.push(e, time);
      }
    }

    let worst = Infinity;
    let pops = 0;
    while (heap.size > 0) {
      if (unreached === 0) {
        // The slowest target so far, recomputed now and then: it only falls, so a stale one stops no search too early.
        if (worst === Infinity || (pops & 255) === 0) {
          worst = 0;
          for (let j = base; j < base + n; j++) if (seconds[j]! > worst) worst = seconds[j]!;
        }
        if (worst <= heap.peekKey()) break;
      }
      pops++;
      const e = heap.pop();
      const time = endTime[e]!;
      const m = endMeters[e]!;
      const v = edgeTo[e]!;
      const bannedFrom = bannedStart[e]!;
      const bannedEnd = bannedStart[e + 1]!;
      const last = firstEdge[v + 1]!;
      for (let f = firstEdge[v]!; f < last; f++) {
        if (bannedEnd > bannedFrom && isBanned(bannedTo, bannedFrom, bannedEnd, f)) continue;
        if (time >= entryTime[f]!) continue;
        entryTime[f] = time;
        // A target on edge f at fraction s is reached s of the way along f after entering it.
        const targetEnd = targetStart[f + 1]!;
        for (let k = targetStart[f]!; k < targetEnd; k++) {
          const s = targetFraction[k]!;
          const cell = base + targetOf[k]!;
          const at = time + s * edgeSeconds[f]!;
          if (at < seconds[cell]!) {
            if (seconds[cell] === Infinity) unreached--;
            seconds[cell] = at;
            meters[cell] = m + s * edgeMeters[f]!;
          }
        }
        const end = time + edgeSeconds[f]!;
        if (end < endTime[f]!) {
          endTime[f] = end;
          endMeters[f] = m + edgeMeters[f]!;
          heap.push(f, end);
        }
      }
    }
  }
  return { seconds, meters };
}

function isBanned(bannedTo: Uint32Array, from: number, to: number, f: number): boolean {
  for (let k = from; k < to; k++) if (bannedTo[k] === f) return true;
  return false;
}
