// Recipient notifications SQL: claiming a moment (once per stop and moment), recipient addresses and their opt-out,
// and a tenant's own templates.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { recipientAddresses, recipientNotifications, recipientTemplates, type RecipientLocale, type RecipientMoment } from './tables.ts';

export type NotificationRow = typeof recipientNotifications.$inferSelect;

/** The moments already told of these stops, by stop. */
export async function toldMoments(q: Queryable, stops: readonly { tenantId: string; stopId: string }[]): Promise<Map<string, Set<RecipientMoment>>> {
  const told = new Map<string, Set<RecipientMoment>>();
  if (!stops.length) return told;
  const rows = await q
    .select({ stopId: recipientNotifications.stopId, moment: recipientNotifications.moment })
    .from(recipientNotifications)
    .where(and(inArray(recipientNotifications.tenantId, [...new Set(stops.map((s) => s.tenantId))]), inArray(recipientNotifications.stopId, stops.map((s) => s.stopId))));
  for (const r of rows) (told.get(r.stopId) ?? told.set(r.stopId, new Set()).get(r.stopId))?.add(r.moment);
  return told;
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


export type TemplateRow = typeof recipientTemplates.$inferSelect;

/** The tenant's own templates (the defaults are not stored). */
export async function templatesOf(q: Queryable, tenantId: string): Promise<TemplateRow[]> {
  return q.select().from(recipientTemplates).where(eq(recipientTemplates.tenantId, tenantId));
}

export async function findTemplate(q: Queryable, tenantId: string, moment: RecipientMoment, locale: RecipientLocale): Promise<TemplateRow | null> {
  const [row] = await q
    .select()
    .from(recipientTemplates)
    .where(and(eq(recipientTemplates.tenantId, tenantId), eq(recipientTemplates.moment, moment), eq(recipientTemplates.locale, locale)));
  return row ?? null;
}

/** One statement: two admins saving at once leave the later text, never an error. */
export async function upsertTemplate(q: Queryable, row: TemplateRow): Promise<void> {
  await q
    .insert(recipientTemplates)
    .values(row)
    .onConflictDoUpdate({
      target: [recipientTemplates.tenantId, recipientTemplates.moment, recipientTemplates.locale],
      set: { subject: row.subject, body: row.body, updatedAt: row.updatedAt },
    });
}

export async function deleteTemplate(q: Queryable, tenantId: string, moment: RecipientMoment, locale: RecipientLocale): Promise<void> {
  await q
    .delete(recipientTemplates)
    .where(and(eq(recipientTemplates.tenantId, tenantId), eq(recipientTemplates.moment, moment), eq(recipientTemplates.locale, locale)));
}
