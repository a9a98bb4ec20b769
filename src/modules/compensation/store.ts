// The one way a compensation row changes: apply a pure write, append its history entry, move the debounced
// `tour.compensation_updated` — all in one statement. Rendering of the row for the API and the webhook.
import type { Queryable, Tx } from '../../db/client.ts';
import { newId } from '../../shared/ids.ts';
import { isoOrNull } from '../../shared/time.ts';
import { pendingEvent } from '../../worker/debounce.ts';
import { compensationTotal, type Components, type WriteResult } from './compensation-total.ts';
import * as repo from './repository.ts';

/** docs/api-guide.md "Conventions": the compensation webhook's quiet window. */
export const COMPENSATION_QUIET_WINDOW_SECONDS = 120;

export const componentsOf = (row: repo.CompensationRow | null): Components => ({
  base: row && row.baseAmount !== null ? { amount: row.baseAmount, label: row.baseLabel } : null,
  bonuses: row?.bonuses ?? [],
  tips: row?.tipsAmount ?? 0,
});

/** The compensation object of docs/api-guide.md "Tour compensation, tips and legacy earnings"; a tour never written to renders zeros in its area's currency. */
export function toCompensationView(tourId: string, currency: string, row: repo.CompensationRow | null) {
  const c = componentsOf(row);
  return {
    tour_id: tourId,
    currency: row?.currency ?? currency,
    total_amount: compensationTotal(c),
    breakdown: {
      base_earnings: c.base ?? { amount: 0, label: null },
      bonuses: c.bonuses.map((b) => ({ key: b.key, amount: b.amount, label: b.label })),
      tips: { amount: c.tips },
    },
    tip_distribution: { status: row?.tipsPaused ? ('paused' as const) : ('active' as const), paused_reason: row?.tipsPaused ? row.tipsPausedReason : null },
    compensation_updated_at: isoOrNull(row?.updatedAt),
  };
}
export type CompensationView = ReturnType<typeof toCompensationView>;

/**
 * Writes the outcome of a pure write to `row` in one statement: the components, the history entry and the debounced
 * `tour.compensation_updated` (every change, tips included, moves the tour's quiet window, docs/api-guide.md "Tour compensation, tips and legacy earnings"). The
 * statement applies only while the row still holds the components the outcome was computed from; it returns the row
 * as it now is, or null when another write changed it first (possible only for a caller that read it without the
 * lock, decision 0606). A write that changes nothing leaves the row, the history and the webhook alone.
 */
export async function recordWrite(
  q: Queryable,
  row: repo.CompensationRow,
  result: Extract<WriteResult, { ok: true }>,
  actorId: string | null,
  at: Date,
): Promise<repo.CompensationRow | null> {
  if (!result.change) return row;
  const c = result.components;
  const { component, key, from, to } = result.change;
  const job = pendingEvent({ tenantId: row.tenantId, type: 'tour.compensation_updated', resourceId: row.tourId, windowSeconds: COMPENSATION_QUIET_WINDOW_SECONDS, now: at });
  return repo.writeComponents(q, {
    tenantId: row.tenantId,
    tourId: row.tourId,
    was: { baseAmount: row.baseAmount, baseLabel: row.baseLabel, bonuses: row.bonuses, tipsAmount: row.tipsAmount },
    now: { baseAmount: c.base?.amount ?? null, baseLabel: c.base?.label ?? null, bonuses: c.bonuses, tipsAmount: c.tips, updatedAt: at },
    history: { id: newId(), at, actorId, component, key, from, to },
    job: { id: newId(), kind: job.kind, dedupeKey: job.dedupeKey, payload: job.payload, dueAt: job.dueAt, now: at },
  });
}

/** A write to a row this transaction holds locked: it cannot lose the compare (the lock keeps every other writer out). */
export async function recordLockedWrite(
  tx: Tx,
  row: repo.CompensationRow,
  result: Extract<WriteResult, { ok: true }>,
  actorId: string | null,
  at: Date,
): Promise<repo.CompensationRow> {
  const fresh = await recordWrite(tx, row, result, actorId, at);
  if (!fresh) throw new Error(`compensation of tour ${row.tourId} changed under its row lock`);
  return fresh;
}

/** docs/api-guide.md "Events and webhooks": the payload is built from the state at send time; no labels, no metadata. */
export async function compensationUpdatedData(q: Queryable, tenantId: string, tourId: string): Promise<Record<string, unknown> | null> {
  const row = await repo.findCompensation(q, tenantId, tourId);
  if (!row) return null;
  const c = componentsOf(row);
  return {
    tour_id: row.tourId,
    service_area_id: row.serviceAreaId,
    currency: row.currency,
    total_amount: compensationTotal(c),
    breakdown: {
      base_earnings: { amount: c.base?.amount ?? 0 },
      bonuses: c.bonuses.map((b) => ({ key: b.key, amount: b.amount })),
      tips: { amount: c.tips },
    },
    compensation_updated_at: isoOrNull(row.updatedAt),
  };
}
