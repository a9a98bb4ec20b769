import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestTenant } from '../../../../test/app.ts';
import { AppError } from '../../../http/errors.ts';
import { newId } from '../../../shared/ids.ts';
import { writeNewBooking } from '../bookings/create-booking.ts';
import { findBookingWithChildren, type NewBooking } from '../bookings/index.ts';
import type { PackageRow } from './repository.ts';
import { createBooking, createOrganization, createService, createUser, eventsOf, expectOk, mergeIntoTour, type CreatedUser } from '../../../../test/factories.ts';
import { pngImage } from '../../../../test/proof-images.ts';

/** A signature as a signature pad sends it: a PNG, base64 (decision 1250). */
const SIGNATURE = pngImage(2, 1, [0, 0, 0]).toString('base64');

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

let tenant: TestTenant;
let serviceId: string;
let manager: CreatedUser;
let driver: CreatedUser;
beforeAll(async () => {
  tenant = await t.createTenant();
  const org = await createOrganization(tenant.admin);
  manager = await createUser(tenant.admin, { role: 'manager', organization_ids: [org.id] });
  driver = await createUser(tenant.admin, { role: 'driver', organization_ids: [org.id] });
  serviceId = (await createService(tenant.admin, { force_delivery_proof: ['signature', 'recipient_name'] })).id;
});

