// Properties of the derived booking status (fast-check): terminal stays terminal, order does not matter.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveBookingStatus } from './booking-status.ts';
import type { BookingStatus, StopStatus } from '../tables.ts';

const STOP_STATUSES: StopStatus[] = ['scheduled', 'approaching', 'arrived', 'completed', 'failed', 'cancelled'];
const BOOKING_STATUSES: BookingStatus[] = ['to_be_dispatched', 'partially_dispatched', 'dispatched', 'completed', 'cancelled'];
const stop = fc.record({ status: fc.constantFrom(...STOP_STATUSES), tourId: fc.option(fc.constantFrom('t1', 't2'), { nil: null }) });
/** The oracle's own list (docs/api-guide.md "Bookings, stops and tours"): never the code's, so a status dropped there shows up here. */
const FINAL: ReadonlySet<StopStatus> = new Set(['completed', 'failed', 'cancelled']);
const current = fc.option(fc.constantFrom(...BOOKING_STATUSES), { nil: null });

describe('booking status properties', () => {
  it('keeps completed and cancelled whatever the stops', () => {
    fc.assert(
      fc.property(fc.constantFrom<BookingStatus>('completed', 'cancelled'), fc.array(stop, { maxLength: 8 }), (terminal, stops) => {
        expect(deriveBookingStatus(terminal, stops)).toBe(terminal);
      }),
    );
  });

  it('does not depend on the order of the stops', () => {
    fc.assert(
      fc.property(current, fc.array(stop, { maxLength: 8 }).chain((stops) => fc.tuple(fc.constant(stops), fc.shuffledSubarray(stops, { minLength: stops.length, maxLength: stops.length }))), (c, [stops, shuffled]) => {
        expect(deriveBookingStatus(c, shuffled)).toBe(deriveBookingStatus(c, stops));
      }),
    );
  });

  it('is completed exactly when every stop reached an outcome, else follows how many open stops are on tours', () => {
    fc.assert(
      fc.property(current, fc.array(stop, { minLength: 1, maxLength: 8 }), (c, stops) => {
        fc.pre(c !== 'completed' && c !== 'cancelled');
        const status = deriveBookingStatus(c, stops);
        const open = stops.filter((s) => !FINAL.has(s.status));
        const onTours = open.filter((s) => s.tourId !== null).length;
        if (!open.length) expect(status).toBe('completed');
        else if (onTours === 0) expect(status).toBe('to_be_dispatched');
        else expect(status).toBe(onTours === open.length ? 'dispatched' : 'partially_dispatched');
      }),
    );
  });
});
