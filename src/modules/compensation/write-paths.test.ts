// A compensation write takes the two-statement fast path when the tour's row exists, or the transaction under the row
// lock; both authorize and decide with the same functions (write-component.ts, decision 0218). Each case is run once
// through each path, on two tours set up alike, and the two answers must be the same — and the one the case expects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestTenant } from '../../../test/app.ts';
import { compensationWorld, eur, managedTour, type CompensationWorld } from '../../../test/compensation.ts';
import { createUser, expectOk, type CreatedUser } from '../../../test/factories.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../shared/ids.ts';
import { componentWrites } from './operations.ts';
import { writeComponent, writeLocked, type ComponentWrite } from './write-component.ts';

let t: TestApp;
let tenant: TestTenant;
let manager: CreatedUser;
let stranger: CreatedUser;
let driver: CreatedUser;
let world: CompensationWorld;

beforeAll(async () => {
  world = await compensationWorld();
  ({ t, tenant, manager, driver } = world);
  stranger = await createUser(tenant.admin, { role: 'manager' });
});
afterAll(async () => t.close());

const actorOf = (user: { id: string; role: Actor['role']; organizationIds: string[] }): Actor => ({
  tenantId: tenant.tenantId,
  userId: user.id,
  role: user.role,
  organizationIds: user.organizationIds,
  credentialId: newId(),
  apiKeyId: null,
  extensions: [],
  settings: { enforce_sunsets: false },
  lang: 'en',
});
const admin = () => actorOf({ id: tenant.adminUserId, role: 'admin', organizationIds: [] });
const userActor = (u: CreatedUser) => actorOf({ id: u.id, role: u.user.role, organizationIds: u.user.organization_ids });

/** A tour managed by the world's organization, its compensation row made by a first write (base 1000 EUR, one bonus). */
async function scene(): Promise<string> {
  const tour = await managedTour(world);
  await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/base`, eur(1000, 'Day rate')));
  await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/bonus/rain`, eur(200)));
  return tour.id;
}

const paths = {
  fast: (actor: Actor, tourId: string, write: ComponentWrite) => writeComponent(t.deps, actor, tourId, write),
  locked: (actor: Actor, tourId: string, write: ComponentWrite) => writeLocked(t.deps, actor, tourId, write, t.clock.now()),
};

/** What a path answered: the compensation (without its tour id), or the error's status and code. */
async function answer(run: () => Promise<{ tour_id: string }>): Promise<unknown> {
  try {
    const { tour_id: _id, ...view } = await run();
    return view;
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.code}`;
    throw err;
  }
}

const view = (base: { amount: number; label: string | null }, bonuses: { key: string; amount: number; label: string | null }[]) => ({
  currency: 'EUR',
  total_amount: base.amount + bonuses.reduce((sum, b) => sum + b.amount, 0),
  breakdown: { base_earnings: base, bonuses, tips: { amount: 0 } },
  tip_distribution: { status: 'active', paused_reason: null },
  compensation_updated_at: t.clock.now().toISOString(),
});

const cases: { name: string; prepare?: (tourId: string) => Promise<void>; actor: () => Actor; tour?: () => string; write: ComponentWrite; expected: () => unknown }[] = [
  {
    name: 'an admin sets the base earnings',
    actor: admin,
    write: componentWrites.setBase(eur(1500, 'Long day')),
    expected: () => view({ amount: 1500, label: 'Long day' }, [{ key: 'rain', amount: 200, label: null }]),
  },
  {
    name: 'a manager who sees the tour adds a bonus',
    actor: () => userActor(manager),
    write: componentWrites.setBonus('night', eur(300, 'Night')),
    expected: () => view({ amount: 1000, label: 'Day rate' }, [{ key: 'night', amount: 300, label: 'Night' }, { key: 'rain', amount: 200, label: null }]),
  },
  {
    name: 'removing a bonus',
    actor: admin,
    write: componentWrites.deleteBonus('rain'),
    expected: () => view({ amount: 1000, label: 'Day rate' }, []),
  },
  {
    name: 'the same base again changes nothing',
    actor: admin,
    write: componentWrites.setBase(eur(1000, 'Day rate')),
    expected: () => view({ amount: 1000, label: 'Day rate' }, [{ key: 'rain', amount: 200, label: null }]),
  },
  { name: 'another currency (422)', actor: admin, write: componentWrites.setBase({ amount: 1500, currency: 'USD' }), expected: () => '422 currency_mismatch' },
  {
    name: 'a sixth bonus (422)',
    prepare: async (tourId) => {
      for (const key of ['a', 'b', 'c', 'd']) await expectOk(tenant.admin.put(`/api/tours/${tourId}/compensation/bonus/${key}`, eur(10)));
    },
    actor: admin,
    write: componentWrites.setBonus('e', eur(10)),
    expected: () => '422 too_many_bonuses',
  },
  { name: 'a bonus key out of pattern (422)', actor: admin, write: componentWrites.setBonus('Not A Key', eur(10)), expected: () => '422 validation_failed' },
  { name: 'removing a bonus the tour does not have (404)', actor: admin, write: componentWrites.deleteBonus('snow'), expected: () => '404 not_found' },
  { name: 'a driver who does not drive the tour (404)', actor: () => userActor(driver), write: componentWrites.setBase(eur(1)), expected: () => '404 not_found' },
  {
    name: 'the tour’s own driver reads its pay but may not write it (403)',
    prepare: async (tourId) => void (await expectOk(tenant.admin.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: driver.id }))),
    actor: () => userActor(driver),
    write: componentWrites.setBase(eur(1)),
    expected: () => '403 forbidden',
  },
  { name: 'a manager who does not see the tour (404)', actor: () => userActor(stranger), write: componentWrites.setBase(eur(1)), expected: () => '404 not_found' },
  { name: 'a tour that does not exist (404)', actor: admin, tour: () => newId(), write: componentWrites.setBase(eur(1)), expected: () => '404 not_found' },
];

describe('a compensation write: the fast path and the locked transaction answer alike', () => {
  it.each(cases)('$name', async (c) => {
    const answers: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(paths)) {
      const tourId = await scene();
      await c.prepare?.(tourId);
      answers[name] = await answer(() => path(c.actor(), c.tour?.() ?? tourId, c.write));
    }
    expect(answers.fast).toEqual(answers.locked);
    expect(answers.fast).toEqual(c.expected());
  });
});
