// Recipient messages SQL (decisions 1761–1764): a message's row and its state, the claim a send job holds while it talks
// to the gateway, receipts that only move a state forward, and the numbers that opted out.
import { and, asc, desc, eq, getTableColumns, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { runPrepared } from '../../db/prepared.ts';
import { recipientMessages, recipientNotifications, recipientPhones, type MessageStatus } from './tables.ts';

export type MessageRow = typeof recipientMessages.$inferSelect;

export async function insertMessage(q: Queryable, row: Omit<MessageRow, 'sendingUntil' | 'providerRef' | 'updatedAt'>): Promise<void> {
  await q.insert(recipientMessages).values({ ...row, providerRef: null, sendingUntil: null, updatedAt: row.createdAt });
}

/** A message a send job holds, and whether its number opted out by then (SMS only; decision 1764). */
export type ClaimedMessage = MessageRow & { optedOut: boolean };

/**
 * Takes a queued message for sending until `until`, in one statement (a job run twice — its lease ran out mid-send —
 * sends once; decision 1763), which also answers whether the number replied STOP meanwhile (decision 1785): `done`
 * when it was sent or failed already (or is no more), `held` while another job holds it.
 */
export async function claimMessage(q: Queryable, tenantId: string, id: string, now: Date, until: Date): Promise<ClaimedMessage | 'held' | 'done'> {
  // Prepared: a send job's claim and outcome are most of its statements, and Drizzle builds an UPDATE's text anew
  // on every call (decision 1785).
  const [row] = await runPrepared(
    q,
    'claim_recipient_message',
    (q) =>
      q
        .update(recipientMessages)
        .set({ sendingUntil: sql`${sql.placeholder('until')}::timestamptz`, updatedAt: sql`${sql.placeholder('now')}::timestamptz` })
        .where(
          and(
            eq(recipientMessages.tenantId, sql.placeholder('tenantId')),
            eq(recipientMessages.id, sql.placeholder('id')),
            eq(recipientMessages.status, 'queued'),
            or(isNull(recipientMessages.sendingUntil), lt(recipientMessages.sendingUntil, sql`${sql.placeholder('now')}::timestamptz`)),
          ),
        )
        .returning({
          ...getTableColumns(recipientMessages),
          // Qualified by hand: inside the subquery an unqualified column would be the phone row's own.
          optedOut: sql<boolean>`(recipient_messages.channel = 'sms' AND EXISTS (SELECT 1 FROM recipient_phones p
            WHERE p.tenant_id = recipient_messages.tenant_id AND p.phone_number = recipient_messages."to"))`,
        })
        .prepare('claim_recipient_message'),
    { tenantId, id, now: now.toISOString(), until: until.toISOString() },
  );
  if (row) return { ...row, optedOut: Boolean(row.optedOut) };
  const [left] = await q
    .select({ status: recipientMessages.status })
    .from(recipientMessages)
    .where(and(eq(recipientMessages.tenantId, tenantId), eq(recipientMessages.id, id)));
  return left?.status === 'queued' ? 'held' : 'done';
}

/** The send job's outcome: sent (the gateway took it), failed for good, or back to queued for the next attempt. */
export async function finishSending(
  q: Queryable,
  key: { tenantId: string; id: string },
  outcome: { status: 'sent'; providerRef: string | null } | { status: 'failed' | 'queued'; error: string },
  now: Date,
): Promise<void> {
  const params = { tenantId: key.tenantId, id: key.id, now: now.toISOString() };
  // A receipt may come before the gateway's answer is written: a message it moved on stays where it is.
  const stillQueued = and(
    eq(recipientMessages.tenantId, sql.placeholder('tenantId')),
    eq(recipientMessages.id, sql.placeholder('id')),
    eq(recipientMessages.status, 'queued'),
  );
  const at = sql`${sql.placeholder('now')}::timestamptz`;
  if (outcome.status === 'sent') {
    await runPrepared(
      q,
      'finish_recipient_message_sent',
      (q) =>
        q
          .update(recipientMessages)
          .set({ status: 'sent', providerRef: sql`${sql.placeholder('providerRef')}::text`, error: null, sendingUntil: null, updatedAt: at })
          .where(stillQueued)
          .prepare('finish_recipient_message_sent'),
      { ...params, providerRef: outcome.providerRef },
    );
    return;
  }
  await runPrepared(
    q,
    'finish_recipient_message_unsent',
    (q) =>
      q
        .update(recipientMessages)
        .set({ status: sql`${sql.placeholder('status')}::text`, error: sql`${sql.placeholder('error')}::text`, sendingUntil: null, updatedAt: at })
        .where(stillQueued)
        .prepare('finish_recipient_message_unsent'),
    { ...params, status: outcome.status, error: outcome.error.slice(0, 1000) },
  );
}

const rankOf = (column: typeof recipientMessages.status) =>
  sql`(CASE ${column} WHEN 'queued' THEN 0 WHEN 'sent' THEN 1 ELSE 2 END)`;

/**
 * A receipt's state, if it moves the message forward (recipient-sms.ts STATUS_RANK) — one statement, so receipts
 * racing each other cannot take it back. False for a message no row has.
 */
export async function applyReceipt(q: Queryable, key: { tenantId: string; id: string }, status: MessageStatus, rank: number, error: string | null, now: Date): Promise<boolean> {
  const isThis = and(eq(recipientMessages.tenantId, key.tenantId), eq(recipientMessages.id, key.id), eq(recipientMessages.channel, 'sms'));
  const moved = await q
    .update(recipientMessages)
    .set({ status, error: status === 'failed' ? error : null, sendingUntil: null, updatedAt: now })
    .where(and(isThis, sql`${rankOf(recipientMessages.status)} < ${rank}`))
    .returning({ id: recipientMessages.id });
  if (moved.length) return true;
  // Not moved: a receipt that is no news (a late 8 after 1), or no such message.
  const [found] = await q.select({ id: recipientMessages.id }).from(recipientMessages).where(isThis);
  return Boolean(found);
}

/**
 * A receipt that names the gateway's own id of the message (Twilio's SID, an SMSC's message_id; decisions 1782, 1783)
 * rather than ours: the same forward-only move, found by provider_ref across tenants (a receipt names none). False when
 * no SMS has that reference.
 */
export async function applyReceiptByProviderRef(q: Queryable, providerRef: string, status: MessageStatus, rank: number, error: string | null, now: Date): Promise<boolean> {
  const [found] = await q
    .select({ tenantId: recipientMessages.tenantId, id: recipientMessages.id })
    .from(recipientMessages)
    .where(and(eq(recipientMessages.providerRef, providerRef), eq(recipientMessages.channel, 'sms')))
    .orderBy(desc(recipientMessages.createdAt))
    .limit(1);
  return found ? applyReceipt(q, found, status, rank, error, now) : false;
}

export async function messagesOfBooking(q: Queryable, tenantId: string, bookingId: string): Promise<MessageRow[]> {
  return q
    .select()
    .from(recipientMessages)
    .where(and(eq(recipientMessages.tenantId, tenantId), eq(recipientMessages.bookingId, bookingId)))
    .orderBy(asc(recipientMessages.createdAt), asc(recipientMessages.id));
}

/** The tenant that last sent an SMS to the number (a reply names only the number; decision 1764). */
export async function lastSenderOf(q: Queryable, phoneNumber: string): Promise<string | null> {
  const [row] = await q
    .select({ tenantId: recipientMessages.tenantId })
    .from(recipientMessages)
    .where(and(eq(recipientMessages.channel, 'sms'), eq(recipientMessages.to, phoneNumber)))
    .orderBy(desc(recipientMessages.createdAt))
    .limit(1);
  return row?.tenantId ?? null;
}

export async function optOutPhone(q: Queryable, tenantId: string, phoneNumber: string, at: Date): Promise<void> {
  await q.insert(recipientPhones).values({ tenantId, phoneNumber, optedOutAt: at }).onConflictDoNothing();
}

export async function optedOutPhones(q: Queryable, tenantId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
  if (!phoneNumbers.length) return new Set();
  const rows = await q
    .select({ phoneNumber: recipientPhones.phoneNumber })
    .from(recipientPhones)
    .where(and(eq(recipientPhones.tenantId, tenantId), inArray(recipientPhones.phoneNumber, [...phoneNumbers])));
  return new Set(rows.map((r) => r.phoneNumber));
}

/**
 * The bookings with a message written before `cutoff`, after the key `after` (retention pages through them once per
 * run), up to `limit`, in key order.
 */
export async function bookingsWithMessagesBefore(
  q: Queryable,
  cutoff: Date,
  after: { tenantId: string; bookingId: string } | null,
  limit: number,
): Promise<{ tenantId: string; bookingId: string }[]> {
  const rows = await q
    .selectDistinct({ tenantId: recipientMessages.tenantId, bookingId: recipientMessages.bookingId })
    .from(recipientMessages)
    .where(
      and(
        lt(recipientMessages.createdAt, cutoff),
        after ? sql`(${recipientMessages.tenantId}, ${recipientMessages.bookingId}) > (${after.tenantId}::uuid, ${after.bookingId}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(recipientMessages.tenantId), asc(recipientMessages.bookingId))
    .limit(limit);
  return rows;
}

/** Erases the bookings' messages and the addresses their told moments kept (decision 1773). Answers the messages erased. */
export async function eraseMessagesOfBookings(q: Queryable, keys: readonly { tenantId: string; bookingId: string }[]): Promise<number> {
  if (!keys.length) return 0;
  const list = sql.join(keys.map((k) => sql`(${k.tenantId}::uuid, ${k.bookingId}::uuid)`), sql`, `);
  await q.update(recipientNotifications).set({ email: null }).where(sql`(${recipientNotifications.tenantId}, ${recipientNotifications.bookingId}) IN (${list}) AND ${recipientNotifications.email} IS NOT NULL`);
  const erased = await q.delete(recipientMessages).where(sql`(${recipientMessages.tenantId}, ${recipientMessages.bookingId}) IN (${list})`).returning({ id: recipientMessages.id });
  return erased.length;
}
