// The mutable solution the search works on: every route in flat typed arrays with, per position, the service
// begin time, the load after service, the latest feasible begin (so an insertion is checked in O(1) at its end)
// and the suffix maximum of the load; plus the request bank (unassigned requests).
import type { Instance } from './instance.ts';

/**
 * A class, unlike the rest of the code base: the state is a dozen typed arrays that are updated in place in the
 * search's inner loop and copied wholesale on accept/reject, and methods keep that bookkeeping in one place.
 */
export class RouteState {
  readonly inst: Instance;
  /** Slots per route: every stop could be on one route, plus its start and end nodes. */
  readonly stride: number;
  readonly len: Int32Array;
  readonly nodes: Int32Array;
  readonly begin: Float64Array;
  readonly load: Float64Array;
  /** Latest begin at a position such that the rest of the route stays feasible. */
  readonly lateBegin: Float64Array;
  /** Largest load from a position to the route's end. */
  readonly suffixMaxLoad: Float64Array;
  /** The same two per further capacity dimension: loadX[(off + k) * dims + d] (empty when dims is 0). */
  readonly loadX: Float64Array;
  readonly suffixMaxLoadX: Float64Array;
  readonly routeDist: Float64Array;
  /** Per route, the seconds it waits for windows that leaving later cannot absorb (see waitingOf). */
  readonly routeWait: Float64Array;
  readonly routeOf: Int32Array;
  readonly posOf: Int32Array;
  readonly bank: Int32Array;
  readonly bankIndex: Int32Array;
  bankSize = 0;

  constructor(inst: Instance) {
    this.inst = inst;
    const V = inst.vehicleCount;
    this.stride = inst.stopCount + 2;
    const size = V * this.stride;
    this.len = new Int32Array(V);
    this.nodes = new Int32Array(size);
    this.begin = new Float64Array(size);
    this.load = new Float64Array(size);
    this.lateBegin = new Float64Array(size);
    this.suffixMaxLoad = new Float64Array(size);
    this.loadX = new Float64Array(size * inst.dims);
    this.suffixMaxLoadX = new Float64Array(size * inst.dims);
    this.routeDist = new Float64Array(V);
    this.routeWait = new Float64Array(V);
    this.routeOf = new Int32Array(inst.stopCount).fill(-1);
    this.posOf = new Int32Array(inst.stopCount).fill(-1);
    this.bank = new Int32Array(inst.requestCount);
    this.bankIndex = new Int32Array(inst.requestCount).fill(-1);
    for (let r = 0; r < V; r++) {
      const off = r * this.stride;
      this.nodes[off] = inst.stopCount + 2 * r;
      this.nodes[off + 1] = inst.stopCount + 2 * r + 1;
      this.rebuild(r);
    }
    for (let u = 0; u < inst.requestCount; u++) this.addToBank(u);
  }

  /** Recomputes a route's times, loads, slack and distance after its node sequence changed: O(route length). */
  rebuild(r: number): void {
    const { travel, earliest, latest, service, demand, nodeCount: n, stopCount } = this.inst;
    const off = r * this.stride;
    const L = this.len[r]!;
    const nodes = this.nodes;
    const begin = this.begin;
    const load = this.load;
    begin[off] = earliest[nodes[off]!]!;
    load[off] = this.inst.vehInitialLoad[r]!;
    let dist = 0;
    let waited = 0;
    let slack = Infinity;
    for (let k = 1; k <= L + 1; k++) {
      const a = nodes[off + k - 1]!;
      const b = nodes[off + k]!;
      const t = travel[a * n + b]!;
      dist += t;
      const arrival = begin[off + k - 1]! + service[a]! + t;
      const e = earliest[b]!;
      begin[off + k] = arrival > e ? arrival : e;
      if (e > arrival) waited += e - arrival;
      const own = waited + latest[b]! - begin[off + k]!;
      if (own < slack) slack = own;
      load[off + k] = load[off + k - 1]! + (b < stopCount ? demand[b]! : 0);
      if (b < stopCount) {
        this.routeOf[b] = r;
        this.posOf[b] = k;
      }
    }
    const late = this.lateBegin;
    const sml = this.suffixMaxLoad;
    late[off + L + 1] = latest[nodes[off + L + 1]!]!;
    sml[off + L + 1] = load[off + L + 1]!;
    for (let k = L; k >= 0; k--) {
      const a = nodes[off + k]!;
      const b = nodes[off + k + 1]!;
      const viaNext = late[off + k + 1]! - travel[a * n + b]! - service[a]!;
      const own = latest[a]!;
      late[off + k] = viaNext < own ? viaNext : own;
      const l = load[off + k]!;
      sml[off + k] = l > sml[off + k + 1]! ? l : sml[off + k + 1]!;
    }
    this.routeDist[r] = dist;
    this.routeWait[r] = L > 0 ? waitingOf(waited, slack) : 0;
    if (this.inst.dims > 0) this.rebuildLoadsX(r);
  }

