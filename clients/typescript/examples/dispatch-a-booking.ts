// A small program against the typed client: create a booking, dispatch it into a tour (merge), send a driver on the
// way and read the failure options of the stop it is approaching. Type-checked by `npm run check`, run by a test.
import { createTourbookClient, type Schemas, type TourbookClient } from '../src/index.ts';

export interface Setup {
  baseUrl: string;
  dispatcherToken: string;
  driverToken: string;
  serviceId: string;
  driverId: string;
}

/** Fails loudly with the problem+json the API answered. */
function ok<T>(result: { data?: T; error?: Schemas['Problem'] | unknown }): T {
  if (result.data === undefined) throw new Error(`API error: ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function dispatchABooking(setup: Setup): Promise<{ booking: Schemas['Booking']; tour: Schemas['Tour']; options: Schemas['FailureOptions'] }> {
  const dispatcher: TourbookClient = createTourbookClient({ baseUrl: setup.baseUrl, token: setup.dispatcherToken });
  const driver = createTourbookClient({ baseUrl: setup.baseUrl, token: setup.driverToken });

  const { booking } = ok(
    await dispatcher.POST('/api/hailing/bookings', {
      params: { header: { 'Idempotency-Key': `example-${setup.serviceId}` } },
      body: {
        booking: {
          service_id: setup.serviceId,
          stops: [
            { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
            { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', city: 'Berlin' } },
          ],
          packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }],
        },
      },
    }),
  );

  const waiting = ok(await dispatcher.GET('/api/hailing/bookings', { params: { query: { filters: { status: ['to_be_dispatched'] }, limit: 10 } } }));
  if (!waiting.bookings.some((b) => b.id === booking.id)) throw new Error('the new booking is not listed as to_be_dispatched');

  const { tour } = ok(await dispatcher.POST('/api/hailing/bookings/merge', { body: { booking_ids: [booking.id] } }));
  ok(await dispatcher.POST('/api/hailing/tours/{id}/force_assign', { params: { path: { id: tour.id } }, body: { driver_id: setup.driverId, start: true } }));

  const first = booking.stops?.[0];
  if (!first) throw new Error('the booking has no stops');
  // A bodiless action: no body at all.
  ok(await driver.POST('/api/stops/{id}/approach', { params: { path: { id: first.id } } }));
  const { stop } = ok(await driver.GET('/api/stops/{id}', { params: { path: { id: first.id } } }));
  if (!stop.failure_options) throw new Error('an approaching stop carries failure_options for its driver');

  // The types know the closed sets: an outcome the API does not have does not compile.
  // @ts-expect-error -- 'explode' is not a FailureOutcome
  const wrong: Schemas['FailureOutcome'] = 'explode';
  void wrong;

  const { tour: current } = ok(await dispatcher.GET('/api/hailing/tours/{id}', { params: { path: { id: tour.id } } }));
  return { booking, tour: current, options: stop.failure_options };
}
