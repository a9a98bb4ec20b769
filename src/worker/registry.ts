// The job registry: every job kind and its handler; the worker refuses to start when a kind has none.
import type { Deps } from '../deps.ts';

export interface JobContext {
  tenantId: string;
  jobId: string;
  attempt: number;
  payload: Record<string, unknown>;
}

export type JobHandler = (deps: Deps, job: JobContext) => Promise<void>;

const handlers = new Map<string, JobHandler>();

/** Every kind that may be scheduled; a kind here without a handler stops the worker at start-up. */
export const JOB_KINDS: string[] = [];

export function registerJob(kind: string, handler: JobHandler): void {
  if (handlers.has(kind)) throw new Error(`job kind ${kind} registered twice`);
  handlers.set(kind, handler);
  if (!JOB_KINDS.includes(kind)) JOB_KINDS.push(kind);
}

export function declareJobKind(kind: string): void {
  if (!JOB_KINDS.includes(kind)) JOB_KINDS.push(kind);
}

export function handlerFor(kind: string): JobHandler | undefined {
  return handlers.get(kind);
}

export function assertAllKindsHandled(): void {
  const missing = JOB_KINDS.filter((kind) => !handlers.has(kind));
  if (missing.length) throw new Error(`job kinds without a handler: ${missing.join(', ')}`);
}
