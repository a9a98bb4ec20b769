// Compensation operations: read, write and delete base earnings and bonuses, read the history (CONTRACT.md §7).
import type { Queryable } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { forbidden, invalidFields, notFound, unprocessable } from '../../http/errors.ts';
import { defineMessages } from '../../http/i18n.ts';
import { iso } from '../../shared/time.ts';
import { findServiceArea } from '../identity/index.ts';
import { visibleTour, type TourRow } from '../dispatch/index.ts';
import * as rules from './compensation-total.ts';
import { mayOnCompensation, ownToursOnly, type CompensationAction } from './permissions.ts';
import * as repo from './repository.ts';
import type { ComponentInput } from './schemas.ts';
import { componentsOf, recordWrite, toCompensationView, type CompensationView } from './store.ts';

defineMessages({
  'compensation.currency_mismatch': {
    en: 'The currency must be the tour’s service area currency, {currency}.',
    de: 'Die Währung muss die des Servicegebiets der Tour sein: {currency}.',
  },
  'compensation.too_many_bonuses': { en: 'A tour has at most {max} bonuses.', de: 'Eine Tour hat höchstens {max} Boni.' },
});

/**
 * The tour whose compensation the caller may act on. What the caller may not see is 404 before anything else; a
 * role that sees the tour but may not do this (a driver writing its own pay) is 403 (decision 0600).
 */
export async function authorizedTour(q: Queryable, actor: Actor, tourId: string, action: CompensationAction): Promise<TourRow> {
  if (!mayOnCompensation(actor, 'show')) throw notFound('tour');
  const tour = await visibleTour(q, actor, tourId);
  if (ownToursOnly(actor) && tour.driverId !== actor.userId) throw notFound('tour');
  if (!mayOnCompensation(actor, action)) throw forbidden();
  return tour;
}

/** The tour's service area's currency: the compensation's currency (CONTRACT.md §7). */
export async function areaCurrency(q: Queryable, tenantId: string, serviceAreaId: string): Promise<string> {
  const area = await findServiceArea(q, tenantId, serviceAreaId);
  if (!area) throw new Error(`tour in a missing service area ${serviceAreaId}`);
  return area.currency;
}

/** GET /api/tours/{id}/compensation. */
export async function getCompensation(deps: Deps, actor: Actor, tourId: string): Promise<CompensationView> {
  const tour = await authorizedTour(deps.db, actor, tourId, 'show');
  const row = await repo.findCompensation(deps.db, actor.tenantId, tourId);
  return toCompensationView(tourId, row?.currency ?? (await areaCurrency(deps.db, actor.tenantId, tour.serviceAreaId)), row);
}

/**
 * One write to one component: authorize, lock the tour's compensation row (made on the first write), apply the pure
 * rule, record. Writes on cancelled and completed tours are allowed: drivers are paid for cancelled work too
 * (decision 0600).
 */
async function writeComponent(
  deps: Deps,
  actor: Actor,
  tourId: string,
  currency: string | null,
  apply: (c: rules.Components) => rules.WriteResult,
  absent: string,
): Promise<CompensationView> {
  const at = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const tour = await authorizedTour(tx, actor, tourId, 'write');
    // The row exists after the first write: lock it; only the first write reads the area's currency to make it.
    const row =
      (await repo.findCompensationForUpdate(tx, actor.tenantId, tourId)) ??
      (await repo.lockCompensations(tx, actor.tenantId, [{ tourId, serviceAreaId: tour.serviceAreaId, currency: await areaCurrency(tx, actor.tenantId, tour.serviceAreaId), now: at }]))[0];
    if (currency !== null && currency !== row!.currency) {
      throw unprocessable('currency_mismatch', { key: 'compensation.currency_mismatch', params: { currency: row!.currency } }, [
        { pointer: '/currency', code: 'currency_mismatch', detail: `must be ${row!.currency}` },
      ]);
    }
    const result = apply(componentsOf(row!));
    if (!result.ok && result.reason === 'absent') throw notFound(absent);
    if (!result.ok) throw unprocessable('too_many_bonuses', { key: 'compensation.too_many_bonuses', params: { max: rules.MAX_BONUSES } });
    const fresh = await recordWrite(tx, row!, result, actor.userId, at);
    return toCompensationView(tourId, fresh.currency, fresh);
  });
}

const labelled = (input: ComponentInput): rules.Labelled => ({ amount: input.amount, label: input.label ?? null });

export const setBaseEarnings = (deps: Deps, actor: Actor, tourId: string, input: ComponentInput) =>
  writeComponent(deps, actor, tourId, input.currency, (c) => rules.setBase(c, labelled(input)), 'base earnings');

export const deleteBaseEarnings = (deps: Deps, actor: Actor, tourId: string) =>
  writeComponent(deps, actor, tourId, null, (c) => rules.deleteBase(c), 'base earnings');

export const setBonus = (deps: Deps, actor: Actor, tourId: string, key: string, input: ComponentInput) =>
  writeComponent(
    deps,
    actor,
    tourId,
    input.currency,
    (c) => {
      if (!rules.BONUS_KEY_RE.test(key)) throw invalidFields([{ pointer: '/key', code: 'invalid_format', detail: 'must match [a-z0-9_-]{1,64}' }]);
      return rules.setBonus(c, key, labelled(input));
    },
    'bonus',
  );

export const deleteBonus = (deps: Deps, actor: Actor, tourId: string, key: string) =>
  writeComponent(deps, actor, tourId, null, (c) => rules.deleteBonus(c, key), 'bonus');

/** GET /api/tours/{id}/compensation/history: oldest first, the system's tip changes included. */
export async function getCompensationHistory(deps: Deps, actor: Actor, tourId: string) {
  await authorizedTour(deps.db, actor, tourId, 'history');
  const rows = await repo.listHistory(deps.db, actor.tenantId, tourId);
  return rows.map((h) => ({ at: iso(h.at), actor_id: h.actorId, component: h.component, key: h.key, from: h.from, to: h.to }));
}
