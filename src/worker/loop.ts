// The worker loop: claims due jobs by the injected clock and runs their handlers; many workers cooperate.
import { hostname } from 'node:os';
import type { Deps } from '../deps.ts';
import { newId } from '../shared/ids.ts';
import { claimDueJobs, completeJob, failJob } from './jobs.ts';
import { assertAllKindsHandled, handlerFor } from './registry.ts';
import './handlers.ts';

export interface WorkerOptions {
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
}

export interface Worker {
  /** Runs every job due now (by the clock) until none is left; returns how many ran. Tests call this. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const LEASE_MS = 60_000;

/** One pass: claims a batch and runs it. Returns the number of jobs run. */
export async function runDueJobs(deps: Deps, workerId: string, options: WorkerOptions = {}): Promise<number> {
  const now = deps.clock.now();
  const claimed = await claimDueJobs(deps.db, now, workerId, options.leaseMs ?? LEASE_MS, options.batchSize ?? 20);
  for (const job of claimed) {
    const handler = handlerFor(job.kind);
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(deps, { tenantId: job.tenant_id, jobId: job.id, attempt: job.attempts, payload: job.payload });
      await completeJob(deps.db, job, deps.clock.now());
    } catch (err) {
      deps.log.warn({ err, job_id: job.id, kind: job.kind }, 'job failed');
      await failJob(deps.db, job, deps.clock.now(), err instanceof Error ? err.message : String(err));
    }
  }
  return claimed.length;
}

export function createWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  assertAllKindsHandled();
  const workerId = `${hostname()}:${process.pid}:${newId()}`;
  return {
    drain: async () => {
      let total = 0;
      for (;;) {
        const ran = await runDueJobs(deps, workerId, options);
        total += ran;
        if (ran === 0) return total;
      }
    },
    stop: async () => undefined,
  };
}

/** The background loop of `serve`: polls, finishes the job in hand on stop. */
export function startWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  const worker = createWorker(deps, options);
  const pollMs = options.pollMs ?? 500;
  let running = true;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (running) {
      try {
        await worker.drain();
      } catch (err) {
        deps.log.error({ err }, 'worker pass failed');
      }
      if (!running) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pollMs).unref();
      });
    }
  })();
  return {
    drain: worker.drain,
    stop: async () => {
      running = false;
      wake?.();
      await loop;
    },
  };
}
