// Tip distribution through the HTTP API (docs/api-guide.md "Tour compensation, tips and legacy earnings"): tour completion, tip changes, a later tour, currency
// mismatch (paused, admins e-mailed once through the real SMTP peer), resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../test/app.ts';
import { createBooking, createOrganization, createService, createUser, driveStop, expectOk, mergeIntoTour, type CreatedUser } from '../../../test/factories.ts';
import { startSmtpPeer, type SmtpPeer } from '../../../test/smtp-peer.ts';
import { createWorker, type Worker } from '../../worker/loop.ts';

let t: TestApp;
let smtp: SmtpPeer;
let worker: Worker;
let tenant: TestTenant;
let orgId: string;
let tipping: { id: string };
let noop: { id: string };

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await buildTestApp({ smtpUrl: smtp.url });
  worker = createWorker(t.deps);
  tenant = await t.createTenant();
  orgId = (await createOrganization(tenant.admin)).id;
  tipping = await createService(tenant.admin, { tip_distribution_strategy: 'completed_dropoffs_on_tour' });
  noop = await createService(tenant.admin);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const newDriver = (): Promise<CreatedUser> => createUser(tenant.admin, { role: 'driver', organization_ids: [orgId] });
const tipDistribution = async (bookingId: string) => (await expectOk(tenant.admin.get(`/api/hailing/bookings/${bookingId}`))).booking.tip_distribution;
const compensation = async (tourId: string) => (await expectOk(tenant.admin.get(`/api/tours/${tourId}/compensation`))).compensation;
const eur = (amount: number) => ({ amount, currency: 'EUR' });
/** Messages as received, with folded header lines and soft line breaks undone. */
const pauseMails = (tourId: string) =>
  smtp.messages.map((m) => ({ ...m, raw: m.raw.replace(/\r\n[ \t]+/g, ' ').replace(/=\r\n/g, '') })).filter((m) => m.raw.includes(`Subject: Tip distribution paused for tour ${tourId}`));

/** A driver takes the tour and drives every stop to `completed` (or fails the listed ones): the tour completes. */
async function driveTour(tourId: string, options: { fail?: string[] } = {}) {
  const d = await newDriver();
  await expectOk(tenant.admin.post(`/api/hailing/tours/${tourId}/force_assign`, { driver_id: d.id, start: true }));
  const { tour } = await expectOk(tenant.admin.get(`/api/hailing/tours/${tourId}`));
  for (const stop of tour.stops) {
    if (options.fail?.includes(stop.id)) {
      await driveStop(d.client, stop.id, 'arrived');
      await expectOk(d.client.post(`/api/stops/${stop.id}/fail`, { outcome: 'skip_recovery', reason_key: 'customer_absent' }));
    } else {
      await driveStop(d.client, stop.id, 'completed');
    }
  }
  return d;
}

async function tippedTour(serviceId: string, tip: { amount: number; currency: string } | null) {
  const booking = await createBooking(tenant.admin, { service_id: serviceId, managing_organization_ids: [orgId], tip, packages: [] });
  const tour = await mergeIntoTour(tenant.admin, [booking.id]);
  return { booking, tour };
}

