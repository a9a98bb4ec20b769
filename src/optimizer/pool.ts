// Solver threads: searches run in worker threads so the calling thread (the API's event loop) stays responsive
// (decision 0961). A pool of `size` threads, each started on first need and reused; jobs wait while all are busy.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AlnsParameters } from './alns.ts';
import { ProblemError } from './instance.ts';
import { solve } from './solve.ts';
import type { Problem, Solution, SolveOptions } from './types.ts';

/** A clock is a function: it cannot cross to a thread, so a thread's budget is its own wall clock. */
export type ThreadSolveOptions = Omit<SolveOptions, 'clock'>;

export interface WorkerJob {
  id: number;
  problem: Problem;
  options: ThreadSolveOptions;
  parameters?: Partial<AlnsParameters>;
  /** Date.now() by which the search must end, whatever its budget (the wait for a thread included). */
  deadline?: number;
}

export type WorkerReply = { id: number; solution: Solution } | { id: number; error: { problem: boolean; message: string } };

/** What the planning routes ask of a solver: a search that the caller awaits. */
export interface Solver {
  solve(problem: Problem, options: ThreadSolveOptions, extra?: { parameters?: Partial<AlnsParameters>; deadline?: number }): Promise<Solution>;
}

export interface SolverPool extends Solver {
  /** Ends every thread; jobs still waiting or running are rejected, and later ones too. */
  close(): Promise<void>;
}

/** solve() on the calling thread, for callers that must not wait for a pool thread (merge, inside its transaction). */
export const INLINE_SOLVER: Solver = {
  solve: async (problem, options, extra) => solve(problem, options, extra?.parameters),
};

interface Entry {
  url: string;
  typescript: boolean;
}

/**
 * The worker module: in a bundle (dist/), dist/optimizer-worker.js beside it; from source, worker.ts beside this
 * file; a bundle without its worker falls back to the source tree above it. Never a dist/ worker for a process
 * running from source: a stale build would run an older solver than the one under test.
 */
export function workerEntry(): Entry | null {
  const here = fileURLToPath(import.meta.url);
  let dir = path.dirname(here);
  const found = (file: string, typescript: boolean): Entry | null => (fs.existsSync(file) ? { url: pathToFileURL(file).href, typescript } : null);
  if (here.endsWith('.js')) {
    // dist/main.js or dist/chunks/*.js
    const built = found(path.join(dir, 'optimizer-worker.js'), false) ?? found(path.join(path.dirname(dir), 'optimizer-worker.js'), false);
    if (built) return built;
  }
  const beside = found(path.join(dir, 'worker.ts'), true);
  if (beside) return beside;
  for (let k = 0; k < 4; k++, dir = path.dirname(dir)) {
    const source = found(path.join(dir, 'src/optimizer/worker.ts'), true);
    if (source) return source;
  }
  return null;
}

/** A new solver thread. TypeScript source needs tsx's loader registered in the thread first. */
export function startSolverThread(entry: Entry): Worker {
  if (!entry.typescript) return new Worker(new URL(entry.url));
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.url)}); });`;
  return new Worker(boot, { eval: true });
}

const failureOf = (error: { problem: boolean; message: string }): Error => (error.problem ? new ProblemError(error.message) : new Error(`optimizer thread: ${error.message}`));

interface Pending {
  job: WorkerJob;
  resolve(solution: Solution): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  running: Pending | null;
}

export function createSolverPool(size: number): SolverPool {
  const threads: Thread[] = [];
  const queue: Pending[] = [];
  let nextId = 1;
  let closed = false;
  let entry: Entry | null | undefined;

  const start = (): Thread => {
    entry ??= workerEntry();
    if (!entry) throw new Error('the optimizer worker module is missing: run `npm run build`');
    const thread: Thread = { worker: startSolverThread(entry), running: null };
    const fail = (err: Error) => {
      // A thread that failed is dropped; its job fails, the queue gets a new thread when one is next needed.
      const at = threads.indexOf(thread);
      if (at !== -1) threads.splice(at, 1);
      thread.running?.reject(err);
      thread.running = null;
      void thread.worker.terminate();
      dispatch();
    };
    thread.worker.on('message', (reply: WorkerReply) => {
      const pending = thread.running;
      thread.running = null;
      // An idle thread does not keep the process alive.
      thread.worker.unref();
      if (pending) {
        if ('solution' in reply) pending.resolve(reply.solution);
        else pending.reject(failureOf(reply.error));
      }
      dispatch();
    });
    thread.worker.on('error', fail);
    thread.worker.on('exit', (code) => {
      if (threads.includes(thread)) fail(new Error(`optimizer thread exited (code ${code})`));
    });
    threads.push(thread);
    return thread;
  };

  const dispatch = () => {
    while (queue.length && !closed) {
      let thread = threads.find((t) => !t.running);
      if (!thread && threads.length < size) {
        try {
          thread = start();
        } catch (err) {
          for (const pending of queue.splice(0)) pending.reject(err as Error);
          return;
        }
      }
      if (!thread) return;
      const pending = queue.shift()!;
      thread.running = pending;
      thread.worker.ref();
      thread.worker.postMessage(pending.job);
    }
  };

  return {
    solve(problem, options, extra = {}) {
      if (closed) return Promise.reject(new Error('the optimizer is shut down'));
      return new Promise<Solution>((resolve, reject) => {
        const job: WorkerJob = { id: nextId++, problem, options, ...(extra.parameters ? { parameters: extra.parameters } : {}), ...(extra.deadline !== undefined ? { deadline: extra.deadline } : {}) };
        queue.push({ job, resolve, reject });
        dispatch();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const gone = new Error('the optimizer is shut down');
      for (const pending of queue.splice(0)) pending.reject(gone);
      const ending = threads.splice(0);
      for (const thread of ending) thread.running?.reject(gone);
      await Promise.all(ending.map((t) => t.worker.terminate()));
    },
  };
}
