// What recipient-data retention (tracking module, decision 1773) reads and erases of dispatch: which bookings are over
// and since when — completed or cancelled, their last stop's end before the cutoff — and the phone numbers their stops'
// contacts keep, with the recipients' delivery instructions. Across tenants, in batches.
import { sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { queryRows } from '../../db/sql.ts';

/** The booking `b` is over and its last stop ended (completed, failed or cancelled) before `cutoff`. */
const endedBefore = (cutoff: Date): SQL =>
  sql`b.status IN ('completed', 'cancelled')
      AND NOT EXISTS (SELECT 1 FROM stops y
                       WHERE y.tenant_id = b.tenant_id AND y.booking_id = b.id
                         AND COALESCE(y.completed_at, y.failed_at, y.cancelled_at, y.updated_at) >= ${cutoff})`;

/**
 * Erases what the recipients left on the stops of up to `limit` bookings that ended before `cutoff`: the contacts'
 * phone numbers (set to null, as a contact without one says; the rest of the contact stays) and the delivery
 * instructions given through the tracking link (decision 1788). One statement; the partial indexes on stops holding
 * either (migrations 0030, 0032) keep it to those. Answers how many bookings it erased.
 */
export async function eraseRecipientStopData(q: Queryable, cutoff: Date, now: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ booking_id: string }>(
    q,
    sql`WITH due AS (
          SELECT b.tenant_id, b.id FROM bookings b
           WHERE (b.tenant_id, b.id) IN (SELECT tenant_id, booking_id FROM stops WHERE (contact->>'phone_number') IS NOT NULL AND booking_id IS NOT NULL
                                         UNION
                                         SELECT tenant_id, booking_id FROM stops WHERE recipient_instructions IS NOT NULL AND booking_id IS NOT NULL)
             AND ${endedBefore(cutoff)}
           LIMIT ${limit})
        UPDATE stops s
           SET contact = CASE WHEN (s.contact->>'phone_number') IS NOT NULL THEN jsonb_set(s.contact, '{phone_number}', 'null'::jsonb) ELSE s.contact END,
               recipient_instructions = NULL,
               updated_at = ${now}
          FROM due
         WHERE s.tenant_id = due.tenant_id AND s.booking_id = due.id
           AND ((s.contact->>'phone_number') IS NOT NULL OR s.recipient_instructions IS NOT NULL)
     RETURNING s.booking_id`,
  );
  return new Set(rows.map((r) => r.booking_id)).size;
}

/** Of these bookings, the ones over whose last stop ended before `cutoff`, as `tenant id:booking id`. */
export async function bookingsEndedBefore(q: Queryable, keys: readonly { tenantId: string; bookingId: string }[], cutoff: Date): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await queryRows<{ tenant_id: string; id: string }>(
    q,
    sql`SELECT b.tenant_id, b.id FROM bookings b
         WHERE (b.tenant_id, b.id) IN (${sql.join(keys.map((k) => sql`(${k.tenantId}::uuid, ${k.bookingId}::uuid)`), sql`, `)})
           AND ${endedBefore(cutoff)}`,
  );
  return new Set(rows.map((r) => `${r.tenant_id}:${r.id}`));
}
