// The worker loop: fans out the outbox, delivers due webhooks and runs due jobs, by the injected clock.
// Many workers cooperate: every claim is FOR UPDATE SKIP LOCKED with a lease.
import { hostname } from 'node:os';
import type { Deps } from '../deps.ts';
import { ensurePeriodicJobs } from './periodic.ts';
import { DELIVERY_BATCH, deliverDue, fanOutEvents } from '../modules/webhooks/index.ts';
import { newId } from '../shared/ids.ts';
import { databaseUnavailable, rootMessage } from '../db/errors.ts';
import { claimDueJobs, completeJob, completeJobs, failJob, type RawJob } from './jobs.ts';
import { assertAllDebouncedEventsBuilt, DEBOUNCED_EVENT_BUILDERS, JOB_CONCURRENCY, JOB_HANDLERS } from './handlers.ts';
import type { JobKind } from './job-kinds.ts';
import { assertAllKindsHandled, isJobKind, type JobHandlers } from './registry.ts';

export interface WorkerOptions {
  pollMs?: number;
  leaseMs?: number;
  batchSize?: number;
  /** Webhook POST timeout; 15 s (docs/api-guide.md "Events and webhooks") unless a test shortens it. */
  deliveryTimeoutMs?: number;
  /** The background loop's first pass waits for this (serve: the first answered request, or a second; decision 0138). */
  startAfter?: Promise<void>;
  /** Handlers that replace the worker's own for some kinds (tests: a debounced event with a test's own builder). */
  handlers?: Partial<JobHandlers>;
}

export interface Worker {
  /** Runs everything due now (by the clock) until nothing is left; returns how many units ran. Tests call this. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

const LEASE_MS = 60_000;

/**
 * One pass: claims a batch (of `kinds` only, if given) and runs it. The kinds of JOB_CONCURRENCY run side by side, up
 * to their limit, and are marked done together at the end; every other job runs in turn and is marked done as it
 * ends (decision 1785). Returns the number of jobs run.
 */
export async function runDueJobs(deps: Deps, workerId: string, options: WorkerOptions = {}, kinds?: readonly JobKind[]): Promise<number> {
  const now = deps.clock.now();
  const claimed = await claimDueJobs(deps.db, now, workerId, options.leaseMs ?? LEASE_MS, options.batchSize ?? 20, kinds);
  const shared = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let answer = shared.get(key);
    if (!answer) shared.set(key, (answer = read()));
    return answer as Promise<T>;
  };
  /** Runs the job's handler; false when it failed (recorded as such). */
  const run = async (job: RawJob): Promise<boolean> => {
    const handler = isJobKind(job.kind) ? (options.handlers?.[job.kind] ?? JOB_HANDLERS[job.kind]) : undefined;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(deps, { tenantId: job.tenant_id, jobId: job.id, attempt: job.attempts, maxAttempts: job.max_attempts, payload: job.payload, once });
      return true;
    } catch (err) {
      deps.log.warn({ err, job_id: job.id, kind: job.kind }, 'job failed');
      await failJob(deps.db, job, deps.clock.now(), err instanceof Error ? err.message : String(err));
      return false;
    }
  };
  const together = new Map<number, RawJob[]>();
  const inTurn: RawJob[] = [];
  for (const job of claimed) {
    const limit = isJobKind(job.kind) ? JOB_CONCURRENCY[job.kind] : undefined;
    if (limit) (together.get(limit) ?? together.set(limit, []).get(limit))?.push(job);
    else inTurn.push(job);
  }
  const done: RawJob[] = [];
  await Promise.all([
    (async () => {
      for (const job of inTurn) if (await run(job)) await completeJob(deps.db, job, deps.clock.now());
    })(),
    ...[...together].map(async ([limit, jobs]) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(limit, jobs.length) }, async () => {
          while (next < jobs.length) {
            const job = jobs[next++]!;
            if (await run(job)) done.push(job);
          }
        }),
      );
    }),
  ]);
  await completeJobs(deps.db, done, deps.clock.now());
  return claimed.length;
}