describe('tip distribution (completed_dropoffs_on_tour)', () => {
  it('awards a booking’s tip to the tour its drop-offs were completed on when the tour completes, as the system', async () => {
    const { booking, tour } = await tippedTour(tipping.id, eur(300));
    expect(booking.tip_distribution).toEqual({ tour_id: null, status: 'pending', reason: 'dropoffs_unresolved' });
    await expectOk(tenant.admin.put(`/api/tours/${tour.id}/compensation/base`, eur(4000)));
    await driveTour(tour.id);
    await worker.drain();
    expect(await tipDistribution(booking.id)).toEqual({ tour_id: tour.id, status: 'awarded', reason: 'completed_dropoffs_on_tour' });
    expect(await compensation(tour.id)).toMatchObject({ total_amount: 4300, breakdown: { tips: { amount: 300 } }, tip_distribution: { status: 'active' } });
    const { history } = await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation/history`));
    expect(history.at(-1)).toMatchObject({ actor_id: null, component: 'tips', key: null, from: { amount: 0, label: null }, to: { amount: 300, label: null } });
    // Idempotent: evaluating again changes nothing.
    await expectOk(tenant.admin.post(`/api/tours/${tour.id}/compensation/tips/resume`));
    expect((await compensation(tour.id)).total_amount).toBe(4300);
    expect((await expectOk(tenant.admin.get(`/api/tours/${tour.id}/compensation/history`))).history).toHaveLength(history.length);
  });

  it('changes nothing for a noop service', async () => {
    const { booking, tour } = await tippedTour(noop.id, eur(300));
    await driveTour(tour.id);
    await worker.drain();
    expect(await tipDistribution(booking.id)).toEqual({ tour_id: tour.id, status: 'not_eligible', reason: 'distribution_off' });
    expect((await compensation(tour.id)).breakdown.tips.amount).toBe(0);
  });

  it('re-evaluates when the tip of a booking on a completed tour changes', async () => {
    const { booking, tour } = await tippedTour(tipping.id, eur(300));
    await driveTour(tour.id);
    await worker.drain();
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: eur(550) }));
    await worker.drain();
    expect((await compensation(tour.id)).breakdown.tips.amount).toBe(550);
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: null }));
    await worker.drain();
    expect((await compensation(tour.id)).total_amount).toBe(0);
    expect(await tipDistribution(booking.id)).toEqual({ tour_id: null, status: 'not_eligible', reason: 'no_tip' });
  });

  it('awards nothing when the completed drop-offs are split across tours', async () => {
    const booking = await createBooking(tenant.admin, {
      service_id: tipping.id,
      tip: eur(300),
      packages: [],
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'A', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'B', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.52, lng: 13.42 }, address: { street: 'C', city: 'Berlin' } },
      ],
    });
    const [pickup, first, second] = booking.stops;
    const t1 = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [pickup.id, first.id] }), 201)).tour;
    const t2 = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [second.id] }), 201)).tour;
    await driveTour(t1.id);
    await driveTour(t2.id);
    await worker.drain();
    expect((await compensation(t1.id)).breakdown.tips.amount).toBe(0);
    expect((await compensation(t2.id)).breakdown.tips.amount).toBe(0);
    expect(await tipDistribution(booking.id)).toEqual({ tour_id: null, status: 'not_eligible', reason: 'dropoffs_split_across_tours' });
  });

  it('awards the tip to the first tour once the booking’s last drop-off fails on a later tour', async () => {
    const booking = await createBooking(tenant.admin, {
      service_id: tipping.id,
      tip: eur(120),
      packages: [],
      stops: [
        { type: 'pickup', location: { lat: 52.5, lng: 13.4 }, address: { street: 'A', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.51, lng: 13.41 }, address: { street: 'B', city: 'Berlin' } },
        { type: 'dropoff', location: { lat: 52.52, lng: 13.42 }, address: { street: 'C', city: 'Berlin' } },
      ],
    });
    const [pickup, first, second] = booking.stops;
    const t1 = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [pickup.id, first.id] }), 201)).tour;
    const t2 = (await expectOk(tenant.admin.post('/api/hailing/bookings/merge', { stop_ids: [second.id] }), 201)).tour;
    await driveTour(t1.id);
    await worker.drain();
    expect((await compensation(t1.id)).breakdown.tips.amount).toBe(0);
    expect(await tipDistribution(booking.id)).toMatchObject({ status: 'pending', reason: 'dropoffs_unresolved' });
    await driveTour(t2.id, { fail: [second.id] });
    await worker.drain();
    expect((await compensation(t1.id)).breakdown.tips.amount).toBe(120);
    expect((await compensation(t2.id)).breakdown.tips.amount).toBe(0);
  });

  it('pauses a tour on a tip in another currency, e-mails every admin once, and resumes once the tip is corrected', async () => {
    const secondAdmin = await createUser(tenant.admin, { role: 'admin' });
    const { booking, tour } = await tippedTour(tipping.id, { amount: 500, currency: 'USD' });
    const other = await tippedTour(tipping.id, eur(200));
    await driveTour(tour.id);
    await driveTour(other.tour.id);
    await worker.drain();
    expect(await compensation(tour.id)).toMatchObject({ breakdown: { tips: { amount: 0 } }, tip_distribution: { status: 'paused', paused_reason: 'currency_mismatch' } });
    expect((await compensation(other.tour.id)).tip_distribution.status).toBe('active');
    expect(await tipDistribution(booking.id)).toEqual({ tour_id: tour.id, status: 'paused', reason: 'currency_mismatch' });
    await worker.drain();
    const mails = pauseMails(tour.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to.sort()).toEqual([secondAdmin.user.email, (await expectOk(tenant.admin.get('/api/user'))).user.email].sort());
    expect(mails[0]!.raw).toContain(booking.id);
    expect(mails[0]!.raw).toContain(`/api/tours/${tour.id}/compensation`);

    // Still wrong: resuming keeps it paused and sends no second mail.
    expect((await expectOk(tenant.admin.post(`/api/tours/${tour.id}/compensation/tips/resume`))).compensation.tip_distribution.status).toBe('paused');
    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: { amount: 450, currency: 'USD' } }));
    await worker.drain();
    expect(pauseMails(tour.id)).toHaveLength(1);

    await expectOk(tenant.admin.put(`/api/hailing/bookings/${booking.id}/tip`, { tip: eur(450) }));
    const resumed = await expectOk(tenant.admin.post(`/api/tours/${tour.id}/compensation/tips/resume`));
    expect(resumed.compensation).toMatchObject({ total_amount: 450, tip_distribution: { status: 'active', paused_reason: null } });
  });
});
