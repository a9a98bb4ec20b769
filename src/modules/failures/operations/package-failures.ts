// Package failures at stop completion (CONTRACT.md §5 Package): the reason must exist, apply to the stop type and
// interaction, and carry a note when it needs one; a reason that triggers a reattempt appends a reattempt_later
// copy of the stop for those packages. Called by the dispatch core's complete-stop, inside its transaction.
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, type FieldError } from '../../../http/errors.ts';
import { t } from '../../../http/i18n.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import * as bookingsRepo from '../../bookings/repository.ts';
import { stopLimitReached } from '../../bookings/stop-input.ts';
import { getService } from '../../services/index.ts';
import { bookingEventData } from '../../tours/settle.ts';
import * as repo from '../repository.ts';
import { reasonUseProblem } from '../reasons.ts';
import { reattemptStop } from '../recovery.ts';

export interface ReportedPackageResult {
  id: string;
  result: string;
  reason_key?: string | null | undefined;
  note?: string | null | undefined;
}

/** Failed packages whose reason triggers a reattempt, by the stop they failed at. */
export interface PackageReattempts {
  byStop: Map<string, { stop: bookingsRepo.StopRow; packages: { pkg: bookingsRepo.PackageRow; atPickup: boolean }[] }>;
}

const stopOf = (stops: bookingsRepo.StopRow[], pkg: bookingsRepo.PackageRow) => stops.find((s) => s.id === pkg.pickupStopId || s.id === pkg.dropoffStopId);

/**
 * Checks every `failed` result against the tenant's package failure reasons before anything is written; throws one
 * 422 validation_failed listing every bad entry, or 422 stop_limit_reached when a reattempt would not fit the
 * booking. A failure without a reason_key is accepted: reasons are optional unless the chosen one says otherwise.
 */
export async function checkPackageFailures(
  tx: Tx,
  actor: Actor,
  stops: bookingsRepo.StopRow[],
  packages: bookingsRepo.PackageRow[],
  results: ReportedPackageResult[],
): Promise<PackageReattempts> {
  const failed = results.map((r, i) => ({ r, i })).filter(({ r }) => r.result === 'failed');
  const reattempts: PackageReattempts = { byStop: new Map() };
  if (!failed.some(({ r }) => r.reason_key)) return reattempts;
  const reasons = new Map((await repo.listPackageFailureReasons(tx, actor.tenantId)).map((reason) => [reason.key, reason]));
  const errors: FieldError[] = [];
  for (const { r, i } of failed) {
    const pkg = packages.find((p) => p.id === r.id);
    const stop = pkg && stopOf(stops, pkg);
    if (!r.reason_key || !pkg || !stop) continue;
    const reason = reasons.get(r.reason_key);
    if (!reason) {
      errors.push({ pointer: `/packages/${i}/reason_key`, code: 'unknown_reference', detail: `No package failure reason ${r.reason_key}; see GET /api/reasons/package_failure.` });
      continue;
    }
    const atPickup = stop.id === pkg.pickupStopId;
    const problem = reasonUseProblem(reason, { stopType: stop.type, packageInteraction: atPickup ? 'pickup' : 'delivery', note: r.note });
    if (problem) {
      errors.push({ pointer: `/packages/${i}/${problem.code === 'note_required' ? 'note' : 'reason_key'}`, code: problem.code, detail: t(actor.lang, problem.key, problem.params) });
      continue;
    }
    if (reason.triggersReattempt) {
      const entry = reattempts.byStop.get(stop.id) ?? { stop, packages: [] };
      entry.packages.push({ pkg, atPickup });
      reattempts.byStop.set(stop.id, entry);
    }
  }
  if (errors.length) throw invalidFields(errors);
  await checkBookingRoom(tx, actor, reattempts);
  return reattempts;
}

/** Each reattempt adds a stop to its booking: all of them must fit the service's max_stops_per_booking. */
async function checkBookingRoom(tx: Tx, actor: Actor, reattempts: PackageReattempts): Promise<void> {
  const added = new Map<string, number>();
  for (const { stop } of reattempts.byStop.values()) if (stop.bookingId) added.set(stop.bookingId, (added.get(stop.bookingId) ?? 0) + 1);
  if (!added.size) return;
  const bookings = await bookingsRepo.findBookings(tx, actor.tenantId, [...added.keys()]);
  const stops = await bookingsRepo.findStopsOfBookings(tx, actor.tenantId, [...added.keys()]);
  for (const booking of bookings) {
    const service = await getService(tx, actor.tenantId, booking.serviceId);
    const live = stops.filter((s) => s.bookingId === booking.id && s.status !== 'cancelled').length;
    if (service && live + (added.get(booking.id) ?? 0) > service.maxStopsPerBooking) throw stopLimitReached(service.maxStopsPerBooking, 'booking');
  }
}

/**
 * After the packages' results are written: one reattempt_later copy per stop, appended to its booking and waiting
 * for dispatch, takes over the packages whose reason triggers a reattempt; they are open again (awaiting pickup,
 * or in transit to the new drop-off).
 */
export async function appendPackageReattempts(tx: Tx, actor: Actor, reattempts: PackageReattempts, at: Date): Promise<void> {
  for (const { stop, packages } of reattempts.byStop.values()) {
    if (!stop.bookingId) continue;
    const bookingStops = await bookingsRepo.findStopsOfBookings(tx, actor.tenantId, [stop.bookingId]);
    const id = newId();
    await bookingsRepo.insertStops(tx, [
      {
        ...reattemptStop(stop),
        tenantId: actor.tenantId,
        id,
        bookingId: stop.bookingId,
        tourId: null,
        tourPosition: null,
        status: 'to_be_dispatched',
        position: Math.max(...bookingStops.map((s) => s.position)) + 1,
        recoveryOfStopId: stop.id,
        recoveryKind: 'reattempt',
        createdAt: at,
        updatedAt: at,
      },
    ]);
    for (const { pkg, atPickup } of packages) {
      await bookingsRepo.updatePackage(tx, actor.tenantId, pkg.id, {
        ...(atPickup ? { pickupStopId: id, status: 'awaiting_pickup' as const } : { dropoffStopId: id, status: 'in_transit' as const }),
        updatedAt: at,
      });
    }
    await bookingsRepo.insertPackageHistory(
      tx,
      packages.map(({ pkg }) => ({ tenantId: actor.tenantId, id: newId(), packageId: pkg.id, at, event: 'reattempt_scheduled', stopId: id, tourId: null, actorId: actor.userId })),
    );
    const [booking] = await bookingsRepo.findBookings(tx, actor.tenantId, [stop.bookingId]);
    if (booking) await recordEvent(tx, { tenantId: actor.tenantId, type: 'booking.route_changed', resourceId: booking.id, at, data: { ...bookingEventData(booking), tour_id: null } });
  }
}
