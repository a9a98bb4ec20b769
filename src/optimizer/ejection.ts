// Insertion with ejection for the route-elimination phase (Nagata & Kobayashi 2010): a request that fits nowhere
// goes in by ejecting up to two requests from one route, choosing the ejection whose penalty counters sum least.
import { applyInsertion, bestInsertion, newPlacement, type Placement } from './insertion.ts';
import type { RouteState } from './route-state.ts';

export interface EjectionBuffers {
  saved: Int32Array;
  members: Int32Array;
  seen: Uint8Array;
  at: Placement;
}

export function newEjectionBuffers(s: RouteState): EjectionBuffers {
  return { saved: new Int32Array(s.stride), members: new Int32Array(s.inst.requestCount), seen: new Uint8Array(s.inst.requestCount), at: newPlacement() };
}

/**
 * Cheapest feasible insertion of u over all used routes (and its bound vehicle; every vehicle with `openEmpty`);
 * returns the route or -1.
 */
export function insertAnywhere(s: RouteState, u: number, at: Placement, best: Placement, openEmpty = false): number {
  let bestR = -1;
  best.cost = Infinity;
  for (let r = 0; r < s.inst.vehicleCount; r++) {
    if (s.len[r] === 0 && !openEmpty && s.inst.reqVehicle[u] !== r) continue;
    bestInsertion(s, u, r, at);
    if (at.cost < best.cost) {
      best.cost = at.cost;
      best.i = at.i;
      best.j = at.j;
      bestR = r;
    }
  }
  if (bestR >= 0) applyInsertion(s, u, bestR, best);
  return bestR;
}

function restore(s: RouteState, r: number, b: EjectionBuffers, savedLen: number, w1: number, w2: number): void {
  s.nodes.set(b.saved.subarray(0, savedLen + 2), r * s.stride);
  s.len[r] = savedLen;
  s.removeFromBank(w1);
  if (w2 >= 0) s.removeFromBank(w2);
  s.rebuild(r);
}

/**
 * Inserts u by ejecting one or two requests of a single route (the ejected go to the bank). Returns false, changing
 * nothing, when no such ejection makes room.
 */
export function insertWithEjection(s: RouteState, u: number, penalty: Float64Array, b: EjectionBuffers, maxEject: 1 | 2): boolean {
  const inst = s.inst;
  const { requestOf, stopCount } = inst;
  let bestSum = Infinity;
  let bestR = -1;
  let bestW1 = -1;
  let bestW2 = -1;
  for (let r = 0; r < inst.vehicleCount; r++) {
    const L = s.len[r]!;
    if (L === 0) continue;
    if (inst.reqVehicle[u]! >= 0 && inst.reqVehicle[u] !== r) continue;
    if (inst.allowed && !inst.allowed[u * inst.vehicleCount + r]) continue;
    const off = r * s.stride;
    b.saved.set(s.nodes.subarray(off, off + L + 2));
    let m = 0;
    for (let k = 1; k <= L; k++) {
      const x = s.nodes[off + k]!;
      if (x >= stopCount) continue;
      const w = requestOf[x]!;
      if (b.seen[w]) continue;
      b.seen[w] = 1;
      b.members[m++] = w;
    }
    for (let k = 0; k < m; k++) b.seen[b.members[k]!] = 0;
    for (let a = 0; a < m; a++) {
      const w1 = b.members[a]!;
      const p1 = penalty[w1]!;
      if (p1 >= bestSum) continue;
      s.removeRequest(w1);
      // Ejecting on-board goods (a lone delivery) can overload the rest of the route: no room made there.
      if (s.firstViolation(r) >= 0) b.at.cost = Infinity;
      else bestInsertion(s, u, r, b.at);
      if (b.at.cost < Infinity) {
        bestSum = p1;
        bestR = r;
        bestW1 = w1;
        bestW2 = -1;
      } else if (maxEject === 2) {
        for (let c = a + 1; c < m; c++) {
          const w2 = b.members[c]!;
          if (p1 + penalty[w2]! >= bestSum) continue;
          s.removeRequest(w2);
          if (s.firstViolation(r) >= 0) b.at.cost = Infinity;
          else bestInsertion(s, u, r, b.at);
          if (b.at.cost < Infinity) {
            bestSum = p1 + penalty[w2]!;
            bestR = r;
            bestW1 = w1;
            bestW2 = w2;
          }
          restore(s, r, b, L, w1, w2);
          s.removeRequest(w1);
        }
      }
      restore(s, r, b, L, w1, -1);
    }
  }
  if (bestR < 0) return false;
  s.removeRequest(bestW1);
  if (bestW2 >= 0) s.removeRequest(bestW2);
  bestInsertion(s, u, bestR, b.at);
  applyInsertion(s, u, bestR, b.at);
  return true;
}
