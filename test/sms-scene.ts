// The SMS tests' scene (src/modules/tracking/sms*.test.ts, sender.test.ts): a tenant whose Berlin area tells its
// recipients, one booking whose drop-off's contact has a phone number, on a tour a driver has started.
import type { TestApp } from './app.ts';
import { createBooking, createService, createServiceArea, createUser, expectOk, tourEnRoute } from './factories.ts';

/** Fresh valid German mobile numbers, one series per test file (a reply names only the number): `+49<prefix>…`. */
export function phoneNumbers(prefix: string, start: number): () => string {
  let n = 0;
  return () => `+49${prefix}${String(start + (process.pid % 1000) * 10_000 + ++n).padStart(8, '0')}`;
}

export interface RecipientContact {
  phone_number: string;
  name?: string;
  email?: string;
  locale?: 'en' | 'de';
}

export async function smsScene(t: TestApp, contact: RecipientContact, moments: string[] = ['dispatched', 'on_its_way'], area: Record<string, unknown> = {}) {
  const tn = await t.createTenant();
  const serviceArea = await createServiceArea(tn.admin, { time_zone: 'Europe/Berlin', recipient_notifications: moments, ...area });
  const service = await createService(tn.admin, { service_area_id: serviceArea.id });
  const booking = await createBooking(tn.admin, {
    service_id: service.id,
    stops: [
      { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'Chausseestraße', number: '1', city: 'Berlin' } },
      { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'Torstraße', number: '2', zip_code: '10119', city: 'Berlin' }, contact: { name: 'Ada Lovelace', ...contact } },
    ],
  });
  const driver = await createUser(tn.admin, { role: 'driver', name: 'Erika Mustermann' });
  const tour = await tourEnRoute(tn.admin, [booking.id], driver.id);
  const trackingUrl = (await expectOk(tn.admin.get(`/api/hailing/bookings/${booking.id}`))).booking.tracking.url as string;
  const [pickup, dropoff] = booking.stops as { id: string }[];
  return { tn, booking, driver, tour, phone: contact.phone_number, pickup: pickup!, dropoff: dropoff!, trackingUrl };
}
