import { describe, expect, it } from 'vitest';
import { deriveBookingStatus, isFinalStop, isOpenBooking } from './booking-status.ts';
import type { BookingStatus, StopStatus } from '../tables.ts';

const stop = (status: StopStatus, tourId: string | null = status === 'to_be_dispatched' ? null : 'tour') => ({ status, tourId });

describe('booking status', () => {
  const cases: [string, BookingStatus | null, ReturnType<typeof stop>[], BookingStatus][] = [
    ['a new booking waits for dispatch', null, [stop('to_be_dispatched'), stop('to_be_dispatched')], 'to_be_dispatched'],
    ['some open stops on a tour: partially dispatched', 'to_be_dispatched', [stop('scheduled'), stop('to_be_dispatched')], 'partially_dispatched'],
    ['every open stop on a tour: dispatched', 'partially_dispatched', [stop('scheduled'), stop('arrived')], 'dispatched'],
    ['final stops do not count as open', 'dispatched', [stop('completed'), stop('to_be_dispatched')], 'to_be_dispatched'],
    ['every stop completed or failed: completed', 'dispatched', [stop('completed'), stop('failed')], 'completed'],
    ['a cancelled stop counts as reached: completed', 'dispatched', [stop('completed'), stop('cancelled')], 'completed'],
    ['a cancelled stop is not open: the open one on a tour makes it dispatched', 'partially_dispatched', [stop('cancelled', null), stop('scheduled')], 'dispatched'],
    ['a booking without stops waits for dispatch', null, [], 'to_be_dispatched'],
    ['a failed stop with a pending recovery stop keeps it active', 'dispatched', [stop('completed'), stop('failed'), stop('to_be_dispatched')], 'to_be_dispatched'],
    ['a completed booking never becomes dispatchable again', 'completed', [stop('completed'), stop('to_be_dispatched')], 'completed'],
    ['a cancelled booking stays cancelled', 'cancelled', [stop('cancelled')], 'cancelled'],
  ];
  it.each(cases)('%s', (_name, current, stops, expected) => {
    expect(deriveBookingStatus(current, stops)).toBe(expected);
  });
});

describe('final stop statuses', () => {
  it.each([
    ['to_be_dispatched', false],
    ['scheduled', false],
    ['approaching', false],
    ['arrived', false],
    ['completed', true],
    ['failed', true],
    ['cancelled', true],
  ] as [StopStatus, boolean][])('%s is final: %s', (status, final) => {
    expect(isFinalStop(status)).toBe(final);
  });
});

describe('open bookings', () => {
  it.each([
    ['to_be_dispatched', true],
    ['partially_dispatched', true],
    ['dispatched', true],
    ['completed', false],
    ['cancelled', false],
  ] as [BookingStatus, boolean][])('a %s booking takes changes: %s', (status, open) => {
    // The 409 the operations answer for a closed booking is pinned by stops.test.ts (a new stop on a cancelled booking).
    expect(isOpenBooking({ status })).toBe(open);
  });
});
