// Recipient notifications SQL: claiming a moment (once per stop and moment), recipient addresses and their opt-out.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { recipientAddresses, recipientNotifications, type RecipientMoment } from './tables.ts';

export type NotificationRow = typeof recipientNotifications.$inferSelect;

/** The moments already told of these stops, as `stopId|moment`. */
export async function toldMoments(q: Queryable, stops: readonly { tenantId: string; stopId: string }[]): Promise<Set<string>> {
  if (!stops.length) return new Set();
  const rows = await q
    .select({ stopId: recipientNotifications.stopId, moment: recipientNotifications.moment })
    .from(recipientNotifications)
    .where(and(inArray(recipientNotifications.tenantId, [...new Set(stops.map((s) => s.tenantId))]), inArray(recipientNotifications.stopId, stops.map((s) => s.stopId))));
  return new Set(rows.map((r) => `${r.stopId}|${r.moment}`));
}

/**
 * Records that the stop's moment is told; false when it was already (another worker, or an earlier sweep). The
 * primary key decides, so two sweeps at once tell a moment once (decision 1104).
 */
export async function claimMoment(q: Queryable, row: Omit<NotificationRow, 'email'>): Promise<boolean> {
  const inserted = await q.insert(recipientNotifications).values({ ...row, email: null }).onConflictDoNothing().returning({ stopId: recipientNotifications.stopId });
  return inserted.length > 0;
}

export async function setNotifiedEmail(q: Queryable, key: { tenantId: string; stopId: string; moment: RecipientMoment }, email: string): Promise<void> {
  await q
    .update(recipientNotifications)
    .set({ email })
    .where(and(eq(recipientNotifications.tenantId, key.tenantId), eq(recipientNotifications.stopId, key.stopId), eq(recipientNotifications.moment, key.moment)));
}

/**
 * The address's row with the hash of its current unsubscribe token (made on its first e-mail; a token derived under
 * another master key is replaced). Answers whether the address opted out.
 */
export async function upsertAddress(q: Queryable, row: { tenantId: string; email: string; tokenHash: string; createdAt: Date }): Promise<{ unsubscribed: boolean }> {
  const [stored] = await q
    .insert(recipientAddresses)
    .values({ ...row, unsubscribedAt: null })
    .onConflictDoUpdate({ target: [recipientAddresses.tenantId, recipientAddresses.email], set: { tokenHash: sql`excluded.token_hash` } })
    .returning({ unsubscribedAt: recipientAddresses.unsubscribedAt });
  return { unsubscribed: Boolean(stored?.unsubscribedAt) };
}

/** Opts the token's address out (once; a second use changes nothing). False for a token no address has. */
export async function unsubscribeByTokenHash(q: Queryable, tokenHash: string, at: Date): Promise<boolean> {
  const updated = await q
    .update(recipientAddresses)
    .set({ unsubscribedAt: sql`coalesce(${recipientAddresses.unsubscribedAt}, ${at})` })
    .where(eq(recipientAddresses.tokenHash, tokenHash))
    .returning({ email: recipientAddresses.email });
  return updated.length > 0;
}

export async function addressExists(q: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await q.select({ email: recipientAddresses.email }).from(recipientAddresses).where(eq(recipientAddresses.tokenHash, tokenHash)).limit(1);
  return rows.length > 0;
}

