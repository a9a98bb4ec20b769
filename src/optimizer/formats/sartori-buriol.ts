// Parses the Sartori & Buriol PDPTW format: "KEY: value" header, NODES (id lat lon demand earliest latest service
// pickup delivery), EDGES (integer travel-time matrix, asymmetric), EOF. Node 0 is the depot.
import type { BenchmarkInstance } from './index.ts';

export function parseSartoriBuriol(text: string, fallbackName: string): BenchmarkInstance {
  const lines = text.split(/\r?\n/);
  const header: Record<string, string> = {};
  let i = 0;
  for (; i < lines.length && lines[i]!.trim() !== 'NODES'; i++) {
    const m = /^([A-Z-]+):\s*(.*)$/.exec(lines[i]!.trim());
    if (m) header[m[1]!] = m[2]!.trim();
  }
  const name = header.NAME ?? fallbackName;
  const size = Number(header.SIZE);
  const capacity = Number(header.CAPACITY);
  if (i >= lines.length || !(size > 1) || !(capacity > 0)) throw new Error(`${name}: needs SIZE, CAPACITY and NODES`);
  const nodes: number[][] = [];
  for (let k = 1; k <= size; k++) {
    const row = (lines[i + k] ?? '').trim().split(/\s+/).map(Number);
    if (row.length < 9 || row.some(Number.isNaN) || row[0] !== k - 1) throw new Error(`${name}: node line ${k - 1} is malformed`);
    nodes.push(row);
  }
  i += size + 1;
  if (lines[i]?.trim() !== 'EDGES') throw new Error(`${name}: EDGES expected after the nodes`);
  const matrix: number[][] = [];
  for (let k = 1; k <= size; k++) {
    const row = (lines[i + k] ?? '').trim().split(/\s+/).map(Number);
    if (row.length !== size || row.some(Number.isNaN)) throw new Error(`${name}: matrix row ${k - 1} is malformed`);
    matrix.push(row);
  }
  const depot = nodes[0]!;
  const stops = nodes.slice(1).map(([id, , , demand, earliest, latest, service]) => ({
    location: id!, demand: demand!, earliest: earliest!, latest: latest!, service: service!,
  }));
  const requests = [];
  for (const row of nodes.slice(1)) {
    const [id, , , , , , , pickup, delivery] = row as [number, number, number, number, number, number, number, number, number];
    if (pickup !== 0) continue;
    if (nodes[delivery]?.[7] !== id) throw new Error(`${name}: pickup ${id} names delivery ${delivery}, which does not name it back`);
    requests.push({ pickup: id - 1, delivery: delivery - 1 });
  }
  if (requests.length * 2 !== stops.length) throw new Error(`${name}: ${stops.length} nodes but ${requests.length} pairs`);
  const vehicle = { start: 0, end: 0, earliest: depot[4]!, latest: depot[5]!, capacity };
  return {
    name,
    format: 'sartori-buriol',
    // The fleet is unlimited in practice; one vehicle per request is never binding.
    problem: { travel: { kind: 'matrix', matrix }, stops, requests, vehicles: Array.from({ length: requests.length }, () => vehicle) },
    taskIds: stops.map((s) => s.location),
  };
}
