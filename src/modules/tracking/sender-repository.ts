// The sender identity's SQL (decision 1784): one row per tenant, written field by field, the logo beside it.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import type { JsonPart } from '../../db/json-read.ts';
import { recipientSenders } from './tables.ts';

export type SenderRow = typeof recipientSenders.$inferSelect;
export type SenderFields = Pick<SenderRow, 'name' | 'color' | 'replyTo' | 'emailFrom' | 'smsSenderId'>;
export type SenderLogo = Pick<SenderRow, 'logo' | 'logoType' | 'logoSha256'>;

/** What is read of a sender to show or send: everything but the logo's bytes. */
const summary = {
  tenantId: recipientSenders.tenantId,
  name: recipientSenders.name,
  color: recipientSenders.color,
  replyTo: recipientSenders.replyTo,
  emailFrom: recipientSenders.emailFrom,
  smsSenderId: recipientSenders.smsSenderId,
  logoType: recipientSenders.logoType,
  logoSha256: recipientSenders.logoSha256,
  updatedAt: recipientSenders.updatedAt,
};
export type SenderSummary = Omit<SenderRow, 'logo'>;

export async function findSender(q: Queryable, tenantId: string): Promise<SenderSummary | null> {
  const [row] = await q.select(summary).from(recipientSenders).where(eq(recipientSenders.tenantId, tenantId));
  return row ?? null;
}

/** The row locked for a read-then-write (a PATCH merges into what is there). */
export async function findSenderForUpdate(q: Queryable, tenantId: string): Promise<SenderSummary | null> {
  const [row] = await q.select(summary).from(recipientSenders).where(eq(recipientSenders.tenantId, tenantId)).for('update');
  return row ?? null;
}

/**
 * Writes the fields given (or the logo), creating the row on the first write. One statement: two first writes at once
 * both land, the second as an update.
 */
export async function upsertSender(q: Queryable, tenantId: string, patch: Partial<SenderFields & SenderLogo>, now: Date): Promise<void> {
  await q
    .insert(recipientSenders)
    .values({ tenantId, ...patch, updatedAt: now })
    .onConflictDoUpdate({ target: recipientSenders.tenantId, set: { ...patch, updatedAt: now } });
}

export async function findSenderLogo(q: Queryable, tenantId: string): Promise<{ bytes: Uint8Array; contentType: string; sha256: string } | null> {
  const [row] = await q.select({ logo: recipientSenders.logo, logoType: recipientSenders.logoType, logoSha256: recipientSenders.logoSha256 }).from(recipientSenders).where(eq(recipientSenders.tenantId, tenantId));
  return row?.logo && row.logoType && row.logoSha256 ? { bytes: row.logo, contentType: row.logoType, sha256: row.logoSha256 } : null;
}

/** The tracking read's sender part: the name, the logo's hash and the colour set (else nulls), not the logo's bytes. */
export const senderRead = (tenantId: SQL): JsonPart<{ name: string | null; logoSha256: string | null; color: string | null } | null> => ({
  sql: sql`(SELECT json_build_array(${recipientSenders.name}, ${recipientSenders.logoSha256}, ${recipientSenders.color}) FROM ${recipientSenders} WHERE ${recipientSenders.tenantId} = ${tenantId})`,
  decode: (json) => {
    const row = json as [string | null, string | null, string | null] | null;
    return row ? { name: row[0], logoSha256: row[1], color: row[2] } : null;
  },
});
