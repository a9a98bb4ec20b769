// Destroy operators of the ALNS (Ropke & Pisinger 2006): random, worst (distance saved), Shaw (related requests)
// and route removal. Each moves about q assigned requests to the bank.
import type { Rng } from './prng.ts';
import type { RouteState } from './route-state.ts';

/** Buffers for removal, allocated once per solve. */
export interface RemovalBuffers {
  assigned: Int32Array;
  key: Float64Array;
  chosen: Int32Array;
  horizon: number;
  maxDemand: number;
}

export function newRemovalBuffers(s: RouteState): RemovalBuffers {
  const inst = s.inst;
  let horizon = 1;
  let maxDemand = 1;
  for (let x = 0; x < inst.nodeCount; x++) horizon = Math.max(horizon, inst.latest[x]!);
  for (let x = 0; x < inst.stopCount; x++) maxDemand = Math.max(maxDemand, Math.abs(inst.demand[x]!));
  return {
    assigned: new Int32Array(inst.requestCount),
    key: new Float64Array(inst.requestCount),
    chosen: new Int32Array(inst.requestCount),
    horizon,
    maxDemand,
  };
}

function collectAssigned(s: RouteState, b: RemovalBuffers): number {
  let m = 0;
  for (let u = 0; u < s.inst.requestCount; u++) if (s.bankIndex[u] === -1) b.assigned[m++] = u;
  return m;
}

export function removeRandom(s: RouteState, b: RemovalBuffers, q: number, rng: Rng): void {
  let m = collectAssigned(s, b);
  for (let k = 0; k < q && m > 0; k++) {
    const at = rng.int(m);
    const u = b.assigned[at]!;
    b.assigned[at] = b.assigned[--m]!;
    s.removeRequest(u);
  }
}

/** Distance saved by taking request u off its route. */
function removalSaving(s: RouteState, u: number): number {
  const { travel: t, nodeCount: n, reqPickup, reqDelivery } = s.inst;
  const p = reqPickup[u]!;
  const d = reqDelivery[u]!;
  const x = p >= 0 ? p : d;
  const off = s.routeOf[x]! * s.stride;
  const nodes = s.nodes;
  const px = s.posOf[x]!;
  const a = nodes[off + px - 1]!;
  const bNode = nodes[off + px + 1]!;
  if (p < 0 || d < 0) return t[a * n + x]! + t[x * n + bNode]! - t[a * n + bNode]!;
  const pd = s.posOf[d]!;
  if (pd === px + 1) {
    const c = nodes[off + pd + 1]!;
    return t[a * n + p]! + t[p * n + d]! + t[d * n + c]! - t[a * n + c]!;
  }
  const c = nodes[off + pd - 1]!;
  const e = nodes[off + pd + 1]!;
  return t[a * n + p]! + t[p * n + bNode]! - t[a * n + bNode]! + t[c * n + d]! + t[d * n + e]! - t[c * n + e]!;
}

/** Removes requests with the largest savings, randomised by y^power over the sorted list. */
export function removeWorst(s: RouteState, b: RemovalBuffers, q: number, rng: Rng, power = 3): void {
  for (let k = 0; k < q; k++) {
    const m = collectAssigned(s, b);
    if (m === 0) return;
    for (let x = 0; x < m; x++) b.key[b.assigned[x]!] = -removalSaving(s, b.assigned[x]!);
    const sorted = b.assigned.subarray(0, m).sort((u, v) => b.key[u]! - b.key[v]!);
    s.removeRequest(sorted[Math.floor(Math.pow(rng.next(), power) * m)]!);
  }
}

function relatedness(s: RouteState, b: RemovalBuffers, u: number, v: number): number {
  const { travel: t, nodeCount: n, reqPickup, reqDelivery, demand, maxTravel } = s.inst;
  const pu = reqPickup[u]! >= 0 ? reqPickup[u]! : reqDelivery[u]!;
  const du = reqDelivery[u]! >= 0 ? reqDelivery[u]! : pu;
  const pv = reqPickup[v]! >= 0 ? reqPickup[v]! : reqDelivery[v]!;
  const dv = reqDelivery[v]! >= 0 ? reqDelivery[v]! : pv;
  const beginOf = (x: number) => s.begin[s.routeOf[x]! * s.stride + s.posOf[x]!]!;
  // Weights 9, 3, 2 for distance, time and load, as in Ropke & Pisinger (2006).
  return (
    (9 * (t[pu * n + pv]! + t[du * n + dv]!)) / Math.max(1, maxTravel) +
    (3 * (Math.abs(beginOf(pu) - beginOf(pv)) + Math.abs(beginOf(du) - beginOf(dv)))) / b.horizon +
    (2 * Math.abs(Math.abs(demand[pu]!) - Math.abs(demand[pv]!))) / b.maxDemand
  );
}

/** Removes a random request and then requests related to those already chosen (Shaw 1998), randomised by y^power. */
export function removeShaw(s: RouteState, b: RemovalBuffers, q: number, rng: Rng, power = 6): void {
  let m = collectAssigned(s, b);
  if (m === 0) return;
  const first = rng.int(m);
  let chosen = 0;
  b.chosen[chosen++] = b.assigned[first]!;
  b.assigned[first] = b.assigned[--m]!;
  while (chosen < q && m > 0) {
    const ref = b.chosen[rng.int(chosen)]!;
    for (let x = 0; x < m; x++) b.key[b.assigned[x]!] = relatedness(s, b, ref, b.assigned[x]!);
    const sorted = b.assigned.subarray(0, m).sort((u, v) => b.key[u]! - b.key[v]!);
    const at = Math.floor(Math.pow(rng.next(), power) * m);
    b.chosen[chosen++] = sorted[at]!;
    sorted[at] = sorted[m - 1]!;
    m--;
  }
  for (let k = 0; k < chosen; k++) s.removeRequest(b.chosen[k]!);
}

/** Empties one route, chosen as the shorter of two random used routes (short routes are the ones worth dissolving). */
export function removeRoute(s: RouteState, _b: RemovalBuffers, _q: number, rng: Rng): void {
  const V = s.inst.vehicleCount;
  let used = 0;
  for (let r = 0; r < V; r++) if (s.len[r]! > 0) used++;
  if (used === 0) return;
  const pick = (): number => {
    let k = rng.int(used);
    for (let r = 0; r < V; r++) if (s.len[r]! > 0 && k-- === 0) return r;
    return -1;
  };
  const a = pick();
  const c = pick();
  emptyRoute(s, s.len[a]! <= s.len[c]! ? a : c);
}

export function emptyRoute(s: RouteState, r: number): void {
  while (s.len[r]! > 0) s.removeRequest(s.inst.requestOf[s.nodes[r * s.stride + 1]!]!);
}
