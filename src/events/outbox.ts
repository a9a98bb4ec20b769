// The outbox writer: records a domain event inside the caller's transaction, or in the very statement of the change.
import { events } from './tables.ts';
import type { Tx } from '../db/client.ts';
import { completeRow, rowsOf } from '../db/json-insert.ts';
import type { Actor } from '../http/actor.ts';
import { newId } from '../shared/ids.ts';
import { splitType, type EventType } from './catalog.ts';

/**
 * Who caused an event (decision 0106): the caller's actor, passed as it is, or `'system'` for what the worker does on
 * its own (expiries, debounced and coalesced events, ticks).
 */
export type EventActor = Pick<Actor, 'userId' | 'apiKeyId'> | 'system';

export interface EventInput {
  tenantId: string;
  actor: EventActor;
  type: EventType;
  resourceId: string | null;
  data: Record<string, unknown>;
  at: Date;
}

export interface Envelope {
  id: string;
  type: string;
  resource_type: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The actor as the event log and webhooks show it (decision 0106). */
export interface EnvelopeActor {
  type: 'user' | 'system';
  id: string | null;
  api_key_id: string | null;
}

/**
 * The envelope with its actor: what the event log and webhook deliveries carry (the live stream shows none). The actor
 * is null on events recorded before the audit trail.
 */
export type LoggedEnvelope = Envelope & { actor: EnvelopeActor | null };

const actorColumns = (actor: EventActor) =>
  actor === 'system'
    ? { actorType: 'system' as const, actorId: null, actorApiKeyId: null }
    : { actorType: 'user' as const, actorId: actor.userId, actorApiKeyId: actor.apiKeyId };

const toRow = (input: EventInput) => {
  const { resourceType, event } = splitType(input.type);
  return {
    tenantId: input.tenantId,
    id: newId(),
    type: input.type,
    resourceType,
    event,
    resourceId: input.resourceId,
    data: input.data,
    occurredAt: input.at,
    ...actorColumns(input.actor),
  };
};

export async function recordEvent(tx: Tx, input: EventInput): Promise<string> {
  const row = toRow(input);
  await tx.insert(events).values(row);
  return row.id;
}

/** Several events in one statement (a write's cost is its round trips); ids keep the order of `inputs`. */
export async function recordEvents(tx: Tx, inputs: EventInput[]): Promise<string[]> {
  const rows = inputs.map(toRow);
  if (rows.length) await tx.insert(events).values(rows);
  return rows.map((r) => r.id);
}

/** The outbox rows of `inputs` as one part of a multi-table insert (`insertAll`), for writes that need no transaction. */
export const eventRows = (inputs: EventInput[]) => rowsOf(events, inputs.map((input) => completeRow(events, toRow(input))));

export function toEnvelope(row: Omit<typeof events.$inferSelect, 'actorType' | 'actorId' | 'actorApiKeyId'>): Envelope {
  return {
    id: row.id,
    type: row.type,
    resource_type: row.resourceType,
    event: row.event,
    timestamp: row.occurredAt.toISOString(),
    data: row.data,
  };
}

export function toLoggedEnvelope(row: typeof events.$inferSelect): LoggedEnvelope {
  return {
    ...toEnvelope(row),
    actor: row.actorType === null ? null : { type: row.actorType, id: row.actorId, api_key_id: row.actorApiKeyId },
  };
}
