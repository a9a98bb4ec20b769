// Reads the two PDPTW benchmark formats (Li & Lim, Sartori & Buriol) from text into a Problem; no I/O.
import type { Problem } from '../types.ts';
import { parseLiLim } from './li-lim.ts';
import { parseSartoriBuriol } from './sartori-buriol.ts';

export interface BenchmarkInstance {
  name: string;
  format: 'li-lim' | 'sartori-buriol';
  problem: Problem;
  /** The file's task id of each stop (stop k is task taskIds[k]; the depot, task 0, is no stop). */
  taskIds: number[];
}

export { parseLiLim, parseSartoriBuriol };

/** Detects the format (Sartori & Buriol files start with "NAME:"). */
export function parseBenchmark(text: string, name: string): BenchmarkInstance {
  return text.trimStart().startsWith('NAME:') ? parseSartoriBuriol(text, name) : parseLiLim(text, name);
}
