// Where the open stops go on a tour whose finished stops stay put (issue 16: completed, failed, approaching and
// arrived stops stay where they are; decision 0955). Pure: the open stops fill the positions they held, in the
// solver's order as far as precedence with the fixed stops allows (a drop-off after its served pickup's position).
import { predecessors, type PlanStop } from './problem.ts';
import type { PackageLink } from '../stops/index.ts';

/**
 * The tour's stops (current order) with every fixed stop at its position and the open stops, `open` (in the wanted
 * order), in the remaining positions: each open stop after the stops it depends on and before those depending on it.
 * Where the wanted order breaks that, each free position takes the first stop of `open` that may go there and leaves
 * the rest a filling (earliest-deadline-first decides that). Null when there is no filling at all.
 */
export function inFreePositions<S extends PlanStop>(tourStops: readonly S[], links: readonly PackageLink[], open: readonly S[], isFixed: (s: S) => boolean): S[] | null {
  const free = tourStops.flatMap((s, i) => (isFixed(s) ? [] : [i]));
  const ids = new Set(open.map((s) => s.id));
  if (free.length !== open.length || ids.size !== open.length || free.some((i) => !ids.has(tourStops[i]!.id))) return null;
  const preds = predecessors(tourStops, links);
  const fixedAt = new Map(tourStops.flatMap((s, i) => (isFixed(s) ? [[s.id, i] as const] : [])));
  const m = open.length;
  const index = new Map(open.map((s, k) => [s.id, k]));
  const openPreds = open.map((s) => [...preds.get(s.id)!].filter((p) => index.has(p)).map((p) => index.get(p)!));
  // In free-position indices: the first a stop may take (after its fixed predecessors) and the last (before its fixed
  // dependants), then narrowed along precedence among the open stops.
  const lo = open.map((s) => {
    const after = Math.max(-1, ...[...preds.get(s.id)!].map((p) => fixedAt.get(p) ?? -1));
    const k = free.findIndex((i) => i > after);
    return k === -1 ? m : k;
  });
  const hi = open.map(() => m - 1);
  for (const [id, at] of fixedAt) for (const p of preds.get(id)!) if (index.has(p)) hi[index.get(p)!] = Math.min(hi[index.get(p)!]!, free.filter((i) => i < at).length - 1);
  for (let round = 0; round < m; round++) {
    let changed = false;
    openPreds.forEach((before, q) => {
      for (const p of before) {
        if (lo[q]! < lo[p]! + 1) [lo[q], changed] = [lo[p]! + 1, true];
        if (hi[p]! > hi[q]! - 1) [hi[p], changed] = [hi[q]! - 1, true];
      }
    });
    if (!changed) break;
  }
  const order = [...tourStops];
  // Usually the wanted order fits as it is (O(stops)); else each position is chosen with a look-ahead (O(stops³)).
  if (open.every((_, k) => lo[k]! <= k && hi[k]! >= k && openPreds[k]!.every((p) => p < k))) {
    free.forEach((i, k) => (order[i] = open[k]!));
    return order;
  }
  const placed = new Uint8Array(m);
  const may = (q: number, k: number, done: Uint8Array) => !done[q] && lo[q]! <= k && hi[q]! >= k && openPreds[q]!.every((p) => done[p]);
  /** Whether positions k… can still be filled: earliest deadline first among the stops that may go there. */
  const fillable = (k: number): boolean => {
    const done = placed.slice();
    for (let j = k; j < m; j++) {
      let pick = -1;
      for (let q = 0; q < m; q++) if (may(q, j, done) && (pick === -1 || hi[q]! < hi[pick]!)) pick = q;
      if (pick === -1) return false;
      done[pick] = 1;
    }
    return true;
  };
  for (let k = 0; k < m; k++) {
    let chosen = -1;
    for (let q = 0; q < m && chosen === -1; q++) {
      if (!may(q, k, placed)) continue;
      placed[q] = 1;
      if (fillable(k + 1)) chosen = q;
      else placed[q] = 0;
    }
    if (chosen === -1) return null;
    order[free[k]!] = open[chosen]!;
  }
  return order;
}
