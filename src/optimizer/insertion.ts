// Cheapest feasible position of a request in a route, checked in O(1) per position pair with the route's
// latest-begin and load arrays: O(length²) per route and request, no allocation.
import { waitingOf, type RouteState } from './route-state.ts';

/** Where to insert: pickup after position i, delivery after position j (j ≥ i), and the added distance. */
export interface Placement {
  cost: number;
  i: number;
  j: number;
}

export const newPlacement = (): Placement => ({ cost: Infinity, i: -1, j: -1 });

/** Fills `out` with the cheapest feasible placement of request u in route r (cost Infinity when there is none). */
export function bestInsertion(s: RouteState, u: number, r: number, out: Placement): void {
  out.cost = Infinity;
  const inst = s.inst;
  const bound = inst.reqVehicle[u]!;
  if (bound >= 0 && bound !== r) return;
  if (inst.allowed && !inst.allowed[u * inst.vehicleCount + r]) return;
  const p = inst.reqPickup[u]!;
  const d = inst.reqDelivery[u]!;
  if (s.len[r]! + (p >= 0 && d >= 0 ? 2 : 1) > inst.maxRouteStops) return;
  if (p >= 0 && d >= 0) insertPairScan(s, r, p, d, out);
  else insertSingleScan(s, r, p >= 0 ? p : d, p >= 0, out);
}

function insertPairScan(s: RouteState, r: number, p: number, d: number, out: Placement): void {
  const { travel, earliest, latest, service, demand, nodeCount: n } = s.inst;
  const cap = s.inst.vehCapacity[r]!;
  const off = r * s.stride;
  const L = s.len[r]!;
  const nodes = s.nodes;
  const begin = s.begin;
  const load = s.load;
  const late = s.lateBegin;
  const q = demand[p]!;
  const eP = earliest[p]!;
  const lP = latest[p]!;
  const sP = service[p]!;
  const eD = earliest[d]!;
  const lD = latest[d]!;
  const sD = service[d]!;
  const tPD = travel[p * n + d]!;
  const dims = s.inst.dims > 0;
  let best = Infinity;
  let bi = -1;
  let bj = -1;
  for (let i = 0; i <= L; i++) {
    // Begin times never decrease along a route, so once this node starts after p's window closes, no later one fits.
    if (begin[off + i]! > lP) break;
    if (load[off + i]! + q > cap) continue;
    if (dims && !s.fitsX(r, off + i, p, false)) continue;
    const a = nodes[off + i]!;
    const b = nodes[off + i + 1]!;
    const tAP = travel[a * n + p]!;
    let bp = begin[off + i]! + service[a]! + tAP;
    if (bp > lP) continue;
    if (bp < eP) bp = eP;
    const tAB = travel[a * n + b]!;
    // Delivery right after the pickup.
    let bd = bp + sP + tPD;
    if (bd < eD) bd = eD;
    if (bd <= lD && bd + sD + travel[d * n + b]! <= late[off + i + 1]!) {
      const c = tAP + tPD + travel[d * n + b]! - tAB;
      if (c < best) {
        best = c;
        bi = i;
        bj = i;
      }
    }
    // Delivery later: walk the pushed begin times forward, stop at the first window or capacity violation.
    const costP = tAP + travel[p * n + b]! - tAB;
    if (costP >= best) continue;
    let prev = p;
    let prevBegin = bp;
    for (let j = i + 1; j <= L; j++) {
      const k = nodes[off + j]!;
      let bk = prevBegin + service[prev]! + travel[prev * n + k]!;
      if (bk > latest[k]!) break;
      if (load[off + j]! + q > cap) break;
      if (dims && !s.fitsX(r, off + j, p, false)) break;
      if (bk < earliest[k]!) bk = earliest[k]!;
      // The delivery would begin after this node's begin: past its window here, past it for every later j too.
      if (bk > lD) break;
      const c2 = nodes[off + j + 1]!;
      const tKD = travel[k * n + d]!;
      let bdj = bk + service[k]! + tKD;
      if (bdj < eD) bdj = eD;
      if (bdj <= lD) {
        const tDC = travel[d * n + c2]!;
        if (bdj + sD + tDC <= late[off + j + 1]!) {
          const c = costP + tKD + tDC - travel[k * n + c2]!;
          if (c < best) {
            best = c;
            bi = i;
            bj = j;
          }
        }
      }
      prev = k;
      prevBegin = bk;
    }
  }
  out.cost = best;
  out.i = bi;
  out.j = bj;
}

