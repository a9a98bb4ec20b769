// The starting solution: a given one (made feasible by dropping what violates), then regret insertion of the rest,
// opening vehicles as needed.
import { newRepairBuffers, repair, type RepairBuffers } from './insertion.ts';
import { ProblemError } from './instance.ts';
import type { RouteState } from './route-state.ts';

/** Loads a starting solution (stop indices per vehicle); requests that make a route infeasible go to the bank. */
export function loadInitial(s: RouteState, routes: readonly (readonly number[])[]): void {
  const inst = s.inst;
  if (routes.length > inst.vehicleCount) throw new ProblemError('the initial solution has more routes than vehicles');
  const seen = new Uint8Array(inst.stopCount);
  routes.forEach((stops, r) => {
    const off = r * s.stride;
    const end = s.nodes[off + s.len[r]! + 1]!;
    stops.forEach((x, k) => {
      if (!(x >= 0 && x < inst.stopCount) || seen[x]) throw new ProblemError(`the initial solution names stop ${x} twice or not at all`);
      seen[x] = 1;
      s.nodes[off + 1 + k] = x;
    });
    s.nodes[off + stops.length + 1] = end;
    s.len[r] = stops.length;
    s.rebuild(r);
  });
  for (let u = 0; u < inst.requestCount; u++) {
    const p = inst.reqPickup[u]!;
    const d = inst.reqDelivery[u]!;
    if ((p < 0 || seen[p]) && (d < 0 || seen[d])) s.removeFromBank(u);
  }
  // A pair split over two routes or half-planned is taken out whole.
  for (let u = 0; u < inst.requestCount; u++) {
    const p = inst.reqPickup[u]!;
    const d = inst.reqDelivery[u]!;
    if (s.bankIndex[u] !== -1 && ((p >= 0 && seen[p]) || (d >= 0 && seen[d]))) dropStops(s, u);
  }
  for (let r = 0; r < routes.length; r++) s.restoreFeasibility(r);
}

function dropStops(s: RouteState, u: number): void {
  const { reqPickup, reqDelivery } = s.inst;
  for (const x of [reqPickup[u]!, reqDelivery[u]!]) {
    if (x < 0 || s.routeOf[x]! < 0) continue;
    const r = s.routeOf[x]!;
    const off = r * s.stride;
    const at = s.posOf[x]!;
    for (let k = at; k <= s.len[r]!; k++) s.nodes[off + k] = s.nodes[off + k + 1]!;
    s.len[r] = s.len[r]! - 1;
    s.routeOf[x] = -1;
    s.posOf[x] = -1;
    s.rebuild(r);
  }
}

/** Regret-2 insertion of every banked request, opening vehicles when no used one can take a request. */
export function construct(s: RouteState, buffers: RepairBuffers = newRepairBuffers(s)): void {
  repair(s, buffers, 2, 0, () => 0, true);
}
