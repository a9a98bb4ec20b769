// The job registry's shapes and its start-up check: every kind of job-kinds.ts has its handler in handlers.ts.
import type { Deps } from '../deps.ts';
import { JOB_KINDS, type JobKind } from './job-kinds.ts';

export interface JobContext {
  tenantId: string;
  jobId: string;
  attempt: number;
  /** The attempt after which the job is failed for good: a handler that records an outcome knows its last try. */
  maxAttempts: number;
  payload: Record<string, unknown>;
  /**
   * A read shared by the jobs of one pass (decision 1785): the first job of the batch that asks for `key` reads it,
   * the others take that answer. Unset where a job runs alone (a test calling its handler).
   */
  once?: <T>(key: string, read: () => Promise<T>) => Promise<T>;
}

export type JobHandler = (deps: Deps, job: JobContext) => Promise<void>;

export type JobHandlers = Record<JobKind, JobHandler>;

export const isJobKind = (kind: string): kind is JobKind => (JOB_KINDS as readonly string[]).includes(kind);

/** The worker refuses to start when a kind has no handler (the Record type says so too; this catches a cast). */
export function assertAllKindsHandled(handlers: JobHandlers): void {
  const missing = JOB_KINDS.filter((kind) => typeof handlers[kind] !== 'function');
  if (missing.length) throw new Error(`job kinds without a handler: ${missing.join(', ')}`);
}
