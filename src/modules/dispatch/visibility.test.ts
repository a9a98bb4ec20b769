import { describe, expect, it } from 'vitest';
import { bookingOrganizations, canSeeBooking, canSeeTour, isEligibleDriver, seesBookingWithoutTours, tourOrganizations, type TourFacts } from './visibility.ts';

const ORG_A = 'org-a';
const ORG_B = 'org-b';
const ORG_C = 'org-c';
const admin = { role: 'admin' as const, userId: 'admin', organizationIds: [] };
const managerA = { role: 'manager' as const, userId: 'manager-a', organizationIds: [ORG_A] };
const managerB = { role: 'manager' as const, userId: 'manager-b', organizationIds: [ORG_B] };
const managerC = { role: 'manager' as const, userId: 'manager-c', organizationIds: [ORG_C] };
const driverA = { role: 'driver' as const, userId: 'driver-a', organizationIds: [ORG_A] };
const driverB = { role: 'driver' as const, userId: 'driver-b', organizationIds: [ORG_B] };
const customer = { role: 'customer' as const, userId: 'customer', organizationIds: [] };

const waiting = (overrides: Partial<TourFacts> = {}): TourFacts => ({
  status: 'scheduled',
  driverId: null,
  executingOrganizationId: null,
  managingOrganizationIds: [ORG_A, ORG_C],
  preferredDriverIds: [],
  ...overrides,
});
const heldByB = (status: TourFacts['status']): TourFacts => waiting({ status, driverId: driverB.userId, executingOrganizationId: ORG_B });

describe('tour visibility', () => {
  const cases: [string, TourFacts, typeof admin | typeof managerA | typeof driverA | typeof customer, boolean][] = [
    ['admins see every tour', heldByB('en_route'), admin, true],
    ['customers never see tours', waiting(), customer, false],
    ['managing organizations see a waiting tour', waiting(), managerA, true],
    ['other organizations do not see a waiting tour', waiting(), managerB, false],
    ['a claimed tour is the claiming driver organization’s alone', heldByB('claimed'), managerB, true],
    ['managing organizations lose a claimed tour of another organization’s driver', heldByB('claimed'), managerA, false],
    ['a picked tour is the picking driver organization’s alone', heldByB('en_route'), managerC, false],
    ['a completed tour stays with the executing organization', heldByB('completed'), managerB, true],
    ['a completed tour stays hidden from managing organizations', heldByB('completed'), managerA, false],
    ['a cancelled tour with a driver stays with the executing organization', heldByB('cancelled'), managerB, true],
    ['after the driver leaves, managing organizations see it again', waiting({ status: 'pickable' }), managerA, true],
    ['no manager sees a tour without managing organizations', waiting({ managingOrganizationIds: [] }), managerA, false],
    ['drivers of any organization see a waiting tour without managing organizations', waiting({ managingOrganizationIds: [] }), driverB, true],
    ['a driver of a managing organization sees a scheduled tour', waiting(), driverA, true],
    ['a driver of another organization does not see a scheduled tour', waiting(), driverB, false],
    ['a driver not preferred does not see a tour with preferred drivers', waiting({ preferredDriverIds: ['someone'] }), driverA, false],
    ['a preferred driver sees the tour', waiting({ preferredDriverIds: [driverA.userId] }), driverA, true],
    ['an eligible driver does not see an unreleased tour', waiting({ status: 'to_be_dispatched' }), driverA, false],
    ['an eligible driver does not see a tour another driver holds', waiting({ status: 'claimed', driverId: 'x', executingOrganizationId: ORG_A }), driverA, false],
    ['the tour’s driver sees it in history', heldByB('completed'), driverB, true],
    ['an eligible driver sees a pickable tour', waiting({ status: 'pickable' }), driverA, true],
    ['an eligible driver does not see a cancelled tour without a driver', waiting({ status: 'cancelled' }), driverA, false],
  ];
  it.each(cases)('%s', (_name, tour, viewer, expected) => {
    expect(canSeeTour(viewer, tour)).toBe(expected);
  });

  it('explains why organizations see a tour', () => {
    expect(tourOrganizations(heldByB('en_route'))).toEqual({ organizationIds: [ORG_B], reason: 'executing_driver' });
    expect(tourOrganizations(waiting())).toEqual({ organizationIds: [ORG_A, ORG_C], reason: 'managing_organization' });
    expect(tourOrganizations(waiting({ managingOrganizationIds: [] }))).toEqual({ organizationIds: [], reason: 'no_managing_organizations' });
  });
});

