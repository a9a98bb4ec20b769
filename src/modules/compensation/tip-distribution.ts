// Tip distribution (docs/api-guide.md "Tip distribution"): re-evaluates bookings' tips in the worker's
// `compensation.distribute_tips` job, which the change that may move them (a tour completed, a tip changed, a
// booking's last drop-off became final) scheduled in its own transaction (decision 0604); updates the tours' tips
// components, and pauses a tour whose bookings tip in another currency, e-mailing the admins once.
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { adminEmails, enqueueMail } from '../../mail/index.ts';
import { findServiceArea } from '../identity/index.ts';
import { setTips } from './compensation-total.ts';
import { bookingIdsOfTours, tipBookings, tipTours } from './tip-inputs.ts';
import { requireCompensation } from './access.ts';
import * as repo from './repository.ts';
import { componentsOf, recordLockedWrite, toCompensationView, type CompensationView } from './store.ts';
import { tipOutcome, tourTips, type TipTour } from './tip-eligibility.ts';

export interface TipTrigger {
  /** Bookings whose tip or drop-offs changed. */
  bookingIds: string[];
  /** Tours that completed (or are re-evaluated): every booking on them, or awarded to them, is evaluated again. */
  tourIds: string[];
}

const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))].sort();

/**
 * Evaluates the bookings the trigger names and writes what changed. Idempotent: the outcome is a function of the
 * current state only, so running it again (or for another trigger in any order) changes nothing more.
 */
export async function distributeTips(tx: Tx, deps: Pick<Deps, 'config'>, tenantId: string, at: Date, trigger: TipTrigger): Promise<void> {
  const bookingIds = unique([
    ...trigger.bookingIds,
    ...(await bookingIdsOfTours(tx, tenantId, trigger.tourIds)),
    ...(await repo.bookingIdsNamingTours(tx, tenantId, trigger.tourIds)),
  ]);
  if (!bookingIds.length && !trigger.tourIds.length) return;
  // Lock, then read (decision 0607): each booking's outcome row is locked before its facts are read, so two
  // evaluations of a booking run one after the other and the later one reads what the earlier one could not see
  // (a drop-off completed in between). Read first, a stale outcome could commit last and stay: a booking pending on a
  // completed tour, its tip missing from the tour's.
  const previous = await repo.lockTipOutcomes(tx, tenantId, bookingIds, at);
  const bookings = await tipBookings(tx, tenantId, bookingIds);
  const tourIds = unique([...trigger.tourIds, ...bookings.flatMap((b) => b.dropoffs.map((d) => d.tourId)), ...previous.map((p) => p.tourId)]);
  const facts = await tipTours(tx, tenantId, tourIds);

  // The compensation currency of each tour: its row's, or its service area's for a row not made yet.
  const existing = new Map<string, string>();
  for (const id of tourIds) {
    const row = await repo.findCompensation(tx, tenantId, id);
    if (row) existing.set(id, row.currency);
  }
  const areaCurrencies = new Map<string, string>();
  for (const areaId of new Set(facts.map((f) => f.serviceAreaId))) areaCurrencies.set(areaId, (await findServiceArea(tx, tenantId, areaId))?.currency ?? '');
  const tours = new Map<string, TipTour>(
    facts.map((f) => [f.id, { id: f.id, status: f.status, strategy: f.strategy, currency: existing.get(f.id) ?? areaCurrencies.get(f.serviceAreaId)! }]),
  );

  const outcomes = bookings.map((b) => tipOutcome(b, tours));
  // Tours whose tips may move: named before or now. Locked (in id order, after the bookings' rows: decision 0607)
  // before their outcomes are rewritten; every change of an outcome naming a tour holds that tour's row, so the sum
  // below reads every other evaluation's outcome as committed.
  const affected = unique([...trigger.tourIds, ...previous.map((p) => p.tourId), ...outcomes.map((o) => o.tourId)]).filter((id) => tours.has(id));
  const rows = await repo.lockCompensations(
    tx,
    tenantId,
    affected.map((id) => {
      const f = facts.find((x) => x.id === id)!;
      return { tourId: id, serviceAreaId: f.serviceAreaId, currency: tours.get(id)!.currency, now: at };
    }),
  );
  await repo.upsertTipOutcomes(
    tx,
    outcomes.map((o) => ({ tenantId, bookingId: o.bookingId, tourId: o.tourId, status: o.status, reason: o.reason, amount: o.amount, evaluatedAt: at })),
  );
  const stored = await repo.findTipOutcomesOfTours(tx, tenantId, affected);
  for (const row of rows) {
    const { tips, mismatchedBookingIds } = tourTips(
      row.tourId,
      stored.map((s) => ({ bookingId: s.bookingId, tourId: s.tourId, status: s.status, reason: s.reason, amount: s.amount })),
    );
    const result = setTips(componentsOf(row), tips);
    if (result.ok) await recordLockedWrite(tx, row, result, null, at);
    const paused = mismatchedBookingIds.length > 0;
    if (paused === row.tipsPaused) continue;
    await repo.updateCompensation(tx, tenantId, row.tourId, { tipsPaused: paused, tipsPausedReason: paused ? 'currency_mismatch' : null });
    // E-mailed once, when the tour's distribution pauses; not again while it stays paused.
    if (paused) await mailPause(tx, deps, tenantId, at, row, mismatchedBookingIds);
  }
}

async function mailPause(tx: Tx, deps: Pick<Deps, 'config'>, tenantId: string, at: Date, row: repo.CompensationRow, bookingIds: string[]): Promise<void> {
  const base = deps.config.publicUrl ?? `http://${deps.config.host}:${deps.config.port}`;
  await enqueueMail(tx, {
    tenantId,
    to: await adminEmails(tx, tenantId),
    subject: `Tip distribution paused for tour ${row.tourId}`,
    text:
      `Tourbook paused the tip distribution of tour ${row.tourId} because a booking's tip is not in the tour's currency (${row.currency}).\n\n` +
      `Tour: ${row.tourId}\n  ${base}/api/tours/${row.tourId}/compensation\n` +
      bookingIds.map((id) => `Booking: ${id}\n  ${base}/api/hailing/bookings/${id}\n`).join('') +
      `\nCorrect the tip (PUT /api/hailing/bookings/{id}/tip) and resume the distribution with\n` +
      `POST ${base}/api/tours/${row.tourId}/compensation/tips/resume\n`,
    now: at,
  });
}

/** POST /api/tours/{id}/compensation/tips/resume: evaluates the tour's tips again and answers the compensation. */
export async function resumeTips(deps: Deps, actor: Actor, tourId: string): Promise<CompensationView> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await requireCompensation(tx, actor, tourId, 'resume_tips');
    await distributeTips(tx, deps, actor.tenantId, at, { bookingIds: [], tourIds: [tourId] });
    const row = await repo.findCompensation(tx, actor.tenantId, tourId);
    return toCompensationView(tourId, row!.currency, row);
  });
}
