// The search: construction, a route-elimination phase (ejection pool with penalty counters, perturbed by LNS), then
// adaptive large neighbourhood search with simulated annealing on distance. Anytime: the best is kept throughout.
import { construct, loadInitial } from './construction.ts';
import { insertAnywhere, insertWithEjection, newEjectionBuffers } from './ejection.ts';
import { newPlacement, newRepairBuffers, repair, type Regret } from './insertion.ts';
import type { Instance } from './instance.ts';
import { createRng, type Rng } from './prng.ts';
import { emptyRoute, newRemovalBuffers, removeRandom, removeRoute, removeShaw, removeWorst, type RemovalBuffers } from './removal.ts';
import { RouteState } from './route-state.ts';

/** Tunables, with the values used unless a caller overrides them (docs/optimizer.md explains each). */
export interface AlnsParameters {
  /** Share of the budget for route elimination (vehicles objective only). */
  eliminationShare: number;
  /** Route elimination's perturbation: requests removed per step, uniform in [2, eliminationRemove]. */
  eliminationRemove: number;
  /**
   * Route elimination gives up on a route after this many steps × requests without a smaller pool, and tries
   * another from the best solution (0: never, one route for the whole phase).
   */
  eliminationStall: number;
  /**
   * At scale (more requests than this), vehicles weigh most and an iteration costs most: route elimination gets
   * `eliminationShareLarge` of the budget, and its perturbation leaves the ejection pool out (it repairs only what
   * it removed, not the whole pool: far cheaper when the pool holds a long route's requests).
   */
  largeRequests: number;
  eliminationShareLarge: number;
  /** Requests removed per iteration: uniform in [minRemove, max(minRemove, removeShare · requests)], at most maxRemove. */
  minRemove: number;
  removeShare: number;
  maxRemove: number;
  /** Start temperature: a solution this much worse (relative) is accepted with probability 1/2. */
  startWorse: number;
  /** End temperature as a fraction of the start temperature. */
  coolTo: number;
  /** Insertion noise as a fraction of the longest travel (Ropke & Pisinger's η). */
  noise: number;
  /** Adaptive weights: segment length, reaction factor, scores for new best / better / accepted-new. */
  segment: number;
  reaction: number;
  scores: readonly [number, number, number];
}

export const DEFAULT_PARAMETERS: AlnsParameters = {
  eliminationShare: 0.5,
  eliminationRemove: 10,
  eliminationStall: 0,
  largeRequests: 150,
  eliminationShareLarge: 0.8,
  minRemove: 4,
  removeShare: 0.4,
  maxRemove: 40,
  startWorse: 0.05,
  coolTo: 0.01,
  noise: 0.025,
  segment: 100,
  reaction: 0.1,
  scores: [33, 9, 13],
};

type Destroy = (s: RouteState, b: RemovalBuffers, q: number, rng: Rng) => void;
const DESTROYS: readonly Destroy[] = [removeRandom, removeWorst, removeShaw, removeRoute];
const REPAIRS: readonly { regret: Regret; noisy: boolean }[] = [
  { regret: 1, noisy: false },
  { regret: 2, noisy: false },
  { regret: 3, noisy: false },
  { regret: 0, noisy: false },
  { regret: 1, noisy: true },
  { regret: 2, noisy: true },
];

export interface SearchOptions {
  timeLimitMs: number;
  seed: number;
  vehiclesFirst: boolean;
  initial?: readonly (readonly number[])[];
  maxIterations?: number;
  parameters?: Partial<AlnsParameters>;
  now?: () => number;
}

export interface SearchResult {
  best: RouteState;
  iterations: number;
}

/**
 * a is better than b: fewer unassigned requests, then lower cost (vehicles, then distance); under the makespan
 * objective, exactly lexicographic: the longest route, then distance and weighted waiting.
 */
const better = (a: RouteState, b: RouteState): boolean => {
  if (a.bankSize !== b.bankSize) return a.bankSize < b.bankSize;
  if (a.inst.makespanWeight > 0) {
    const ma = a.makespan();
    const mb = b.makespan();
    if (Math.abs(ma - mb) > 1e-9) return ma < mb;
    const w = a.inst.waitingWeight;
    return a.distance() + w * a.waiting() < b.distance() + w * b.waiting() - 1e-9;
  }
  return a.cost() < b.cost() - 1e-9;
};

