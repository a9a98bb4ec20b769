// A driver's position takes the one-statement fast path or the locking transaction; both check the fix and the tour
// with the same rules (position-checks.ts, decision 0218). Each case is run once through each path, on two tours set
// up alike, and the two answers must be the same — and the one the case expects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createService, createUser, expectOk, tourEnRoute, type CreatedUser } from '../../../test/factories.ts';
import type { Actor } from '../../http/actor.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../shared/ids.ts';
import { recordInTransaction } from './operations/record-driver-location.ts';
import { recordPositionFast } from './operations/record-position-fast.ts';

let t: TestApp;
let tenant: TestTenant;
let serviceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.createTenant();
  serviceId = (await createService(tenant.admin)).id;
});
afterAll(async () => t.close());

const actorOf = (user: CreatedUser): Actor => ({
  tenantId: tenant.tenantId,
  userId: user.id,
  role: user.user.role,
  organizationIds: user.user.organization_ids,
  credentialId: newId(),
  apiKeyId: null,
  extensions: [],
  settings: { enforce_sunsets: false },
  lang: 'en',
});

const at = (secondsFromNow: number) => new Date(t.clock.now().getTime() + secondsFromNow * 1000).toISOString();

/** A driver on an en_route tour with its first position stored (so the tour has its tracking row), a colleague, their manager. */
async function scene() {
  const booking = await createBooking(tenant.admin, { service_id: serviceId });
  const driver = await createUser(tenant.admin, { role: 'driver' });
  const colleague = await createUser(tenant.admin, { role: 'driver', organization_ids: driver.user.organization_ids });
  const manager = await createUser(tenant.admin, { role: 'manager', organization_ids: driver.user.organization_ids });
  const tour = await tourEnRoute(tenant.admin, [booking.id], driver.id);
  const first = { lat: 52.49, lng: 13.4, recorded_at: at(-60) };
  await expectOk(driver.client.post(`/api/hailing/tours/${tour.id}/driver_location`, { location: first }));
  return { tourId: tour.id as string, driver, colleague, manager, first };
}
type Scene = Awaited<ReturnType<typeof scene>>;

type Location = { lat: number; lng: number; recorded_at: string; heading?: number; speed?: number; accuracy?: number };
const paths = {
  fast: (actor: Actor, tourId: string, input: Location) => recordPositionFast(t.deps, actor, tourId, input, fixOf(input), t.clock.now()),
  locked: (actor: Actor, tourId: string, input: Location) => recordInTransaction(t.deps, actor, tourId, input, fixOf(input), t.clock.now()),
};
const fixOf = (input: Location) => ({ lat: input.lat, lng: input.lng, recordedAt: new Date(input.recorded_at) });

/** What a path answered: the position as rendered (without its new id), or the error's status and code. */
async function answer(run: () => Promise<{ location: { id: string } } | null>): Promise<unknown> {
  try {
    const result = await run();
    if (!result) return 'left to the transaction';
    const { id: _id, ...location } = result.location;
    return location;
  } catch (err) {
    if (err instanceof AppError) return `${err.status} ${err.code}`;
    throw err;
  }
}

const cases: { name: string; prepare?: (s: Scene) => Promise<void>; who: (s: Scene) => CreatedUser; tour: (s: Scene) => string; location: (s: Scene) => Location; expected: (s: Scene) => unknown }[] = [
  {
    name: 'a later position of the tour’s driver becomes current',
    who: (s) => s.driver,
    tour: (s) => s.tourId,
    location: () => ({ lat: 52.491, lng: 13.4, heading: 90, speed: 5, accuracy: 4, recorded_at: at(-30) }),
    expected: () => ({ lat: 52.491, lng: 13.4, heading: 90, speed: 5, accuracy: 4, recorded_at: at(-30), received_at: at(0), filtered: null, current: true }),
  },
  {
    name: 'the stored position again is a duplicate',
    who: (s) => s.driver,
    tour: (s) => s.tourId,
    location: (s) => s.first,
    expected: (s) => ({ ...s.first, heading: null, speed: null, accuracy: null, received_at: at(0), filtered: 'duplicate', current: false }),
  },
  {
    name: 'an older position is stored but does not become current',
    who: (s) => s.driver,
    tour: (s) => s.tourId,
    location: () => ({ lat: 52.489, lng: 13.4, recorded_at: at(-120) }),
    expected: () => ({ lat: 52.489, lng: 13.4, heading: null, speed: null, accuracy: null, recorded_at: at(-120), received_at: at(0), filtered: null, current: false }),
  },
  {
    name: 'a jump of 100 km in 10 s is filtered',
    who: (s) => s.driver,
    tour: (s) => s.tourId,
    location: () => ({ lat: 53.39, lng: 13.4, recorded_at: at(-50) }),
    expected: () => ({ lat: 53.39, lng: 13.4, heading: null, speed: null, accuracy: null, recorded_at: at(-50), received_at: at(0), filtered: 'jump', current: false }),
  },
  {
    name: 'a manager who sees the tour is not its driver (403)',
    who: (s) => s.manager,
    tour: (s) => s.tourId,
    location: () => ({ lat: 52.49, lng: 13.4, recorded_at: at(-10) }),
    expected: () => '403 forbidden',
  },
  {
    name: 'a colleague does not see a tour another driver holds (404)',
    who: (s) => s.colleague,
    tour: (s) => s.tourId,
    location: () => ({ lat: 52.49, lng: 13.4, recorded_at: at(-10) }),
    expected: () => '404 not_found',
  },
  {
    name: 'a cancelled tour keeps its driver but is not tracked (409)',
    prepare: async (s) => void (await expectOk(tenant.admin.post(`/api/hailing/tours/${s.tourId}/cancel`, {}))),
    who: (s) => s.driver,
    tour: (s) => s.tourId,
    location: () => ({ lat: 52.49, lng: 13.4, recorded_at: at(-10) }),
    expected: () => '409 tour_not_tracked',
  },
  {
    name: 'a tour that does not exist (404)',
    who: (s) => s.driver,
    tour: () => newId(),
    location: () => ({ lat: 52.49, lng: 13.4, recorded_at: at(-10) }),
    expected: () => '404 not_found',
  },
];

describe('a driver position: the fast path and the transaction answer alike', () => {
  it.each(cases)('$name', async (c) => {
    const answers: Record<string, unknown> = {};
    for (const [name, path] of Object.entries(paths)) {
      const s = await scene();
      await c.prepare?.(s);
      answers[name] = await answer(() => path(actorOf(c.who(s)), c.tour(s), c.location(s)));
      answers.expected = c.expected(s);
    }
    expect(answers.fast).toEqual(answers.locked);
    expect(answers.fast).toEqual(answers.expected);
  });
});