/** The longest pause between two attempts while the database is away: the worker resumes within it of its return. */
const OUTAGE_MAX_BACKOFF_MS = 5_000;

/**
 * The lanes' shared view of a database outage (decision 1400): the worker pauses with a doubling backoff instead of
 * failing a pass every poll, logs once when it pauses and once when it resumes. Leases of work in hand run out
 * and are taken again by whoever runs next.
 */
function databaseOutage(deps: Deps) {
  let failures = 0;
  return {
    failed(err: unknown): number {
      if (failures++ === 0) deps.log.warn({ cause: rootMessage(err) }, 'database unavailable: worker paused, retrying with backoff');
      return Math.min(OUTAGE_MAX_BACKOFF_MS, 100 * 2 ** Math.min(failures, 10));
    },
    passed(): void {
      if (failures > 0) deps.log.info({ failed_passes: failures }, 'database back: worker resumed');
      failures = 0;
    },
  };
}

const deliveryOptions = (options: WorkerOptions) => (options.deliveryTimeoutMs ? { timeoutMs: options.deliveryTimeoutMs } : {});

/** One pass over every kind of work; jobs first, since they record events the fan-out then picks up. */
async function runPass(deps: Deps, workerId: string, options: WorkerOptions): Promise<number> {
  const jobs = await runDueJobs(deps, workerId, options);
  const events = await fanOutEvents(deps);
  const deliveries = await deliverDue(deps, workerId, deliveryOptions(options));
  return jobs + events + deliveries;
}

function makeWorker(deps: Deps, options: WorkerOptions, keepGoing: () => boolean): Worker {
  assertAllKindsHandled(JOB_HANDLERS);
  assertAllDebouncedEventsBuilt(DEBOUNCED_EVENT_BUILDERS);
  const workerId = `${hostname()}:${process.pid}:${newId()}`;
  let started = false;
  return {
    drain: async () => {
      if (!started) {
        await ensurePeriodicJobs(deps);
        started = true;
      }
      let total = 0;
      while (keepGoing()) {
        const ran = await runPass(deps, workerId, options);
        total += ran;
        if (ran === 0) break;
      }
      return total;
    },
    stop: async () => undefined,
  };
}

export function createWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  return makeWorker(deps, options, () => true);
}

/** Delivery lanes of one background worker: batches overlap, so recording one never idles the HTTP client. */
const DELIVERY_LANES = 4;
/**
 * Lanes for the kinds that run side by side (JOB_CONCURRENCY, decision 1785), each claiming a batch of them only: two,
 * so that one claims and finishes its batch while the other's are in flight.
 */
const CONCURRENT_LANES = 2;
const CONCURRENT_KINDS = Object.keys(JOB_CONCURRENCY) as JobKind[];
/** A concurrent lane's batch: as many as its kinds run at once. */
const CONCURRENT_BATCH = Math.max(0, ...Object.values(JOB_CONCURRENCY));

type LaneKind = 'jobs' | 'concurrent jobs' | 'fan-out' | 'deliveries';

/**
 * The sleeping lanes a pass that did `ran` items of work wakes, one of each kind named: jobs record events (fan-out's
 * input); fan-out creates deliveries; a delivery lane that leased a full batch leaves more behind for a sibling, and
 * one that delivered anything means events are flowing, so fan-out looks again at once (the median delivery then
 * leaves within milliseconds of its commit, not at the next poll). When every lane woke every other, at 500
 * events/s most wake-ups leased nothing: 110–150 empty leases a second.
 */
const WAKES: Record<LaneKind, (ran: number) => LaneKind[]> = {
  // A job may have scheduled work for the concurrent lanes (the recipients' sweep: its send jobs).
  jobs: (ran) => (ran > 0 ? ['fan-out', 'concurrent jobs'] : []),
  'concurrent jobs': (ran) => (ran >= CONCURRENT_BATCH ? ['fan-out', 'concurrent jobs'] : ran > 0 ? ['fan-out'] : []),
  'fan-out': (ran) => (ran > 0 ? ['deliveries'] : []),
  deliveries: (ran) => (ran >= DELIVERY_BATCH ? ['fan-out', 'deliveries'] : ran > 0 ? ['fan-out'] : []),
};

