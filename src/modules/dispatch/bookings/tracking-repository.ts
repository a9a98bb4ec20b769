// Tracking links SQL: a booking's link row, the lookup by token hash, when bookings finished. Handle and tenant id first.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
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
