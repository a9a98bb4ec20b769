// Parses the Li & Lim PDPTW benchmark format (SINTEF TOP): "K Q S", then "id x y demand earliest latest service
// pickup delivery" per task; task 0 is the depot. Euclidean travel, unrounded.
import type { BenchmarkInstance } from './index.ts';

export function parseLiLim(text: string, name: string): BenchmarkInstance {
  const rows = text.trim().split(/\r?\n/).map((line) => line.trim().split(/\s+/).map(Number));
  const header = rows[0];
  if (!header || header.length < 2 || header.some(Number.isNaN)) throw new Error(`${name}: first line must be "K Q S"`);
  const [maxVehicles, capacity] = header as [number, number];
  const tasks = rows.slice(1).filter((row) => row.length >= 9);
  tasks.forEach((row, k) => {
    if (row.some(Number.isNaN) || row[0] !== k) throw new Error(`${name}: task line ${k + 2} is malformed`);
  });
  const depot = tasks[0];
  if (!depot) throw new Error(`${name}: no depot line`);
  const stops = [];
  const requests = [];
  const taskIds: number[] = [];
  const stopOfTask = new Map<number, number>();
  for (const [id, , , demand, earliest, latest, service] of tasks.slice(1) as number[][]) {
    stopOfTask.set(id!, stops.length);
    taskIds.push(id!);
    stops.push({ location: id!, demand: demand!, earliest: earliest!, latest: latest!, service: service! });
  }
  for (const row of tasks.slice(1)) {
    const [id, , , , , , , pickup, delivery] = row as [number, number, number, number, number, number, number, number, number];
    if (pickup !== 0) continue;
    const d = stopOfTask.get(delivery);
    const back = tasks[delivery];
    if (d === undefined || !back || back[7] !== id) throw new Error(`${name}: pickup ${id} names delivery ${delivery}, which does not name it back`);
    requests.push({ pickup: stopOfTask.get(id)!, delivery: d });
  }
  if (requests.length * 2 !== stops.length) throw new Error(`${name}: ${stops.length} tasks but ${requests.length} pickup-delivery pairs`);
  const vehicle = { start: 0, end: 0, earliest: depot[4]!, latest: depot[5]!, capacity };
  return {
    name,
    format: 'li-lim',
    problem: {
      travel: { kind: 'euclidean', points: tasks.map((row) => [row[1]!, row[2]!] as const) },
      stops,
      requests,
      // K bounds the fleet; no best-known solution reaches it.
      vehicles: Array.from({ length: Math.max(1, maxVehicles) }, () => vehicle),
    },
    taskIds,
  };
}