describe('packages', () => {
  it('finds a package by shortcode (any case) or external label, with permissions.removable', async () => {
    const booking = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'DHL-1' }] });
    const pkg = booking.packages[0];
    const byCode = await expectOk(manager.client.post('/api/hailing/packages/lookup', { shortcode: pkg.shortcode.toLowerCase() }));
    expect(byCode.package).toMatchObject({ id: pkg.id, external_label: 'DHL-1', permissions: { removable: false } });
    expect(byCode.package).not.toHaveProperty('removable_from_dropoff_tour');
    await mergeIntoTour(manager.client, [booking.id]);
    const byLabel = await expectOk(manager.client.post('/api/hailing/packages/lookup', { external_label: 'DHL-1' }));
    expect(byLabel.package.permissions).toEqual({ removable: true });
    const asDriver = await driver.client.post('/api/hailing/packages/lookup', { external_label: 'DHL-1' });
    expect(asDriver.status).toBe(404);
    expect((await manager.client.post('/api/hailing/packages/lookup', { shortcode: 'ZZZZZZZZ' })).status).toBe(404);
  });

  it('keeps external labels unique among open packages only', async () => {
    const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'UPS-7' }] });
    const clash = await manager.client.post('/api/hailing/bookings', {
      booking: { service_id: serviceId, stops: first.stops.map((s: { type: string; location: unknown; address: { street: string; city: string } }) => ({ type: s.type, location: s.location, address: { street: s.address.street, city: s.address.city } })), packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'UPS-7' }] },
    });
    expect(clash.status).toBe(422);
    expect(clash.body.errors[0]).toMatchObject({ pointer: '/booking/packages/0/external_label', code: 'taken' });
    await expectOk(manager.client.post(`/api/hailing/packages/${first.packages[0].id}/transition`, { event: 'cancel' }));
    await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'UPS-7' }] });
  });

  it('removes a package’s stops from their tour and records it in the history', async () => {
    const booking = await createBooking(manager.client, { service_id: serviceId });
    const tour = await mergeIntoTour(manager.client, [booking.id]);
    const removed = await expectOk(manager.client.post(`/api/hailing/packages/${booking.packages[0].id}/remove_from_tour`));
    expect(removed.package.history.map((h: { event: string; tour_id: string | null }) => [h.event, h.tour_id])).toEqual([
      ['created', null],
      ['removed_from_tour', tour.id],
      ['removed_from_tour', tour.id],
    ]);
    const after = await expectOk(manager.client.get(`/api/hailing/bookings/${booking.id}`));
    expect(after.booking.status).toBe('to_be_dispatched');
    expect((await manager.client.post(`/api/hailing/packages/${booking.packages[0].id}/remove_from_tour`)).status).toBe(409);
  });

  it('forces a delivery only with the proof the service requires, naming what is missing', async () => {
    const booking = await createBooking(manager.client, { service_id: serviceId });
    const id = booking.packages[0].id;
    const missing = await manager.client.post(`/api/hailing/packages/${id}/force_delivery`, { proof: { signature: SIGNATURE } });
    expect(missing.status).toBe(422);
    expect(missing.body.error_code).toBe('proof_required');
    expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: '/proof/recipient_name' })]);
    expect((await expectOk(manager.client.get(`/api/hailing/bookings/${booking.id}`))).booking.packages[0].status).toBe('created');
    const done = await expectOk(manager.client.post(`/api/hailing/packages/${id}/force_delivery`, { proof: { signature: SIGNATURE, recipient_name: 'Ada' } }));
    expect(done.package).toMatchObject({ status: 'delivered', forced_delivery: { by_user_id: manager.id, proof: { signature: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), signature_url: `/api/hailing/packages/${id}/proof/signature`, recipient_name: 'Ada' } } });
    expect(done.package.history.at(-1).event).toBe('force_delivered');
    const again = await manager.client.post(`/api/hailing/packages/${id}/force_delivery`, { proof: { signature: SIGNATURE, recipient_name: 'Ada' } });
    expect(again.status).toBe(409);
    expect((await eventsOf(tenant.admin, booking.id, 'booking.modified')).length).toBe(1);
  });

  it('announces and cancels through the generic transition, which no longer knows force_delivery', async () => {
    const booking = await createBooking(manager.client, { service_id: serviceId });
    const id = booking.packages[0].id;
    const removed = await manager.client.post(`/api/hailing/packages/${id}/transition`, { event: 'force_delivery' });
    expect(removed.status).toBe(422);
    expect(removed.body).toMatchObject({ error_code: 'transition_removed', successor: `/api/hailing/packages/${id}/force_delivery` });
    expect((await expectOk(manager.client.post(`/api/hailing/packages/${id}/transition`, { event: 'announce' }))).package.status).toBe('awaiting_pickup');
    expect((await expectOk(manager.client.post(`/api/hailing/packages/${id}/transition`, { event: 'cancel' }))).package.status).toBe('cancelled');
    expect((await manager.client.post(`/api/hailing/packages/${id}/transition`, { event: 'announce' })).status).toBe(409);
    expect((await manager.client.post(`/api/hailing/packages/${id}/transition`, { event: 'teleport' })).status).toBe(422);
  });

  describe('a create racing another for a unique value', () => {
    // The write is one statement whose unique indexes decide: these drive it with a value another package holds.
    const copyOf = async (bookingId: string, pkg: Partial<PackageRow>): Promise<NewBooking> => {
      const found = (await findBookingWithChildren(t.deps.db, tenant.tenantId, bookingId))!;
      const id = newId();
      const stops = found.children.stops.map((s) => ({ ...s, id: newId(), bookingId: id }));
      const packages = found.children.packages.map((p) => ({ ...p, id: newId(), bookingId: id, pickupStopId: stops[0]!.id, dropoffStopId: stops[1]!.id, ...pkg }));
      const history = packages.map((p) => ({ ...found.children.history[0]!, id: newId(), packageId: p.id }));
      return { booking: { ...found.booking, id }, stops, packages, history, visibleTo: [] };
    };

    it('draws a taken shortcode again and writes the booking whole', async () => {
      const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] });
      const copy = await copyOf(first.id, { shortcode: first.packages[0].shortcode });
      await writeNewBooking(t.deps.db, copy, []);
      const stored = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${copy.booking.id}`))).booking;
      expect(stored.stops).toHaveLength(2);
      expect(stored.packages).toHaveLength(1);
      expect(stored.packages[0].shortcode).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
      expect(stored.packages[0].shortcode).not.toBe(first.packages[0].shortcode);
    });

    it('draws again inside a transaction too (auto-dispatch creates in one), which stays usable', async () => {
      const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] });
      const copy = await copyOf(first.id, { shortcode: first.packages[0].shortcode });
      await t.deps.db.transaction(async (tx) => {
        await writeNewBooking(tx, copy, []);
        await findBookingWithChildren(tx, tenant.tenantId, copy.booking.id);
      });
      const stored = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${copy.booking.id}`))).booking;
      expect(stored.packages[0].shortcode).not.toBe(first.packages[0].shortcode);
    });

    it('answers 422 taken for an external label an open package took meanwhile, and writes nothing', async () => {
      const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'RACE-1' }] });
      const copy = await copyOf(first.id, { externalLabel: 'RACE-1', shortcode: 'RACE0001' });
      const failure = await writeNewBooking(t.deps.db, copy, [], [{ external_label: 'RACE-1' }]).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ status: 422, errors: [{ pointer: '/booking/packages/0/external_label', code: 'taken' }] });
      expect((await tenant.admin.get(`/api/hailing/bookings/${copy.booking.id}`)).status).toBe(404);
    });

    it('writes creates started together as one statement, each booking whole', async () => {
      const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1 }] });
      const copies = await Promise.all([1, 2, 3, 4].map((i) => copyOf(first.id, { shortcode: `TGTHR00${i}` })));
      await Promise.all(copies.map((copy) => writeNewBooking(t.deps.db, copy, [])));
      for (const copy of copies) {
        const stored = (await expectOk(tenant.admin.get(`/api/hailing/bookings/${copy.booking.id}`))).booking;
        expect(stored.stops.map((s: { id: string }) => s.id)).toEqual(copy.stops.map((s) => s.id));
        expect(stored.packages.map((p: { shortcode: string }) => p.shortcode)).toEqual([copy.packages[0]!.shortcode]);
      }
      // One statement is one transaction: every row carries the same creating transaction id.
      expect(await creatingTransactions(copies.map((c) => c.booking.id))).toBe(1);
    });

    it('fails only the create a unique index refuses when several are written together', async () => {
      const first = await createBooking(manager.client, { service_id: serviceId, packages: [{ pickup_stop_index: 0, dropoff_stop_index: 1, external_label: 'BATCH-1' }] });
      const good = await Promise.all([1, 2, 3].map((i) => copyOf(first.id, { shortcode: `BATCHOK${i}`, externalLabel: null })));
      const taken = await copyOf(first.id, { shortcode: 'BATCHBAD', externalLabel: 'BATCH-1' });
      const outcomes = await Promise.allSettled([
        writeNewBooking(t.deps.db, good[0]!, []),
        writeNewBooking(t.deps.db, taken, [], [{ external_label: 'BATCH-1' }]),
        writeNewBooking(t.deps.db, good[1]!, []),
        writeNewBooking(t.deps.db, good[2]!, []),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ status: 422, errors: [{ pointer: '/booking/packages/0/external_label', code: 'taken' }] });
      for (const copy of good) expect((await tenant.admin.get(`/api/hailing/bookings/${copy.booking.id}`)).status).toBe(200);
      expect((await tenant.admin.get(`/api/hailing/bookings/${taken.booking.id}`)).status).toBe(404);
      expect(await creatingTransactions([taken.booking.id])).toBe(0);
    });
  });
});

/** How many distinct transactions created these bookings (PostgreSQL's xmin of each row). */
async function creatingTransactions(bookingIds: string[]): Promise<number> {
  const result = await t.deps.db.execute(sql`SELECT count(DISTINCT xmin::text)::int AS n FROM bookings WHERE id IN ${bookingIds}`);
  return Number((result as unknown as { rows: { n: number }[] }).rows[0]!.n);
}
