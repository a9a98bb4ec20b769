// Stop operations a dispatcher runs: a custom stop on a booking, stop groups, stop properties.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, invalidTransition, notFound, unknownReference, type FieldError } from '../../../http/errors.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { requireBooking, requireDispatcher, requireStop } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { isFinalStop, isOpenBooking } from '../bookings/index.ts';
import { getBooking } from '../bookings/operations.ts';
import { serviceOrReject } from '../bookings/index.ts';
import type { CustomStopInput, GroupsInput, StopPropertiesInput } from '../bookings/index.ts';
import { recordBookingModified, settle, tourEventData } from '../settle.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { getStop } from './read-stop.ts';
import { automaticGroup, checkExplicitGroup, groupAfterTypeChange } from './grouping.ts';
import * as stopsRepo from './repository.ts';
import { buildStops, checkBookingStopLimit } from './stop-input.ts';

/** POST /api/hailing/bookings/{id}/stops: a custom stop inserted into the booking at `position` (default: last). */
export async function addBookingStop(deps: Deps, actor: Actor, bookingId: string, input: CustomStopInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  const stopId = await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const booking = await requireBooking(tx, actor, bookingId, { forUpdate: true });
    if (!isOpenBooking(booking)) throw invalidTransition('booking', booking.status, 'modified');
    const service = await serviceOrReject(tx, tenantId, booking.serviceId, '/stop');
    const existing = await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId]);
    checkBookingStopLimit(service, existing.filter((s) => s.status !== 'cancelled').length + 1);
    const [row] = await buildStops(tx, tenantId, service, [input.stop], () => '/stop', at);
    const position = Math.min(input.position ?? existing.length, existing.length);
    for (const stop of existing.slice(position).reverse()) await stopsRepo.updateStop(tx, tenantId, stop.id, { position: stop.position + 1 });
    await stopsRepo.insertStops(tx, [{ ...row!, bookingId, position }]);
    await recordBookingModified(tx, tenantId, actor, at, booking, true);
    await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds: [bookingId], tourIds: [], event: 'stop_added' });
    return row!.id;
  });
  return getStop(deps, actor, stopId);
}

/** PUT /api/hailing/bookings/{id}/stops/groups: custom groups set, null restoring the automatic group. */
export async function updateStopGroups(deps: Deps, actor: Actor, bookingId: string, input: GroupsInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const booking = await requireBooking(tx, actor, bookingId, { forUpdate: true });
    const stops = new Map((await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId])).map((s) => [s.id, s]));
    const errors: FieldError[] = [];
    input.stops.forEach((entry, i) => {
      const stop = stops.get(entry.id);
      if (!stop) throw unknownReference(`/stops/${i}/id`, 'stop of this booking');
      if (entry.group !== null) checkExplicitGroup(entry.group, `/stops/${i}/group`);
      if (stop.status !== 'to_be_dispatched' && stop.status !== 'scheduled') {
        errors.push({ pointer: `/stops/${i}/id`, code: 'stop_not_editable', detail: `a ${stop.status} stop keeps its group` });
      }
    });
    if (errors.length) throw invalidFields(errors);
    for (const entry of input.stops) {
      const stop = stops.get(entry.id)!;
      const group = entry.group ?? (stop.placeId ? automaticGroup(stop.type, stop.placeId) : null);
      await stopsRepo.updateStop(tx, tenantId, stop.id, { group, updatedAt: at });
    }
    await recordBookingModified(tx, tenantId, actor, at, booking);
  });
  return getBooking(deps, actor, bookingId);
}

/** PATCH /api/stops/{id}/properties: a changed type moves an automatic group along (docs/api-guide.md "Bookings, stops and tours"). */
export async function updateStopProperties(deps: Deps, actor: Actor, stopId: string, input: StopPropertiesInput) {
  requireDispatcher(actor);
  const at = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const preview = await stopsRepo.findStop(tx, tenantId, stopId);
    if (!preview) throw notFound('stop');
    const tour = preview.tourId ? await toursRepo.findTourForUpdate(tx, tenantId, preview.tourId) : null;
    const [booking] = preview.bookingId ? await bookingsRepo.findBookingsForUpdate(tx, tenantId, [preview.bookingId]) : [null];
    // A booking stop is seen through its booking, a tour-only stop through its tour.
    await requireStop(tx, actor, { loaded: { stop: preview, booking, tour } });
    const stop = (await stopsRepo.findStop(tx, tenantId, stopId))!;
    if (isFinalStop(stop.status)) throw invalidTransition('stop', stop.status, 'modified');
    const service = await serviceOrReject(tx, tenantId, booking?.serviceId ?? tour?.serviceId ?? '', '/stop');
    if (input.type !== undefined && !service.stopTypes.includes(input.type)) {
      throw invalidFields([{ pointer: '/stop/type', code: 'invalid_value', detail: `is not a stop type of the service (${service.stopTypes.join(', ')})` }]);
    }
    const patch: Partial<stopsRepo.StopRow> = { updatedAt: at };
    if (input.type !== undefined) Object.assign(patch, { type: input.type, group: groupAfterTypeChange(stop.group, input.type, stop.placeId) });
    if (input.contact !== undefined) {
      patch.contact = input.contact && { name: input.contact.name ?? null, phone_number: input.contact.phone_number ?? null, email: input.contact.email ?? null };
    }
    if (input.time_window !== undefined) {
      patch.timeWindowStartsAt = input.time_window ? new Date(input.time_window.starts_at) : null;
      patch.timeWindowEndsAt = input.time_window ? new Date(input.time_window.ends_at) : null;
    }
    if (input.service_duration_seconds !== undefined) patch.serviceDurationSeconds = input.service_duration_seconds;
    if (input.notes !== undefined) patch.notes = input.notes;
    await stopsRepo.updateStop(tx, tenantId, stopId, patch);
    if (booking) await recordBookingModified(tx, tenantId, actor, at, booking);
    if (tour) await recordEvent(tx, { tenantId, actor, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) });
  });
  return getStop(deps, actor, stopId);
}
