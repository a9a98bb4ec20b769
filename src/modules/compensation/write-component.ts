// Writing one component (base earnings or a bonus, set or delete): the fast path (decision 0606). A write reads the
// tour and its compensation row in one statement, decides in JS (visibility 404, role 403, currency and limits 422),
// and writes in one more: the row compared against what was read, updated, its history entry appended, the debounced
// webhook job moved — atomic without BEGIN/COMMIT. 2 statements per write, both prepared, where the locked
// transaction took 7 built by Drizzle per request (BEGIN, tour, row FOR UPDATE, UPDATE, history, job, COMMIT).
// Measured (bench/compensation.ts, 50 connections, each on its own tour, a loaded machine; docs/performance.md):
// server CPU per write fell from ≈ 4.0× to ≈ 1.6× that of a bare one-INSERT transaction on PostgreSQL (req/s ratio
// 0.28 → 0.67), and from ≈ 5.7× to ≈ 1.6–2.0× on PGlite, where the database's own work in WebAssembly now dominates.
//
// The locked path stays the rule for everything else: a tour's first write (the row does not exist yet, and making it
// needs the area's currency) and a write that lost the compare to a concurrent one (a bonus on the same tour, tip
// distribution) — it runs once, under the row lock, where nothing can overtake it. So a write never loses an update
// and never loops: at most one optimistic attempt, then the lock.
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import type { Messages } from '../../http/i18n.ts';
import { areaCurrency, requireCompensation, requireLoadedCompensation } from './access.ts';
import * as rules from './compensation-total.ts';
import * as repo from './repository.ts';
import { componentsOf, recordLockedWrite, recordWrite, toCompensationView, type CompensationView } from './store.ts';

export const messages: Messages = {
  'compensation.currency_mismatch': {
    en: 'The currency must be the tour’s service area currency, {currency}.',
    de: 'Die Währung muss die des Servicegebiets der Tour sein: {currency}.',
  },
  'compensation.too_many_bonuses': { en: 'A tour has at most {max} bonuses.', de: 'Eine Tour hat höchstens {max} Boni.' },
};

/** One write's pure part: `currency` null for deletes; `absent` names what a delete found missing (404). */
export interface ComponentWrite {
  currency: string | null;
  apply: (c: rules.Components) => rules.WriteResult;
  absent: string;
}

/** The outcome of `write` on `row`, or the 422/404 that refuses it. */
function decide(row: repo.CompensationRow, write: ComponentWrite): Extract<rules.WriteResult, { ok: true }> {
  if (write.currency !== null && write.currency !== row.currency) {
    throw unprocessable('currency_mismatch', { key: 'compensation.currency_mismatch', params: { currency: row.currency } }, [
      { pointer: '/currency', code: 'currency_mismatch', detail: `must be ${row.currency}` },
    ]);
  }
  const result = write.apply(componentsOf(row));
  if (!result.ok && result.reason === 'absent') throw notFound(write.absent);
  if (!result.ok) throw unprocessable('too_many_bonuses', { key: 'compensation.too_many_bonuses', params: { max: rules.MAX_BONUSES } });
  return result;
}

/**
 * Applies `write` to the tour's compensation. Writes on cancelled and completed tours are allowed: drivers are paid
 * for cancelled work too (decision 0600).
 */
export async function writeComponent(deps: Deps, actor: Actor, tourId: string, write: ComponentWrite): Promise<CompensationView> {
  const at = deps.clock.now();
  const { tour, row } = await repo.findTourAndCompensation(deps.db, actor.tenantId, tourId);
  requireLoadedCompensation(actor, tour, 'write');
  if (row) {
    const result = decide(row, write);
    const fresh = await recordWrite(deps.db, row, result, actor.userId, at);
    if (fresh) return toCompensationView(tourId, fresh.currency, fresh);
  }
  return writeLocked(deps, actor, tourId, write, at);
}

/**
 * The write under the row lock, in a transaction: the door again, lock (making the row on the first write), apply.
 * The same door (`requireLoadedCompensation`) and `decide` as the fast path above: the rules are written once (decision 0218).
 */
export function writeLocked(deps: Deps, actor: Actor, tourId: string, write: ComponentWrite, at: Date): Promise<CompensationView> {
  return deps.db.transaction(async (tx) => {
    const tour = await requireCompensation(tx, actor, tourId, 'write');
    const row =
      (await repo.findCompensationForUpdate(tx, actor.tenantId, tourId)) ??
      (await repo.lockCompensations(tx, actor.tenantId, [{ tourId, serviceAreaId: tour.serviceAreaId, currency: await areaCurrency(tx, actor.tenantId, tour.serviceAreaId), now: at }]))[0]!;
    const fresh = await recordLockedWrite(tx, row, decide(row, write), actor.userId, at);
    return toCompensationView(tourId, fresh.currency, fresh);
  });
}
