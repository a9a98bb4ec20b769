// The outbox writer: records a domain event inside the caller's transaction (never outside one).
import { events } from './tables.ts';
import type { Tx } from '../db/client.ts';
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

export async function recordEvent(tx: Tx, input: EventInput): Promise<string> {
  const id = newId();
  const { resourceType, event } = splitType(input.type);
  await tx.insert(events).values({
    tenantId: input.tenantId,
    id,
    type: input.type,
    resourceType,
    event,
    resourceId: input.resourceId,
    data: input.data,
    occurredAt: input.at,
  });
  return id;
}

export async function recordEvents(tx: Tx, inputs: EventInput[]): Promise<void> {
  for (const input of inputs) await recordEvent(tx, input);
}

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
