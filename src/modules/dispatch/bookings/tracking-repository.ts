// Tracking links SQL: a booking's link row, the lookup by token hash, when bookings finished. Handle and tenant id first.
import { and, eq, inArray, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../../db/client.ts';
import { FINAL_STOP_STATUSES } from './booking-status.ts';
import { bookingTrackingLinks, stops } from '../tables.ts';

export type TrackingLinkRow = typeof bookingTrackingLinks.$inferSelect;

export async function findLinks(q: Queryable, tenantId: string, bookingIds: readonly string[]): Promise<TrackingLinkRow[]> {
  if (!bookingIds.length) return [];
  return q.select().from(bookingTrackingLinks).where(and(eq(bookingTrackingLinks.tenantId, tenantId), inArray(bookingTrackingLinks.bookingId, [...bookingIds])));
}

/** Writes the links of bookings that have none yet; a concurrent render's row wins (the caller reads again). */
export async function insertLinks(q: Queryable, rows: TrackingLinkRow[]): Promise<void> {
  if (rows.length) await q.insert(bookingTrackingLinks).values(rows).onConflictDoNothing();
}

/** Replaces a link's nonce and hash (rotation, or a link derived under a master key that was retired). */
export async function replaceLink(q: Queryable, tenantId: string, bookingId: string, link: { nonce: string; tokenHash: string }): Promise<void> {
  await q.update(bookingTrackingLinks).set(link).where(and(eq(bookingTrackingLinks.tenantId, tenantId), eq(bookingTrackingLinks.bookingId, bookingId)));
}

/** The link a token hash belongs to, in any tenant: the public read knows no tenant before it (decision 1100). */
export async function findLinkByTokenHash(q: Queryable, tokenHash: string): Promise<TrackingLinkRow | null> {
  const [row] = await q.select().from(bookingTrackingLinks).where(eq(bookingTrackingLinks.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** Stores the booking's feedback unless it has one; false when it had. */
export async function setFeedback(q: Queryable, tenantId: string, bookingId: string, feedback: { rating: number; comment: string | null; at: Date }): Promise<boolean> {
  const rows = await q
    .update(bookingTrackingLinks)
    .set({ feedbackRating: feedback.rating, feedbackComment: feedback.comment, feedbackAt: feedback.at })
    .where(and(eq(bookingTrackingLinks.tenantId, tenantId), eq(bookingTrackingLinks.bookingId, bookingId), isNull(bookingTrackingLinks.feedbackAt)))
    .returning({ bookingId: bookingTrackingLinks.bookingId });
  return rows.length > 0;
}

/**
 * When each booking's last stop reached its final state, for the bookings whose stops are all final (the others are
 * absent): the moment the link's time to live starts (decision 1100).
 */
export async function finishedAtOfBookings(q: Queryable, tenantId: string, bookingIds: readonly string[]): Promise<Map<string, Date>> {
  if (!bookingIds.length) return new Map();
  const final = sql.join(FINAL_STOP_STATUSES.map((status) => sql.raw(`'${status}'`)), sql`, `);
  const rows = await q
    .select({
      bookingId: stops.bookingId,
      open: sql<number>`count(*) FILTER (WHERE ${stops.status} NOT IN (${final}))`.mapWith(Number),
      finishedAt: sql<string | null>`max(coalesce(${stops.completedAt}, ${stops.failedAt}, ${stops.cancelledAt}, ${stops.updatedAt}))`,
    })
    .from(stops)
    .where(and(eq(stops.tenantId, tenantId), inArray(stops.bookingId, [...bookingIds])))
    .groupBy(stops.bookingId);
  const finished = new Map<string, Date>();
  for (const row of rows) if (row.bookingId && row.open === 0 && row.finishedAt) finished.set(row.bookingId, new Date(row.finishedAt));
  return finished;
}

const FINAL = sql.raw(FINAL_STOP_STATUSES.map((status) => `'${status}'`).join(', '));

/**
 * The booking a token hash tracks, as a derived table of one row (none for a hash no link has): what the public read
 * shows of dispatch as JSON in `tracked`, and beside it the keys other modules' parts of the same statement read by
 * (`tenant_id`, `tour_id`, `driver_id`, `open_stop_ids`). The tour is the one of the booking's next open stop, else of
 * its last stop on a tour (decision 1101). `OFFSET 0` keeps the inner query from being pulled up: it is computed once,
 * and the tour is then found by its key (a subquery in a join condition is no index condition).
 */
export const trackedBookingSource = (tokenHash: Placeholder): SQL => sql`(
  SELECT x.tenant_id, x.tour_id, tr.driver_id, x.open_stop_ids, x.service_area_id,
         json_build_object(
           'tenant_id', x.tenant_id, 'booking_id', x.booking_id, 'booking_status', x.booking_status,
           'feedback', x.feedback, 'stops', x.stops,
           'tour', CASE WHEN tr.id IS NULL THEN NULL ELSE json_build_array(tr.id, tr.status, tr.driver_id) END,
           'tour_open_stops', (SELECT coalesce(json_agg(json_build_array(s.id, s.booking_id) ORDER BY s.tour_position, s.id), '[]'::json)
                                 FROM stops s WHERE s.tenant_id = x.tenant_id AND s.tour_id = tr.id AND s.status NOT IN (${FINAL}))
         ) AS tracked
    FROM (SELECT l.tenant_id, l.booking_id, b.status AS booking_status, b.service_area_id,
                 CASE WHEN l.feedback_at IS NOT NULL AND l.feedback_rating IS NOT NULL THEN json_build_array(l.feedback_rating, l.feedback_comment) END AS feedback,
                 (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM stops s WHERE s.tenant_id = l.tenant_id AND s.booking_id = l.booking_id) AS stops,
                 ARRAY(SELECT s.id FROM stops s WHERE s.tenant_id = l.tenant_id AND s.booking_id = l.booking_id AND s.status NOT IN (${FINAL})) AS open_stop_ids,
                 coalesce(
                   (SELECT s.tour_id FROM stops s WHERE s.tenant_id = l.tenant_id AND s.booking_id = l.booking_id AND s.tour_id IS NOT NULL
                       AND s.status NOT IN (${FINAL}) ORDER BY s.position LIMIT 1),
                   (SELECT s.tour_id FROM stops s WHERE s.tenant_id = l.tenant_id AND s.booking_id = l.booking_id AND s.tour_id IS NOT NULL
                     ORDER BY s.position DESC LIMIT 1)) AS tour_id
            FROM booking_tracking_links l JOIN bookings b ON b.tenant_id = l.tenant_id AND b.id = l.booking_id
           WHERE l.token_hash = ${tokenHash}
          OFFSET 0) x
    LEFT JOIN tours tr ON tr.tenant_id = x.tenant_id AND tr.id = x.tour_id)`;

/**
 * Which of `tokenHashes` (a text[] expression) still belong to a link of the tenant, as JSON: an open stream of a
 * rotated link learns it at the next change it hears (decision 1102), positions included.
 */
export const existingTokenHashesSql = (tenantId: SQL | Placeholder, tokenHashes: SQL): SQL =>
  sql`(SELECT coalesce(json_agg(l.token_hash), '[]'::json) FROM booking_tracking_links l WHERE l.tenant_id = ${tenantId} AND l.token_hash = ANY (${tokenHashes}))`;
