// Worker-thread side of the solver pool (pool.ts) and of solveParallel: solves each job it is sent and posts the
// solution back. Its own bundle entry (dist/optimizer-worker.js), so a built install runs it without tsx.
import { parentPort } from 'node:worker_threads';
import { ProblemError } from './instance.ts';
import { solve } from './solve.ts';
import type { WorkerJob, WorkerReply } from './pool.ts';

parentPort?.on('message', (job: WorkerJob) => {
  let reply: WorkerReply;
  try {
    // A deadline counts the wait for a thread (solveParallel's searches end with the calling thread's).
    const timeLimitMs = job.deadline === undefined ? job.options.timeLimitMs : Math.min(job.options.timeLimitMs, Math.max(0, job.deadline - Date.now()));
    reply = { id: job.id, solution: solve(job.problem, { ...job.options, timeLimitMs }, job.parameters) };
  } catch (err) {
    reply = { id: job.id, error: { problem: err instanceof ProblemError, message: err instanceof Error ? err.message : String(err) } };
  }
  parentPort?.postMessage(reply);
});
