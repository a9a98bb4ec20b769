// Debounced events (docs/architecture.md "The outbox and the worker"): one pending job per (tenant, type, resource) whose due time moves with every
// change; at due time the type's payload builder reads the state of that moment and the event is recorded. The
// builders are a table the worker's handlers name (src/worker/handlers.ts), complete by type like JOB_KINDS.
import type { Queryable, Tx } from '../db/client.ts';
import type { EventType } from '../events/catalog.ts';
import { recordEvent } from '../events/outbox.ts';
import { ensureJob, scheduleJob } from './jobs.ts';
import type { JobKind } from './job-kinds.ts';
import type { JobHandler } from './registry.ts';

export const DEBOUNCED_EVENT_JOB: JobKind = 'event.debounced';

/** Builds an event's data from the current state; null when there is nothing to tell any more (resource gone). */
export type DebouncedPayloadBuilder = (q: Queryable, tenantId: string, resourceId: string, at: Date) => Promise<Record<string, unknown> | null>;

/** The event types sent debounced: each has its payload builder in the worker's table. */
export const DEBOUNCED_EVENT_TYPES = ['tour.compensation_updated', 'tour.driver_location_updated'] as const satisfies readonly EventType[];
export type DebouncedEventType = (typeof DEBOUNCED_EVENT_TYPES)[number];

/** Every debounced type's builder: a Record, so a type without one fails the typecheck. */
export type DebouncedEventBuilders = Record<DebouncedEventType, DebouncedPayloadBuilder>;

export interface DebouncedEventInput {
  tenantId: string;
  type: DebouncedEventType;
  resourceId: string;
  windowSeconds: number;
  now: Date;
}

/**
 * The pending job that sends `input.type` for the resource when the window ends (one per type and resource). Exported
 * for writes that upsert it in a statement of their own (compensation's write, decision 0606; live positions' fast
 * path, decision 0905).
 */
export function pendingEvent(input: DebouncedEventInput) {
  return {
    tenantId: input.tenantId,
    kind: DEBOUNCED_EVENT_JOB,
    dedupeKey: `${input.type}:${input.resourceId}`,
    payload: { type: input.type, resource_id: input.resourceId },
    dueAt: new Date(input.now.getTime() + input.windowSeconds * 1000),
    now: input.now,
  } as const;
}

/** Call in the transaction of every change: the event goes out once, `windowSeconds` after the last change. */
export async function scheduleDebouncedEvent(tx: Tx, input: DebouncedEventInput): Promise<void> {
  await scheduleJob(tx, pendingEvent(input));
}

/**
 * Call in the transaction of every change: the first change of a quiet tour opens a window, changes while it is
 * pending join it (its due time stays), and the event goes out when the window ends with the state of that
 * moment — at most one event per window, none held back longer than one window (tour.driver_location_updated).
 */
export async function scheduleCoalescedEvent(tx: Tx, input: DebouncedEventInput): Promise<void> {
  await ensureJob(tx, pendingEvent(input));
}

/** The `event.debounced` job over a table of builders (the worker's, or a test's own). */
export function debouncedEventJob(builders: Partial<Record<EventType, DebouncedPayloadBuilder>>): JobHandler {
  return async (deps, job) => {
    const { type, resource_id: resourceId } = job.payload as { type: EventType; resource_id: string };
    const build = builders[type];
    if (!build) throw new Error(`no payload builder for debounced event ${type}`);
    await deps.db.transaction(async (tx) => {
      const at = deps.clock.now();
      const data = await build(tx, job.tenantId, resourceId, at);
      // Written by the worker with the state of its moment, for every change of the window: nobody's in particular.
      if (data) await recordEvent(tx, { tenantId: job.tenantId, actor: 'system', type, resourceId, data, at });
    });
  };
}
