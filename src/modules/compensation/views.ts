// A booking's `tip_distribution` as booking responses render it (CONTRACT.md §7).
import type { Queryable } from '../../db/client.ts';
import * as repo from './repository.ts';
import type { TipReason, TipStatus } from './tip-eligibility.ts';

export interface TipDistributionView {
  tour_id: string | null;
  status: TipStatus;
  reason: TipReason;
}

/**
 * The last evaluated outcome of each booking. A booking no trigger has evaluated yet (no tour of its drop-offs has
 * completed, its tip never changed) has none: it says so from its tip alone.
 */
export async function tipDistributionOfBookings(
  q: Queryable,
  tenantId: string,
  bookings: { id: string; tip: { amount: number } | null }[],
  options: { fresh: boolean } = { fresh: false },
): Promise<Map<string, TipDistributionView>> {
  const found = options.fresh ? [] : await repo.findTipOutcomes(q, tenantId, bookings.map((b) => b.id));
  const rows = new Map(found.map((r) => [r.bookingId, r]));
  return new Map(
    bookings.map((b) => {
      const row = rows.get(b.id);
      if (row) return [b.id, { tour_id: row.tourId, status: row.status, reason: row.reason }];
      const tipped = b.tip !== null && b.tip.amount > 0;
      return [b.id, tipped ? { tour_id: null, status: 'pending', reason: 'dropoffs_unresolved' } : { tour_id: null, status: 'not_eligible', reason: 'no_tip' }];
    }),
  );
}
