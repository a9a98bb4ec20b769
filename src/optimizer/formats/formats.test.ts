// The benchmark parsers: task ids, pairs, windows and travel as the files define them; malformed files are refused.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBenchmark, parseLiLim, parseSartoriBuriol } from './index.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/pdptw');
const read = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

describe('Li & Lim format', () => {
  it('reads lc101: 106 tasks in 53 pairs, capacity 200, 25 vehicles, depot window as the vehicles’ window', () => {
    const bench = parseBenchmark(read('lc101.txt'), 'lc101');
    expect(bench.format).toBe('li-lim');
    expect(bench.problem.stops).toHaveLength(106);
    expect(bench.problem.requests).toHaveLength(53);
    expect(bench.problem.vehicles).toHaveLength(25);
    expect(bench.problem.vehicles[0]).toEqual({ start: 0, end: 0, earliest: 0, latest: 1236, capacity: 200 });
    // Task 3 (line "3 42 66 10 65 146 90 0 75") picks up for task 75.
    const s3 = bench.taskIds.indexOf(3);
    expect(bench.problem.stops[s3]).toEqual({ location: 3, demand: 10, earliest: 65, latest: 146, service: 90 });
    const pair = bench.problem.requests.find((r) => r.pickup === s3)!;
    expect(bench.taskIds[pair.delivery!]).toBe(75);
    expect(bench.problem.travel).toMatchObject({ kind: 'euclidean' });
  });

  it('refuses a delivery that does not name its pickup back, and a malformed line', () => {
    const text = '25\t200\t1\n0\t40\t50\t0\t0\t1236\t0\t0\t0\n1\t45\t68\t10\t0\t967\t90\t0\t2\n2\t45\t70\t-10\t0\t870\t90\t0\t0\n';
    expect(() => parseLiLim(text, 'x')).toThrow(/does not name it back/);
    expect(() => parseLiLim('25 200 1\n0 40 50 0 0 1236 0 0 0\n7 1 1 1 1 1 1 0 0\n', 'x')).toThrow(/malformed/);
    expect(() => parseLiLim('K Q\n', 'x')).toThrow(/first line/);
  });
});

describe('Sartori & Buriol format', () => {
  it('reads bar-n100-1: 100 stops in 50 pairs (partner i + 50), capacity 300, the asymmetric integer matrix', () => {
    const bench = parseBenchmark(read('bar-n100-1.txt'), 'file');
    expect(bench.name).toBe('bar-n100-1');
    expect(bench.format).toBe('sartori-buriol');
    expect(bench.problem.stops).toHaveLength(100);
    expect(bench.problem.requests).toHaveLength(50);
    expect(bench.problem.requests.every((r) => r.delivery === r.pickup! + 50 || r.pickup === r.delivery! + 50)).toBe(true);
    expect(bench.problem.vehicles[0]).toEqual({ start: 0, end: 0, earliest: 0, latest: 240, capacity: 300 });
    expect(bench.problem.stops[0]).toEqual({ location: 1, demand: 22, earliest: 129, latest: 240, service: 5 });
    const travel = bench.problem.travel;
    if (travel.kind !== 'matrix') throw new Error('matrix expected');
    expect(travel.matrix).toHaveLength(101);
    expect(travel.matrix.some((row, a) => row.some((t, b) => t !== travel.matrix[b]![a]))).toBe(true);
    expect(bench.taskIds.slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('refuses a file without EDGES or with a short matrix row', () => {
    const text = read('bar-n100-1.txt');
    expect(() => parseSartoriBuriol(text.replace('EDGES', 'EDGE'), 'x')).toThrow(/EDGES expected/);
    const lines = text.split('\n');
    const edges = lines.findIndex((l) => l.trim() === 'EDGES');
    lines[edges + 5] = '1 2 3';
    expect(() => parseSartoriBuriol(lines.join('\n'), 'x')).toThrow(/matrix row 4/);
  });
});