function insertSingleScan(s: RouteState, r: number, x: number, isPickup: boolean, out: Placement): void {
  const { travel, earliest, latest, service, demand, nodeCount: n } = s.inst;
  const cap = s.inst.vehCapacity[r]!;
  const off = r * s.stride;
  const L = s.len[r]!;
  const q = demand[x]!;
  let best = Infinity;
  let bi = -1;
  for (let i = 0; i <= L; i++) {
    if (s.begin[off + i]! > latest[x]!) break;
    // A lone pickup stays on board to the end; a lone delivery only lowers the load.
    if (isPickup && (s.suffixMaxLoad[off + i]! + q > cap || (s.inst.dims > 0 && !s.fitsX(r, off + i, x, true)))) continue;
    const a = s.nodes[off + i]!;
    const b = s.nodes[off + i + 1]!;
    let bx = s.begin[off + i]! + service[a]! + travel[a * n + x]!;
    if (bx > latest[x]!) continue;
    if (bx < earliest[x]!) bx = earliest[x]!;
    if (bx + service[x]! + travel[x * n + b]! > s.lateBegin[off + i + 1]!) continue;
    const c = travel[a * n + x]! + travel[x * n + b]! - travel[a * n + b]!;
    if (c < best) {
      best = c;
      bi = i;
    }
  }
  out.cost = best;
  out.i = bi;
  out.j = bi;
}

/** Applies a placement found by bestInsertion. */
export function applyInsertion(s: RouteState, u: number, r: number, at: Placement): void {
  const p = s.inst.reqPickup[u]!;
  const d = s.inst.reqDelivery[u]!;
  if (p >= 0 && d >= 0) s.insertPair(r, p, d, at.i, at.j);
  else s.insertSingle(r, p >= 0 ? p : d, at.i);
}

/** Buffers for repair, allocated once per solve. */
export interface RepairBuffers {
  /** cost[u * vehicles + r]: cached cheapest placement of request u in route r (noise and vehicle cost included). */
  cost: Float64Array;
  pi: Int32Array;
  pj: Int32Array;
  candidates: Int32Array;
  isCandidate: Uint8Array;
  classOpen: Uint8Array;
  scratch: Placement;
}

export function newRepairBuffers(s: RouteState): RepairBuffers {
  const { requestCount: R, vehicleCount: V } = s.inst;
  return {
    cost: new Float64Array(R * V),
    pi: new Int32Array(R * V),
    pj: new Int32Array(R * V),
    candidates: new Int32Array(V),
    isCandidate: new Uint8Array(V),
    classOpen: new Uint8Array(V),
    scratch: newPlacement(),
  };
}

/** Regret degree: 1 = greedy (cheapest first), 2 and 3 = regret-k, 0 = regret over all routes. */
export type Regret = 0 | 1 | 2 | 3;

/**
 * The makespan objective's price of route r with request u inserted at a placement, O(route length): the route's
 * duration (see RouteState.duration) at the makespan's weight — waiting absorbs a delay, so the end moves by less
 * than the detour — plus the waiting it could not shed by leaving later (waitingOf) at the waiting's weight.
 */
export function makespanCostWith(s: RouteState, r: number, u: number, at: Placement): number {
  const { travel, earliest, latest, service, nodeCount: n, reqPickup, reqDelivery, makespanWeight, waitingWeight } = s.inst;
  const p = reqPickup[u]!;
  const d = reqDelivery[u]!;
  const off = r * s.stride;
  const L = s.len[r]!;
  const single = p < 0 || d < 0 ? (p >= 0 ? p : d) : -1;
  let prev = s.nodes[off]!;
  let t = s.begin[off]!;
  let waited = 0;
  let slack = Infinity;
  const visit = (x: number): void => {
    const arrival = t + service[prev]! + travel[prev * n + x]!;
    if (earliest[x]! > arrival) waited += earliest[x]! - arrival;
    t = arrival > earliest[x]! ? arrival : earliest[x]!;
    const own = waited + latest[x]! - t;
    if (own < slack) slack = own;
    prev = x;
  };
  for (let k = 0; k <= L; k++) {
    if (k > 0) visit(s.nodes[off + k]!);
    if (k === at.i) visit(single >= 0 ? single : p);
    if (single < 0 && k === at.j) visit(d);
  }
  visit(s.nodes[off + L + 1]!);
  return makespanWeight * (t - s.begin[off]!) + waitingWeight * waitingOf(waited, slack);
}

