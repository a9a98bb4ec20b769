// A booking's `tip_distribution` as booking responses render it (docs/api-guide.md "Tour compensation, tips and legacy earnings").
import type { Placeholder } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import type { JsonPart } from '../../db/json-read.ts';
import type { TipDistributionSource } from '../../seams/index.ts';
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
  options: TipDistributionSource = { fresh: false },
): Promise<Map<string, TipDistributionView>> {
  let evaluated: Map<string, TipDistributionView | null>;
  // Outcomes given are this module's own (read through tipOutcomeRead), so they have its statuses and reasons.
  if ('evaluated' in options) evaluated = options.evaluated as Map<string, TipDistributionView | null>;
  else {
    const found = options.fresh ? [] : await repo.findTipOutcomes(q, tenantId, bookings.map((b) => b.id));
    evaluated = new Map(found.map((r) => [r.bookingId, outcomeView(r)]));
  }
  return new Map(
    bookings.map((b) => {
      const outcome = evaluated.get(b.id);
      if (outcome) return [b.id, outcome];
      const tipped = b.tip !== null && b.tip.amount > 0;
      return [b.id, tipped ? { tour_id: null, status: 'pending', reason: 'dropoffs_unresolved' } : { tour_id: null, status: 'not_eligible', reason: 'no_tip' }];
    }),
  );
}

/** One booking's evaluated outcome, read as a part of the booking read (decision 0312); null when none was evaluated. */
export function tipOutcomeRead(tenantId: Placeholder, bookingId: Placeholder): JsonPart<TipDistributionView | null> {
  const part = repo.tipOutcomeRead(tenantId, bookingId);
  return {
    sql: part.sql,
    decode: (json) => {
      const row = part.decode(json);
      return row && outcomeView(row);
    },
  };
}

const outcomeView = (row: repo.TipOutcomeRow): TipDistributionView => ({ tour_id: row.tourId, status: row.status, reason: row.reason });