/** Roulette-wheel choice with adaptive weights (Ropke & Pisinger 2006, §4.3). */
class Wheel {
  readonly weights: Float64Array;
  readonly scores: Float64Array;
  readonly uses: Float64Array;
  constructor(size: number) {
    this.weights = new Float64Array(size).fill(1);
    this.scores = new Float64Array(size);
    this.uses = new Float64Array(size);
  }
  pick(rng: Rng): number {
    let total = 0;
    for (const w of this.weights) total += w;
    let x = rng.next() * total;
    for (let k = 0; k < this.weights.length; k++) if ((x -= this.weights[k]!) < 0) return k;
    return this.weights.length - 1;
  }
  update(reaction: number): void {
    for (let k = 0; k < this.weights.length; k++) {
      if (this.uses[k]! > 0) this.weights[k] = this.weights[k]! * (1 - reaction) + (reaction * this.scores[k]!) / this.uses[k]!;
      this.weights[k] = Math.max(this.weights[k]!, 0.05);
      this.scores[k] = 0;
      this.uses[k] = 0;
    }
  }
}

export function search(inst: Instance, options: SearchOptions): SearchResult {
  const P = { ...DEFAULT_PARAMETERS, ...options.parameters };
  const now = options.now ?? (() => performance.now());
  const started = now();
  const deadline = started + options.timeLimitMs;
  const maxIter = options.maxIterations ?? Infinity;
  const rng = createRng(options.seed);
  const rand = () => rng.next();

  let cur = new RouteState(inst);
  let cand = new RouteState(inst);
  const best = new RouteState(inst);
  const repairBuffers = newRepairBuffers(cur);
  const removalBuffers = newRemovalBuffers(cur);
  if (options.initial) loadInitial(cur, options.initial);
  repair(cur, repairBuffers, 2, 0, rand, true);
  if (!options.initial) construct(cur, repairBuffers);
  best.copyFrom(cur);
  let iterations = 0;
  // Progress in [0, 1]: by iterations when a cap is given (deterministic), else by the clock.
  const progress = (): number => (maxIter < Infinity ? iterations / maxIter : (now() - started) / options.timeLimitMs);
  const outOfBudget = (): boolean => iterations >= maxIter || now() >= deadline;
  const requests = inst.requestCount;
  const qMax = Math.max(P.minRemove, Math.min(P.maxRemove, Math.round(P.removeShare * requests)));
  const removeCount = (assigned: number): number => Math.min(assigned, P.minRemove + rng.int(qMax - P.minRemove + 1));

  const penalty = new Float64Array(requests);
  const ejection = newEjectionBuffers(cur);
  const at = newPlacement();
  const placed = newPlacement();
  /**
   * The ejection-pool loop (Nagata & Kobayashi 2010): a banked request goes in where it fits, else by ejecting the
   * requests with the smallest penalty counters (bumped each time a request fails to fit); an LNS step that never
   * grows the bank perturbs the routes. Runs until the bank is empty or `ends`; `improved` sees every state with a
   * smaller bank than before. Returns whether the bank emptied.
   */
  const pool = new Int32Array(requests);
  const ejectionPool = (ends: () => boolean, openEmpty: boolean, lockPool: boolean, stallLimit: number, improved?: (s: RouteState) => void): boolean => {
    let smallest = cur.bankSize;
    let stalled = 0;
    while (cur.bankSize > 0 && !ends() && stalled < stallLimit) {
      iterations++;
      const u = cur.bank[rng.int(cur.bankSize)]!;
      if (insertAnywhere(cur, u, at, placed, openEmpty) < 0) {
        penalty[u] = penalty[u]! + 1;
        insertWithEjection(cur, u, penalty, ejection, 2);
      }
      // Perturb: LNS on the routes; the bank may not grow.
      cand.copyFrom(cur);
      const before = cand.bankSize;
      // With `lockPool`, the pool sits out the perturbation (as in Nagata & Kobayashi): otherwise repair puts the
      // cheap request that was just ejected straight back, undoing the ejection that made room for a costlier one.
      const locked = lockPool ? before : 0;
      for (let k = 0; k < locked; k++) pool[k] = cand.bank[k]!;
      for (let k = 0; k < locked; k++) cand.removeFromBank(pool[k]!);
      DESTROYS[rng.int(3)]!(cand, removalBuffers, Math.min(requests - before, 2 + rng.int(Math.max(1, P.eliminationRemove - 1))), rng);
      cand.restoreAllFeasibility();
      repair(cand, repairBuffers, rng.next() < 0.5 ? 2 : 1, rng.next() < 0.5 ? P.noise * inst.maxTravel : 0, rand, openEmpty);
      for (let k = 0; k < locked; k++) cand.addToBank(pool[k]!);
      if (cand.bankSize <= before) [cur, cand] = [cand, cur];
      if (cur.bankSize < smallest) {
        smallest = cur.bankSize;
        stalled = 0;
        improved?.(cur);
      } else stalled++;
    }
    return cur.bankSize === 0;
  };

  // A fleet too small for every request: place as many as it can take before anything else (every objective).
  if (best.bankSize > 0 && requests > 0) {
    cur.copyFrom(best);
    penalty.fill(1);
    ejectionPool(() => outOfBudget() || progress() >= P.eliminationShare, true, true, Infinity, (s) => {
      if (better(s, best)) best.copyFrom(s);
    });
  }

  // Route elimination: empty a route, then work its requests back in with ejections and LNS perturbation.
  if (options.vehiclesFirst && best.bankSize === 0) {
    // A pickup-and-delivery vehicle frees capacity at each delivery, so there is no useful load bound: stop at one.
    const lowerBound = 1;
    const large = requests > P.largeRequests;
    const share = large ? P.eliminationShareLarge : P.eliminationShare;
    const eliminationEnds = () => outOfBudget() || progress() >= share;
    const stallLimit = P.eliminationStall > 0 ? P.eliminationStall * requests : Infinity;
    while (!eliminationEnds() && best.usedVehicles() > lowerBound) {
      cur.copyFrom(best);
      penalty.fill(1);
      const victim = pickShortRoute(cur, rng);
      emptyRoute(cur, victim);
      repair(cur, repairBuffers, 2, 0, rand, false);
      const emptied = ejectionPool(eliminationEnds, false, large, stallLimit);
      // Kept only when it beats the best: a route whose requests can go nowhere else (goods already on board are
      // bound to their vehicle) comes back whole, as many vehicles and possibly a longer way round.
      if (!emptied) {
        if (!eliminationEnds()) continue;
        break;
      }
      if (!better(cur, best)) break;
      best.copyFrom(cur);
    }
  }

  // Distance: ALNS with simulated annealing from the best so far.
  cur.copyFrom(best);
  const destroyWheel = new Wheel(DESTROYS.length);
  const repairWheel = new Wheel(REPAIRS.length);
  const seen = new Set<number>();
  const startProgress = progress();
  // Makespan: the temperature follows the whole cost, or a longer longest route would never be accepted.
  const t0 = (P.startWorse * Math.max(1e-9, inst.makespanWeight > 0 ? cur.cost() : cur.distance())) / Math.LN2;
  const allowNew = !options.vehiclesFirst;
  let curCost = cur.cost();
  let bestCost = best.cost();
  while (!outOfBudget()) {
    iterations++;
    const span = Math.max(1e-9, 1 - startProgress);
    const temperature = t0 * Math.pow(P.coolTo, Math.min(1, (progress() - startProgress) / span));
    cand.copyFrom(cur);
    const d = destroyWheel.pick(rng);
    const r = repairWheel.pick(rng);
    DESTROYS[d]!(cand, removalBuffers, removeCount(requests - cand.bankSize), rng);
    cand.restoreAllFeasibility();
    repair(cand, repairBuffers, REPAIRS[r]!.regret, REPAIRS[r]!.noisy ? P.noise * inst.maxTravel : 0, rand, allowNew);
    let score = 0;
    if (cand.bankSize <= cur.bankSize) {
      const candCost = cand.cost();
      const accept = cand.bankSize < cur.bankSize || candCost < curCost || rng.next() < Math.exp((curCost - candCost) / temperature);
      if (accept) {
        const h = cand.hash();
        const fresh = !seen.has(h);
        if (fresh) {
          if (seen.size > 200_000) seen.clear();
          seen.add(h);
        }
        if (better(cand, best)) {
          best.copyFrom(cand);
          bestCost = candCost;
          score = P.scores[0];
        } else if (fresh) score = candCost < curCost ? P.scores[1] : P.scores[2];
        [cur, cand] = [cand, cur];
        curCost = candCost;
      }
    }
    destroyWheel.scores[d] = destroyWheel.scores[d]! + score;
    destroyWheel.uses[d] = destroyWheel.uses[d]! + 1;
    repairWheel.scores[r] = repairWheel.scores[r]! + score;
    repairWheel.uses[r] = repairWheel.uses[r]! + 1;
    if (iterations % P.segment === 0) {
      destroyWheel.update(P.reaction);
      repairWheel.update(P.reaction);
    }
  }
  void bestCost;
  return { best, iterations };
}

function pickShortRoute(s: RouteState, rng: Rng): number {
  const V = s.inst.vehicleCount;
  let used = 0;
  for (let r = 0; r < V; r++) if (s.len[r]! > 0) used++;
  const pick = (): number => {
    let k = rng.int(used);
    for (let r = 0; r < V; r++) if (s.len[r]! > 0 && k-- === 0) return r;
    return 0;
  };
  const a = pick();
  const b = pick();
  return s.len[a]! <= s.len[b]! ? a : b;
}
