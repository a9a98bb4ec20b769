// Compensation operations: read, write and delete base earnings and bonuses, read the history (docs/api-guide.md "Tour compensation, tips and legacy earnings").
import type { Deps } from '../../deps.ts';
import type { Actor } from '../../http/actor.ts';
import { invalidFields } from '../../http/errors.ts';
import { iso } from '../../shared/time.ts';
import { areaCurrency, requireCompensation, requireLoadedCompensation } from './access.ts';
import * as rules from './compensation-total.ts';
import * as repo from './repository.ts';
import type { ComponentInput } from './schemas.ts';
import { toCompensationView, type CompensationView } from './store.ts';
import { writeComponent, type ComponentWrite } from './write-component.ts';

/** GET /api/tours/{id}/compensation. */
export async function getCompensation(deps: Deps, actor: Actor, tourId: string): Promise<CompensationView> {
  // One prepared statement for the tour and the row, as the writes read them (write-component.ts).
  const found = await repo.findTourAndCompensation(deps.db, actor.tenantId, tourId);
  const tour = requireLoadedCompensation(actor, found.tour, 'show');
  const row = found.row;
  return toCompensationView(tourId, row?.currency ?? (await areaCurrency(deps.db, actor.tenantId, tour.serviceAreaId)), row);
}

const labelled = (input: ComponentInput): rules.Labelled => ({ amount: input.amount, label: input.label ?? null });

/** Each route's write, as both of writeComponent's paths apply it (decision 0218). */
export const componentWrites = {
  setBase: (input: ComponentInput): ComponentWrite => ({ currency: input.currency, apply: (c) => rules.setBase(c, labelled(input)), absent: 'base earnings' }),
  deleteBase: (): ComponentWrite => ({ currency: null, apply: (c) => rules.deleteBase(c), absent: 'base earnings' }),
  setBonus: (key: string, input: ComponentInput): ComponentWrite => ({
    currency: input.currency,
    apply: (c) => {
      // After the tour's visibility and the currency: a bad key is 422 on PUT (404 on DELETE, as no bonus has it).
      if (!rules.BONUS_KEY_RE.test(key)) throw invalidFields([{ pointer: '/key', code: 'invalid_format', detail: 'must match [a-z0-9_-]{1,64}' }]);
      return rules.setBonus(c, key, labelled(input));
    },
    absent: 'bonus',
  }),
  deleteBonus: (key: string): ComponentWrite => ({ currency: null, apply: (c) => rules.deleteBonus(c, key), absent: 'bonus' }),
};

export const setBaseEarnings = (deps: Deps, actor: Actor, tourId: string, input: ComponentInput) => writeComponent(deps, actor, tourId, componentWrites.setBase(input));

export const deleteBaseEarnings = (deps: Deps, actor: Actor, tourId: string) => writeComponent(deps, actor, tourId, componentWrites.deleteBase());

export const setBonus = (deps: Deps, actor: Actor, tourId: string, key: string, input: ComponentInput) =>
  writeComponent(deps, actor, tourId, componentWrites.setBonus(key, input));

export const deleteBonus = (deps: Deps, actor: Actor, tourId: string, key: string) => writeComponent(deps, actor, tourId, componentWrites.deleteBonus(key));

/** GET /api/tours/{id}/compensation/history: oldest first, the system's tip changes included. */
export async function getCompensationHistory(deps: Deps, actor: Actor, tourId: string) {
  await requireCompensation(deps.db, actor, tourId, 'history');
  const rows = await repo.listHistory(deps.db, actor.tenantId, tourId);
  return rows.map((h) => ({ at: iso(h.at), actor_id: h.actorId, component: h.component, key: h.key, from: h.from, to: h.to }));
}
