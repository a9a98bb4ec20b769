// Properties of visibility (fast-check): admins see everything, customers no tour, drivers only their own or takeable tours.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOUR_STATUSES } from './tours/index.ts';
import { bookingOrganizations, canSeeBooking, canSeeTour, tourOrganizations, type BookingFacts, type TourFacts } from './visibility.ts';

type UserRole = 'admin' | 'manager' | 'driver' | 'customer';
const ids = fc.constantFrom<string>('a', 'b', 'c', 'd');
const tour: fc.Arbitrary<TourFacts> = fc.record({
  status: fc.constantFrom(...TOUR_STATUSES),
  driverId: fc.option(ids, { nil: null }),
  executingOrganizationId: fc.option(ids, { nil: null }),
  managingOrganizationIds: fc.uniqueArray(ids, { maxLength: 3 }),
  preferredDriverIds: fc.uniqueArray(ids, { maxLength: 3 }),
});
const booking: fc.Arbitrary<BookingFacts> = fc.record({
  customerId: fc.option(ids, { nil: null }),
  managingOrganizationIds: fc.uniqueArray(ids, { maxLength: 3 }),
  tours: fc.array(tour, { maxLength: 3 }),
});
const viewer = fc.record({ role: fc.constantFrom<UserRole>('admin', 'manager', 'driver', 'customer'), userId: ids, organizationIds: fc.uniqueArray(ids, { maxLength: 3 }) });

describe('visibility properties', () => {
  it('admins see every tour and booking; customers no tour, and only their own bookings', () => {
    fc.assert(
      fc.property(viewer, tour, booking, (v, t, b) => {
        if (v.role === 'admin') expect(canSeeTour(v, t) && canSeeBooking(v, b)).toBe(true);
        if (v.role === 'customer') {
          expect(canSeeTour(v, t)).toBe(false);
          expect(canSeeBooking(v, b)).toBe(b.customerId === v.userId);
        }
      }),
    );
  });

  it('shows a driver its own tours, and someone else’s or a waiting to_be_dispatched tour never', () => {
    fc.assert(
      fc.property(viewer, tour, (v, t) => {
        fc.pre(v.role === 'driver');
        const sees = canSeeTour(v, t);
        if (t.driverId === v.userId) expect(sees).toBe(true);
        if (t.driverId !== null && t.driverId !== v.userId) expect(sees).toBe(false);
        if (t.driverId !== v.userId && t.status === 'to_be_dispatched') expect(sees).toBe(false);
      }),
    );
  });

  it('shows a manager exactly the tours and bookings of the organizations that see them', () => {
    fc.assert(
      fc.property(viewer, tour, booking, (v, t, b) => {
        fc.pre(v.role === 'manager');
        expect(canSeeTour(v, t)).toBe(tourOrganizations(t).organizationIds.some((id) => v.organizationIds.includes(id)));
        expect(canSeeBooking(v, b)).toBe(bookingOrganizations(b).organizationIds.some((id) => v.organizationIds.includes(id)));
      }),
    );
  });

  it('gives an executed tour to its executing organization alone', () => {
    fc.assert(
      fc.property(tour, (t) => {
        fc.pre(t.executingOrganizationId !== null);
        expect(tourOrganizations(t)).toEqual({ organizationIds: [t.executingOrganizationId], reason: 'executing_driver' });
      }),
    );
  });
});