  private rebuildLoadsX(r: number): void {
    const { dims: D, demandX, vehInitialLoadX, stopCount } = this.inst;
    const off = r * this.stride;
    const L = this.len[r]!;
    const lx = this.loadX;
    const sx = this.suffixMaxLoadX;
    for (let d = 0; d < D; d++) lx[off * D + d] = vehInitialLoadX[r * D + d]!;
    for (let k = 1; k <= L + 1; k++) {
      const b = this.nodes[off + k]!;
      for (let d = 0; d < D; d++) lx[(off + k) * D + d] = lx[(off + k - 1) * D + d]! + (b < stopCount ? demandX[b * D + d]! : 0);
    }
    for (let d = 0; d < D; d++) sx[(off + L + 1) * D + d] = lx[(off + L + 1) * D + d]!;
    for (let k = L; k >= 0; k--) {
      for (let d = 0; d < D; d++) {
        const l = lx[(off + k) * D + d]!;
        const next = sx[(off + k + 1) * D + d]!;
        sx[(off + k) * D + d] = l > next ? l : next;
      }
    }
  }

  /** Whether adding stop x's further demands to the load at slot `at` (a route offset plus position) stays in capacity. */
  fitsX(r: number, at: number, x: number, suffix: boolean): boolean {
    const { dims: D, demandX, vehCapacityX } = this.inst;
    const src = suffix ? this.suffixMaxLoadX : this.loadX;
    for (let d = 0; d < D; d++) if (src[at * D + d]! + demandX[x * D + d]! > vehCapacityX[r * D + d]! + 1e-9) return false;
    return true;
  }

  /** Time route r is back at its end minus its vehicle's earliest (0 for an unused vehicle). */
  duration(r: number): number {
    if (this.len[r] === 0) return 0;
    const off = r * this.stride;
    return this.begin[off + this.len[r]! + 1]! - this.begin[off]!;
  }

  /** Seconds waited on every route that leaving later could not absorb. */
  waiting(): number {
    let w = 0;
    for (let r = 0; r < this.inst.vehicleCount; r++) w += this.routeWait[r]!;
    return w;
  }

  /** The longest route's duration. */
  makespan(): number {
    let m = 0;
    for (let r = 0; r < this.inst.vehicleCount; r++) if (this.len[r]! > 0) m = Math.max(m, this.duration(r));
    return m;
  }

  /** Puts pickup after position i and delivery after position j (positions of the route before the insert, j ≥ i). */
  insertPair(r: number, p: number, d: number, i: number, j: number): void {
    const off = r * this.stride;
    const L = this.len[r]!;
    const nodes = this.nodes;
    for (let k = L + 1; k > j; k--) nodes[off + k + 2] = nodes[off + k]!;
    nodes[off + j + 2] = d;
    for (let k = j; k > i; k--) nodes[off + k + 1] = nodes[off + k]!;
    nodes[off + i + 1] = p;
    this.len[r] = L + 2;
    this.removeFromBank(this.inst.requestOf[p]!);
    this.rebuild(r);
  }