/**
 * The background loop of `serve`: the jobs, the concurrent jobs (decision 1785), the fan-out and the delivery lanes
 * each poll on their own, so a backlog of one never delays the others. On stop every lane finishes the pass in hand
 * (the deliveries in flight) and exits.
 */
export function startWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  assertAllKindsHandled(JOB_HANDLERS);
  assertAllDebouncedEventsBuilt(DEBOUNCED_EVENT_BUILDERS);
  const workerId = `${hostname()}:${process.pid}:${newId()}`;
  const pollMs = options.pollMs ?? 100;
  let running = true;
  const sleepers: Record<LaneKind, Set<() => void>> = { jobs: new Set(), 'concurrent jobs': new Set(), 'fan-out': new Set(), deliveries: new Set() };
  const wakeAll = (kind: LaneKind) => {
    for (const wake of [...sleepers[kind]]) wake();
  };
  const wakeOne = (kind: LaneKind) => {
    const [first] = sleepers[kind];
    first?.();
  };
  const outage = databaseOutage(deps);
  const lane = async (kind: LaneKind, name: string, pass: () => Promise<number>) => {
    while (running) {
      let ran = 0;
      let waitMs = pollMs;
      try {
        ran = await pass();
        outage.passed();
      } catch (err) {
        if (databaseUnavailable(err)) waitMs = outage.failed(err);
        else deps.log.error({ err, lane: name }, 'worker pass failed');
      }
      // A lane that found work runs again at once by itself; what it did may be work for one more lane.
      for (const next of WAKES[kind](ran)) wakeOne(next);
      if (ran > 0 || !running) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          sleepers[kind].delete(wake);
          resolve();
        };
        sleepers[kind].add(wake);
        setTimeout(wake, waitMs).unref();
      });
    }
  };
  let stopped: () => void = () => undefined;
  const stopping = new Promise<void>((resolve) => (stopped = resolve));
  const lanes = (async () => {
    if (options.startAfter) await Promise.race([options.startAfter, stopping]);
    if (!running) return;
    // A worker started while the database is away waits for it (decision 1400) instead of never scheduling them.
    for (let waitMs = 250; running; waitMs = Math.min(OUTAGE_MAX_BACKOFF_MS, waitMs * 2)) {
      try {
        await ensurePeriodicJobs(deps);
        break;
      } catch (err) {
        if (!databaseUnavailable(err)) {
          deps.log.error({ err }, 'scheduling the periodic jobs failed');
          break;
        }
        outage.failed(err);
        await new Promise((resolve) => setTimeout(resolve, waitMs).unref());
      }
    }
    await Promise.all([
      lane('jobs', 'jobs', () => runDueJobs(deps, workerId, options)),
      ...Array.from({ length: CONCURRENT_KINDS.length ? CONCURRENT_LANES : 0 }, (_, i) =>
        lane('concurrent jobs', `concurrent jobs ${i + 1}`, () => runDueJobs(deps, workerId, { ...options, batchSize: CONCURRENT_BATCH }, CONCURRENT_KINDS)),
      ),
      lane('fan-out', 'fan-out', () => fanOutEvents(deps)),
      ...Array.from({ length: DELIVERY_LANES }, (_, i) => lane('deliveries', `deliveries ${i + 1}`, () => deliverDue(deps, workerId, deliveryOptions(options)))),
    ]);
  })();
  const worker = makeWorker(deps, options, () => running);
  return {
    drain: worker.drain,
    stop: async () => {
      running = false;
      stopped();
      for (const kind of Object.keys(sleepers) as LaneKind[]) wakeAll(kind);
      await lanes;
    },
  };
}
