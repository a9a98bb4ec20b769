// A lane's rows (issue 39, decision 1652): consecutive stops of one type at one place that move alike collapse into
// one row ("8 pickups · Depot"), so a morning's depot pickups take one card, not thirty-six. A group is a row of the
// lane's GridList like a stop: dragging it drags all of its stops; expanded, its stops are rows of their own.
import type { Schemas } from '../../../api/index.ts';

type Stop = Schemas['Stop'];

export type LaneRow = { kind: 'stop'; id: string; stop: Stop } | { kind: 'group'; id: string; stops: Stop[] };

/** The key of a group row: its first stop's id, prefixed, so a row's key never equals a stop's. */
export const groupKey = (firstStopId: string): string => `group:${firstStopId}`;

/** Where a stop is: its place when it has one, else its coordinates (to about a metre) and its address — one door. */
const whereOf = (stop: Stop): string =>
  stop.place_id ?? [stop.location.lat.toFixed(5), stop.location.lng.toFixed(5), stop.address.street, stop.address.number ?? '', stop.address.city].join('|');

/** Stops that collapse together: same type, same place, and both draggable or both not (a group moves as one). */
const sameCard = (a: Stop, b: Stop): boolean => a.type === b.type && whereOf(a) === whereOf(b) && (a.status === 'scheduled') === (b.status === 'scheduled');

/** The lane's rows for `stops` in tour order; groups in `expanded` (by key) are shown as their stops. */
export function laneRows(stops: readonly Stop[], expanded: ReadonlySet<string>): LaneRow[] {
  const rows: LaneRow[] = [];
  for (let i = 0; i < stops.length; ) {
    let j = i + 1;
    while (j < stops.length && sameCard(stops[i]!, stops[j]!)) j++;
    const run = stops.slice(i, j);
    const key = groupKey(run[0]!.id);
    if (run.length > 1 && !expanded.has(key)) rows.push({ kind: 'group', id: key, stops: run });
    else for (const stop of run) rows.push({ kind: 'stop', id: stop.id, stop });
    i = j;
  }
  return rows;
}

/** The group that starts at each stop of `stops` (expanded or not): what an expanded group's stops can collapse into. */
export function groupStarts(stops: readonly Stop[]): Map<string, string> {
  const startOf = new Map<string, string>();
  for (let i = 0; i < stops.length; ) {
    let j = i + 1;
    while (j < stops.length && sameCard(stops[i]!, stops[j]!)) j++;
    if (j - i > 1) for (const stop of stops.slice(i, j)) startOf.set(stop.id, groupKey(stops[i]!.id));
    i = j;
  }
  return startOf;
}

/** The stop ids behind some row keys: a group's key stands for all of its stops. */
export function stopIdsOf(rows: readonly LaneRow[], keys: Iterable<string>): string[] {
  const byKey = new Map(rows.map((row) => [row.id, row]));
  return [...keys].flatMap((key) => {
    const row = byKey.get(key);
    return row?.kind === 'group' ? row.stops.map((s) => s.id) : [key];
  });
}