  /** Puts a lone stop (a request with only a pickup or only a delivery) after position i. */
  insertSingle(r: number, s: number, i: number): void {
    const off = r * this.stride;
    const L = this.len[r]!;
    for (let k = L + 1; k > i; k--) this.nodes[off + k + 1] = this.nodes[off + k]!;
    this.nodes[off + i + 1] = s;
    this.len[r] = L + 1;
    this.removeFromBank(this.inst.requestOf[s]!);
    this.rebuild(r);
  }

  /** Takes a request's stops off their route (both routes, for a pair a given start split) and banks the request. */
  removeRequest(u: number): void {
    const { reqPickup, reqDelivery } = this.inst;
    const p = reqPickup[u]!;
    const d = reqDelivery[u]!;
    const rp = p >= 0 ? this.routeOf[p]! : -1;
    const rd = d >= 0 ? this.routeOf[d]! : -1;
    if (rp < 0 && rd < 0) return;
    if (rp >= 0) this.takeOff(rp, u);
    if (rd >= 0 && rd !== rp) this.takeOff(rd, u);
    this.addToBank(u);
  }

  private takeOff(r: number, u: number): void {
    const { requestOf, stopCount } = this.inst;
    const off = r * this.stride;
    const L = this.len[r]!;
    let w = 1;
    for (let k = 1; k <= L + 1; k++) {
      const node = this.nodes[off + k]!;
      if (node < stopCount && requestOf[node] === u) {
        this.routeOf[node] = -1;
        this.posOf[node] = -1;
        continue;
      }
      this.nodes[off + w++] = node;
    }
    this.len[r] = w - 2;
    this.rebuild(r);
  }

  /**
   * First position on route r that breaks a window, the capacity or a pickup-before-delivery rule; -1 if none. A
   * route over the stop limit breaks it at its last stop.
   */
  firstViolation(r: number): number {
    const { latest, reqPickup, reqDelivery, reqVehicle, requestOf, stopCount } = this.inst;
    const off = r * this.stride;
    const L = this.len[r]!;
    if (L > this.inst.maxRouteStops) return L;
    const cap = this.inst.vehCapacity[r]!;
    const { dims: D, vehCapacityX, allowed, vehicleCount: V } = this.inst;
    for (let k = 1; k <= L + 1; k++) {
      const x = this.nodes[off + k]!;
      if (this.begin[off + k]! > latest[x]! || this.load[off + k]! > cap + 1e-9) return k;
      for (let d = 0; d < D; d++) if (this.loadX[(off + k) * D + d]! > vehCapacityX[r * D + d]! + 1e-9) return k;
      if (x >= stopCount) continue;
      const u = requestOf[x]!;
      if (allowed && !allowed[u * V + r]) return k;
      const p = reqPickup[u]!;
      const d = reqDelivery[u]!;
      if (p >= 0 && d >= 0 && (this.routeOf[p] !== r || this.routeOf[d] !== r || this.posOf[p]! > this.posOf[d]!)) return k;
      if (reqVehicle[u]! >= 0 && reqVehicle[u] !== r) return k;
    }
    return -1;
  }

  /**
   * Takes requests off route r, at its first violation each time, until the route is feasible. Taking a request
   * off usually keeps a route feasible, but not always: a lone delivery of goods already on board raises the load
   * after it when it leaves, and a road matrix need not obey the triangle inequality.
   */
  restoreFeasibility(r: number): void {
    const off = r * this.stride;
    for (let k = this.firstViolation(r); k >= 0 && this.len[r]! > 0; k = this.firstViolation(r)) {
      // Back at the end too late: the last stop's request goes.
      this.removeRequest(this.inst.requestOf[this.nodes[off + Math.min(k, this.len[r]!)]!]!);
    }
  }

