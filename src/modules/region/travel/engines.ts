// Routing engines' table services (contract §15, decision 1523): any number of points, asked in blocks the engine
// accepts, a bounded number of blocks at once. Each adapter throws on any failure; matrix.ts then falls back.
import type { Point } from './straight-line.ts';

export interface EngineMatrix {
  /** Row-major n × n, seconds and meters. */
  seconds: Float64Array;
  meters: Float64Array;
}

export interface EngineOptions {
  url: string;
  timeoutMs: number;
  /** Blocks in flight at once. */
  parallel: number;
  /** Which blocks to ask (all when absent): the cache knows the others. */
  wanted?: (sources: readonly number[], targets: readonly number[]) => boolean;
}

export class EngineError extends Error {}

/** Runs `tasks` with at most `parallel` of them at once; the first failure fails the lot. */
export async function bounded(tasks: readonly (() => Promise<void>)[], parallel: number): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(parallel, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]!();
  });
  await Promise.all(lanes);
}

/** The index blocks of `n` points, `size` at a time. */
export function blocks(n: number, size: number): number[][] {
  const out: number[][] = [];
  for (let start = 0; start < n; start += size) out.push(Array.from({ length: Math.min(size, n - start) }, (_, i) => start + i));
  return out;
}

export async function fetchJson(url: string, init: RequestInit, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const attempt = async () => {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body };
  };
  try {
    return await attempt();
  } catch (err) {
    // A kept-alive connection the engine closed just as it was reused fails before any answer: ask once more on a new one.
    if (err instanceof TypeError) return attempt();
    throw err;
  }
}

export const finiteSeconds = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

export type EngineAdapter = (points: readonly Point[], options: EngineOptions) => Promise<EngineMatrix>;
