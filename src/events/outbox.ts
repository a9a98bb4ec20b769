// The outbox writer: records a domain event inside the caller's transaction, or in the very statement of the change.
import { events } from './tables.ts';
import type { Tx } from '../db/client.ts';
import { completeRow, rowsOf } from '../db/json-insert.ts';
import { newId } from '../shared/ids.ts';
import { splitType, type EventType } from './catalog.ts';

export interface EventInput {
  tenantId: string;
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

export function toEnvelope(row: typeof events.$inferSelect): Envelope {
  return {
    id: row.id,
    type: row.type,
    resource_type: row.resourceType,
    event: row.event,
    timestamp: row.occurredAt.toISOString(),
    data: row.data,
  };
}