  /** restoreFeasibility on every used route: O(stops), after a destroy operator. */
  restoreAllFeasibility(): void {
    for (let r = 0; r < this.inst.vehicleCount; r++) if (this.len[r]! > 0) this.restoreFeasibility(r);
  }

  /** Route of a request, or -1 when it is in the bank. */
  routeOfRequest(u: number): number {
    const p = this.inst.reqPickup[u]!;
    return this.routeOf[p >= 0 ? p : this.inst.reqDelivery[u]!]!;
  }

  addToBank(u: number): void {
    if (this.bankIndex[u] !== -1) return;
    this.bankIndex[u] = this.bankSize;
    this.bank[this.bankSize++] = u;
  }

  removeFromBank(u: number): void {
    const at = this.bankIndex[u]!;
    if (at === -1) return;
    const last = this.bank[--this.bankSize]!;
    this.bank[at] = last;
    this.bankIndex[last] = at;
    this.bankIndex[u] = -1;
  }

  copyFrom(o: RouteState): void {
    this.len.set(o.len);
    this.nodes.set(o.nodes);
    this.begin.set(o.begin);
    this.load.set(o.load);
    this.lateBegin.set(o.lateBegin);
    this.suffixMaxLoad.set(o.suffixMaxLoad);
    this.loadX.set(o.loadX);
    this.suffixMaxLoadX.set(o.suffixMaxLoadX);
    this.routeDist.set(o.routeDist);
    this.routeWait.set(o.routeWait);
    this.routeOf.set(o.routeOf);
    this.posOf.set(o.posOf);
    this.bank.set(o.bank);
    this.bankIndex.set(o.bankIndex);
    this.bankSize = o.bankSize;
  }

  distance(): number {
    let d = 0;
    for (let r = 0; r < this.inst.vehicleCount; r++) if (this.len[r]! > 0) d += this.routeDist[r]!;
    return d;
  }

  usedVehicles(): number {
    let m = 0;
    for (let r = 0; r < this.inst.vehicleCount; r++) if (this.len[r]! > 0) m++;
    return m;
  }

  /**
   * The search's objective: vehicle cost (hierarchical) or weighted makespan and waiting, plus distance; the bank is
   * judged separately.
   */
  cost(): number {
    const makespan = this.inst.makespanWeight > 0 ? this.inst.makespanWeight * this.makespan() : 0;
    const waiting = this.inst.waitingWeight > 0 ? this.inst.waitingWeight * this.waiting() : 0;
    return this.usedVehicles() * this.inst.vehicleCost + makespan + waiting + this.distance();
  }

  /** Stops of route r in order. Allocates: for results and tests, not for the search. */
  stopsOf(r: number): number[] {
    const off = r * this.stride;
    return Array.from(this.nodes.subarray(off + 1, off + 1 + this.len[r]!));
  }

  /** Order-sensitive fingerprint of the routes, to score solutions the search has not seen before. */
  hash(): number {
    const n = this.inst.nodeCount;
    let h = 0;
    for (let r = 0; r < this.inst.vehicleCount; r++) {
      const L = this.len[r]!;
      if (L === 0) continue;
      const off = r * this.stride;
      for (let k = 1; k <= L; k++) {
        let x = Math.imul(this.nodes[off + k - 1]! * n + this.nodes[off + k]! + 1, 0x9e3779b1);
        x ^= x >>> 15;
        x = Math.imul(x, 0x85ebca6b);
        h = (h + ((x ^ (x >>> 13)) >>> 0)) % 9007199254740881;
      }
    }
    return h;
  }
}

/**
 * The waiting a route leaving at its vehicle's earliest cannot shed by leaving later: leaving later by d shortens
 * the waiting by d as long as d stays within the forward slack at its start, the least over its stops of the waiting
 * before a stop plus that stop's room to its window's close (Savelsbergh 1992) — what a proposed tour does
 * (planning/fleet.ts fleetScheduleOf).
 */
export const waitingOf = (waited: number, slack: number): number => (waited > slack ? waited - (slack > 0 ? slack : 0) : 0);
