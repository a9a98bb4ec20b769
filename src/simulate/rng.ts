// A small seeded pseudo-random generator (mulberry32): the simulator's every choice comes from it, so a seed
// replays the same city.
export interface Rng {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** The integers 0 … n − 1 in a random order (Fisher–Yates). */
  permutation(n: number): number[];
}

export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    chance: (p) => next() < p,
    permutation: (n) => {
      const order = Array.from({ length: n }, (_, k) => k);
      for (let k = n - 1; k > 0; k--) {
        const j = Math.floor(next() * (k + 1));
        [order[k], order[j]] = [order[j] as number, order[k] as number];
      }
      return order;
    },
  };
}