function fillColumn(s: RouteState, b: RepairBuffers, r: number, noise: number, rand: () => number): void {
  const V = s.inst.vehicleCount;
  const extra = s.len[r] === 0 ? s.inst.vehicleCost : 0;
  const at = b.scratch;
  const W = s.inst.makespanWeight;
  for (let k = 0; k < s.bankSize; k++) {
    const u = s.bank[k]!;
    bestInsertion(s, u, r, at);
    let c = at.cost;
    if (c !== Infinity) {
      // Makespan: the route's duration with the request, at the makespan's weight, so the request goes where the
      // route stays shortest (balancing), and the waiting it would do; distance only separates near-equal durations.
      // Unlike a cost relative to the current makespan, it does not go stale when another route changes.
      if (W > 0) c += makespanCostWith(s, r, u, at);
      if (noise > 0) c = Math.max(0, c + noise * (2 * rand() - 1));
      c += extra;
    }
    b.cost[u * V + r] = c;
    b.pi[u * V + r] = at.i;
    b.pj[u * V + r] = at.j;
  }
}

/**
 * Inserts the bank's requests one by one (Ropke & Pisinger 2006): greedy takes the cheapest insertion, regret-k the
 * request that loses most by waiting. Placements are cached per request and route; only the changed route's column
 * is recomputed after each insert. With `allowNew`, one unused vehicle per class is a candidate (at the vehicle
 * cost). Requests that fit nowhere stay in the bank.
 */
export function repair(s: RouteState, b: RepairBuffers, regret: Regret, noise: number, rand: () => number, allowNew: boolean): void {
  const inst = s.inst;
  const V = inst.vehicleCount;
  const BIG = 1e3 * (inst.vehicleCost + inst.maxTravel + 1);
  let m = 0;
  b.classOpen.fill(0);
  b.isCandidate.fill(0);
  for (let r = 0; r < V; r++) {
    if (s.len[r]! > 0) {
      b.candidates[m++] = r;
      b.isCandidate[r] = 1;
    } else if (allowNew && !b.classOpen[inst.vehClass[r]!]) {
      b.classOpen[inst.vehClass[r]!] = 1;
      b.candidates[m++] = r;
      b.isCandidate[r] = 1;
    }
  }
  for (let c = 0; c < m; c++) fillColumn(s, b, b.candidates[c]!, noise, rand);
  while (s.bankSize > 0) {
    let pickU = -1;
    let pickR = -1;
    let pickRegret = -Infinity;
    let pickCost = Infinity;
    for (let k = 0; k < s.bankSize; k++) {
      const u = s.bank[k]!;
      let c1 = Infinity;
      let r1 = -1;
      let c2 = Infinity;
      let c3 = Infinity;
      let sum = 0;
      let feasible = 0;
      for (let c = 0; c < m; c++) {
        const r = b.candidates[c]!;
        const cost = b.cost[u * V + r]!;
        if (cost === Infinity) continue;
        feasible++;
        sum += cost;
        if (cost < c1) {
          c3 = c2;
          c2 = c1;
          c1 = cost;
          r1 = r;
        } else if (cost < c2) {
          c3 = c2;
          c2 = cost;
        } else if (cost < c3) c3 = cost;
      }
      if (r1 < 0) continue;
      let value: number;
      if (regret === 1) value = -c1;
      else if (regret === 2) value = (c2 === Infinity ? BIG : c2) - c1;
      else if (regret === 3) value = (c2 === Infinity ? BIG : c2) + (c3 === Infinity ? BIG : c3) - 2 * c1;
      else value = sum - feasible * c1 + (m - feasible) * BIG;
      if (value > pickRegret || (value === pickRegret && c1 < pickCost)) {
        pickRegret = value;
        pickCost = c1;
        pickU = u;
        pickR = r1;
      }
    }
    if (pickU < 0) return;
    const wasEmpty = s.len[pickR] === 0;
    const at = b.scratch;
    at.i = b.pi[pickU * V + pickR]!;
    at.j = b.pj[pickU * V + pickR]!;
    applyInsertion(s, pickU, pickR, at);
    fillColumn(s, b, pickR, noise, rand);
    if (wasEmpty && allowNew) {
      // The class's next unused vehicle becomes the candidate for opening a route.
      const cls = inst.vehClass[pickR]!;
      for (let r = 0; r < V; r++) {
        if (s.len[r] === 0 && !b.isCandidate[r] && inst.vehClass[r] === cls) {
          b.candidates[m++] = r;
          b.isCandidate[r] = 1;
          fillColumn(s, b, r, noise, rand);
          break;
        }
      }
    }
  }
}
