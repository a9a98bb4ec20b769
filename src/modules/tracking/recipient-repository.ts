// Recipient notifications SQL: claiming a moment (once per stop and moment), recipient addresses and their opt-out,
// and a tenant's own templates.
import { and, eq, sql } from 'drizzle-orm';
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
    // Two array parameters, not one per stop: a sweep asks about thousands of open drop-offs, and one statement text
    // for any number of them stays prepared (db/pglite-statements.ts).
    .where(
      and(
        sql`${recipientNotifications.tenantId} = ANY(${`{${[...new Set(stops.map((s) => s.tenantId))].join(',')}}`}::uuid[])`,
        sql`${recipientNotifications.stopId} = ANY(${`{${stops.map((s) => s.stopId).join(',')}}`}::uuid[])`,
      ),
    );
  for (const r of rows) (told.get(r.stopId) ?? told.set(r.stopId, new Set()).get(r.stopId))?.add(r.moment);
  return told;
}

/**
 * Records that the stops' moments are told, in one statement; answers the ones this call claimed (`stopId|moment`) —
 * one told already (another worker, an earlier sweep) is not. The primary key decides, so two sweeps at once tell a
 * moment once (decision 1104); the caller passes them in stop order, so two sweeps claiming overlapping sets wait for
 * each other in one order and never deadlock.
 */
export async function claimMoments(q: Queryable, rows: readonly Omit<NotificationRow, 'email'>[]): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const inserted = await q
    .insert(recipientNotifications)
    .values(rows.map((row) => ({ ...row, email: null })))
    .onConflictDoNothing()
    .returning({ stopId: recipientNotifications.stopId, moment: recipientNotifications.moment });
  return new Set(inserted.map((r) => `${r.stopId}|${r.moment}`));
}

/** The addresses mailed for the told moments, in one statement. */
export async function setNotifiedEmails(q: Queryable, tenantId: string, rows: readonly { stopId: string; moment: RecipientMoment; email: string }[]): Promise<void> {
  if (!rows.length) return;
  const values = sql.join(rows.map((r) => sql`(${r.stopId}::uuid, ${r.moment}, ${r.email})`), sql`, `);
  await q.execute(sql`UPDATE recipient_notifications n SET email = v.email FROM (VALUES ${values}) AS v(stop_id, moment, email)
                       WHERE n.tenant_id = ${tenantId} AND n.stop_id = v.stop_id AND n.moment = v.moment`);
}

/**
 * The addresses' rows with the hash of each one's current unsubscribe token (made on its first e-mail; a token derived
 * under another master key is replaced), in one statement. Answers the addresses that opted out. One row per address.
 */
export async function upsertAddresses(q: Queryable, rows: readonly { tenantId: string; email: string; tokenHash: string; createdAt: Date }[]): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const stored = await q
    .insert(recipientAddresses)
    .values(rows.map((row) => ({ ...row, unsubscribedAt: null })))
    .onConflictDoUpdate({ target: [recipientAddresses.tenantId, recipientAddresses.email], set: { tokenHash: sql`excluded.token_hash` } })
    .returning({ email: recipientAddresses.email, unsubscribedAt: recipientAddresses.unsubscribedAt });
  return new Set(stored.filter((r) => r.unsubscribedAt).map((r) => r.email));
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