describe('booking visibility', () => {
  const booking = (tours: TourFacts[], managing = [ORG_A, ORG_C]) => ({ customerId: customer.userId, managingOrganizationIds: managing, tours });

  const cases: [string, ReturnType<typeof booking>, typeof admin | typeof managerA | typeof driverA | typeof customer, boolean][] = [
    ['the booking’s customer sees it', booking([]), customer, true],
    ['another customer does not', booking([]), { ...customer, userId: 'other' }, false],
    ['managing organizations see an undispatched booking', booking([]), managerA, true],
    ['managing organizations see a booking on a waiting tour', booking([waiting()]), managerC, true],
    ['only the executing organization sees a booking on a claimed tour', booking([heldByB('claimed')]), managerA, false],
    ['the executing organization sees it', booking([heldByB('en_route')]), managerB, true],
    ['a split booking is seen by every executing organization', booking([heldByB('en_route'), waiting({ status: 'en_route', driverId: 'd', executingOrganizationId: ORG_C })]), managerC, true],
    ['a split booking with one executing tour is not seen by managing organizations', booking([heldByB('en_route'), waiting()]), managerA, false],
    ['no manager sees a booking without managing organizations', booking([], []), managerA, false],
    ['the executing driver sees the booking', booking([heldByB('en_route')]), driverB, true],
    ['a driver not executing it does not', booking([waiting()]), driverA, false],
    // Split across tours: driving any one of them is enough (a check of every tour would hide it).
    ['the driver of one tour of a split booking sees it', booking([heldByB('en_route'), waiting({ status: 'claimed', driverId: 'driver-c', executingOrganizationId: ORG_C })]), driverB, true],
    ['the driver of one tour of a split booking with an undriven part sees it', booking([waiting(), heldByB('en_route')]), driverB, true],
    ['a driver of a split booking’s organization who drives none of it does not', booking([heldByB('en_route'), waiting()]), { ...driverB, userId: 'driver-b2' }, false],
    ['admins see every booking', booking([heldByB('en_route')], []), admin, true],
  ];
  it.each(cases)('%s', (_name, facts, viewer, expected) => {
    expect(canSeeBooking(viewer, facts)).toBe(expected);
  });

  it('names each executing organization once and ignores tours nobody executes', () => {
    const twiceB = booking([heldByB('en_route'), heldByB('claimed'), waiting()]);
    expect(bookingOrganizations(twiceB)).toEqual({ organizationIds: [ORG_B], reason: 'executing_driver' });
  });

  it('gives a booking on no executed tour to its managing organizations, else to nobody', () => {
    expect(bookingOrganizations(booking([waiting()]))).toEqual({ organizationIds: [ORG_A, ORG_C], reason: 'managing_organization' });
    expect(bookingOrganizations(booking([], []))).toEqual({ organizationIds: [], reason: 'no_managing_organizations' });
  });

  it('lists every executing organization of a split booking', () => {
    const facts = booking([heldByB('en_route'), waiting({ status: 'completed', driverId: 'd', executingOrganizationId: ORG_A })]);
    expect(bookingOrganizations(facts)).toEqual({ organizationIds: [ORG_A, ORG_B], reason: 'executing_driver' });
  });
});

describe('driver eligibility', () => {
  const cases: [string, TourFacts, typeof admin | typeof managerA | typeof driverA | typeof customer, boolean][] = [
    ['a driver of a managing organization', waiting(), driverA, true],
    ['a driver of another organization', waiting(), driverB, false],
    ['any driver for a tour without managing organizations', waiting({ managingOrganizationIds: [] }), driverB, true],
    ['a preferred driver', waiting({ preferredDriverIds: [driverA.userId, 'other'] }), driverA, true],
    ['a driver not preferred', waiting({ preferredDriverIds: ['other'] }), driverA, false],
    // The role decides first: a manager of the managing organization is never an eligible driver (404, not 403).
    ['a manager of a managing organization', waiting(), managerA, false],
    ['a manager for a tour without managing organizations', waiting({ managingOrganizationIds: [] }), managerA, false],
    ['an admin', waiting({ managingOrganizationIds: [] }), admin, false],
    ['a customer', waiting({ managingOrganizationIds: [] }), customer, false],
  ];
  it.each(cases)('%s: %s', (_name, tour, viewer, expected) => {
    expect(isEligibleDriver(viewer, tour)).toBe(expected);
  });
});

describe('booking visibility without its tours', () => {
  it.each([
    ['admins', admin, 'customer', true],
    ['the booking’s customer', customer, 'customer', true],
    ['another customer', customer, 'someone-else', false],
    ['managers need the tours', managerA, 'customer', null],
    ['drivers need the tours', driverA, 'customer', null],
  ] as const)('%s: %s', (_name, viewer, customerId, expected) => {
    expect(seesBookingWithoutTours(viewer, { customerId })).toBe(expected);
  });
});
