// Worker-thread side of solveParallel: solves the problem it is sent with its own seed and posts the solution back.
import { parentPort, workerData } from 'node:worker_threads';
import { solve } from './solve.ts';
import type { ParallelJob } from './parallel.ts';

const job = workerData as ParallelJob;
const timeLimitMs = Math.max(0, job.deadline - Date.now());
parentPort?.postMessage(solve(job.problem, { ...job.options, timeLimitMs }, job.parameters));
