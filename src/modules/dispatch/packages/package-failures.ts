// Package failures (docs/api-guide.md "Packages"). At stop completion the reason must exist, apply to the stop type and
// interaction, and carry a note when it needs one; a reason that triggers a reattempt appends a reattempt_later
// copy of the stop for those packages. At a failed stop the packages follow its recovery stop or fail with it.
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { invalidFields, type FieldError } from '../../../http/errors.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { getService } from '../../services/index.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import type { FailureRules } from '../hooks.ts';
import { bookingEventData } from '../settle.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { stopLimitReached } from '../stops/index.ts';
import * as packagesRepo from './repository.ts';

export interface ReportedPackageResult {
  id: string;
  result: string;
  reason_key?: string | null | undefined;
  note?: string | null | undefined;
}

/** Failed packages whose reason triggers a reattempt, and the stops their reattempt copies. */
export interface PackageReattempts {
  packages: { pkg: packagesRepo.PackageRow; atPickup: boolean }[];
  /**
   * The stops to copy, pickups first: where the packages failed and, for a failure at the pickup, the packages'
   * drop-offs too — a package not picked up cannot be delivered by the drop-off already on the tour.
   */
  stopsToCopy: stopsRepo.StopRow[];
}

const stopOf = (stops: stopsRepo.StopRow[], pkg: packagesRepo.PackageRow) => stops.find((s) => s.id === pkg.pickupStopId || s.id === pkg.dropoffStopId);

/**
 * Checks every `failed` result against the tenant's package failure reasons before anything is written; throws one
 * 422 validation_failed listing every bad entry, or 422 stop_limit_reached when the reattempts would not fit the
 * booking. A failure without a reason_key is accepted: reasons are optional unless the chosen one says otherwise.
 */
export async function checkPackageFailures(
  tx: Tx,
  actor: Actor,
  rules: FailureRules,
  stops: stopsRepo.StopRow[],
  packages: packagesRepo.PackageRow[],
  results: ReportedPackageResult[],
): Promise<PackageReattempts> {
  const reattempts: PackageReattempts = { packages: [], stopsToCopy: [] };
  const judged = results.flatMap((r, i) => {
    const pkg = packages.find((p) => p.id === r.id);
    const stop = pkg && stopOf(stops, pkg);
    if (r.result !== 'failed' || !r.reason_key || !pkg || !stop) return [];
    const atPickup = stop.id === pkg.pickupStopId;
    return [{ i, pkg, atPickup, failure: { reasonKey: r.reason_key, stopType: stop.type, interaction: atPickup ? ('pickup' as const) : ('delivery' as const), note: r.note } }];
  });
  if (!judged.length) return reattempts;
  const verdicts = await rules.packageFailureVerdicts(tx, actor, judged.map((j) => j.failure));
  const errors: FieldError[] = [];
  judged.forEach(({ i, pkg, atPickup }, n) => {
    const verdict = verdicts[n]!;
    if (verdict.problem) errors.push({ pointer: `/packages/${i}/${verdict.problem.field}`, code: verdict.problem.code, detail: verdict.problem.detail });
    else if (verdict.triggersReattempt) reattempts.packages.push({ pkg, atPickup });
  });
  if (errors.length) throw invalidFields(errors);
  const pickupIds = new Set(reattempts.packages.filter((p) => p.atPickup).map((p) => p.pkg.pickupStopId));
  const dropoffIds = new Set(reattempts.packages.map((p) => p.pkg.dropoffStopId));
  const copied = await stopsRepo.findStops(tx, actor.tenantId, [...pickupIds, ...dropoffIds]);
  reattempts.stopsToCopy = [...copied.filter((s) => pickupIds.has(s.id)), ...copied.filter((s) => dropoffIds.has(s.id))];
  await checkBookingRoom(tx, actor, reattempts.stopsToCopy);
  return reattempts;
}

/** Each copy adds a stop to its booking: all of them must fit the service's max_stops_per_booking. */
async function checkBookingRoom(tx: Tx, actor: Actor, copies: stopsRepo.StopRow[]): Promise<void> {
  const added = new Map<string, number>();
  for (const stop of copies) if (stop.bookingId) added.set(stop.bookingId, (added.get(stop.bookingId) ?? 0) + 1);
  if (!added.size) return;
  const bookings = await bookingsRepo.findBookings(tx, actor.tenantId, [...added.keys()]);
  const stops = await stopsRepo.findStopsOfBookings(tx, actor.tenantId, [...added.keys()]);
  for (const booking of bookings) {
    const service = await getService(tx, actor.tenantId, booking.serviceId);
    const live = stops.filter((s) => s.bookingId === booking.id && s.status !== 'cancelled').length;
    if (service && live + (added.get(booking.id) ?? 0) > service.maxStopsPerBooking) throw stopLimitReached(service.maxStopsPerBooking, 'booking');
  }
}

/**
 * After the packages' results are written: reattempt_later copies of the stops (appended to their bookings, waiting
 * for dispatch, pickups before drop-offs) take over the packages whose reason triggers a reattempt; those packages
 * are open again — in transit to the new drop-off, or awaiting the new pickup.
 */
export async function appendPackageReattempts(tx: Tx, actor: Actor, rules: FailureRules, reattempts: PackageReattempts, at: Date): Promise<void> {
  if (!reattempts.stopsToCopy.length) return;
  const bookingIds = [...new Set(reattempts.stopsToCopy.map((s) => s.bookingId).filter((id): id is string => id !== null))];
  const bookingStops = await stopsRepo.findStopsOfBookings(tx, actor.tenantId, bookingIds);
  const nextPosition = new Map(bookingIds.map((id) => [id, Math.max(...bookingStops.filter((s) => s.bookingId === id).map((s) => s.position)) + 1]));
  const copyOf = new Map<string, string>();
  for (const stop of reattempts.stopsToCopy) {
    if (!stop.bookingId) continue;
    const position = nextPosition.get(stop.bookingId) ?? 0;
    nextPosition.set(stop.bookingId, position + 1);
    const id = newId();
    copyOf.set(stop.id, id);
    await stopsRepo.insertStops(tx, [
      {
        ...rules.reattemptStop(stop),
        tenantId: actor.tenantId,
        id,
        bookingId: stop.bookingId,
        tourId: null,
        tourPosition: null,
        status: 'to_be_dispatched',
        position,
        recoveryOfStopId: stop.id,
        recoveryKind: 'reattempt',
        createdAt: at,
        updatedAt: at,
      },
    ]);
  }
  for (const { pkg, atPickup } of reattempts.packages) {
    const dropoffStopId = copyOf.get(pkg.dropoffStopId) ?? pkg.dropoffStopId;
    const pickupStopId = atPickup ? (copyOf.get(pkg.pickupStopId) ?? pkg.pickupStopId) : pkg.pickupStopId;
    await packagesRepo.updatePackage(tx, actor.tenantId, pkg.id, { pickupStopId, dropoffStopId, status: atPickup ? 'awaiting_pickup' : 'in_transit', updatedAt: at });
    await packagesRepo.insertPackageHistory(tx, [
      { tenantId: actor.tenantId, id: newId(), packageId: pkg.id, at, event: 'reattempt_scheduled', stopId: atPickup ? pickupStopId : dropoffStopId, tourId: null, actorId: actor.userId },
    ]);
  }
  for (const booking of await bookingsRepo.findBookings(tx, actor.tenantId, bookingIds)) {
    await recordEvent(tx, { tenantId: actor.tenantId, actor, type: 'booking.route_changed', resourceId: booking.id, at, data: { ...bookingEventData(booking), tour_id: null } });
  }
}

/**
 * Packages of a failed stop follow its recovery: a reattempt (`carriesAll`) carries every package of the failed stop,
 * a return the packages the failed drop-off was to deliver; with no recovery they fail with the stop. Each package
 * records the failure in its history.
 */
export async function moveFailedStopPackages(
  tx: Tx,
  actor: Actor,
  stop: stopsRepo.StopRow,
  failure: { carriesAll: boolean; recoveryId: string | null; reasonKey: string | null; note: string | null },
  at: Date,
): Promise<void> {
  const { recoveryId } = failure;
  const packages = await packagesRepo.findPackagesOfStops(tx, actor.tenantId, [stop.id]);
  const open = packages.filter((p) => p.status === 'created' || p.status === 'awaiting_pickup' || p.status === 'in_transit');
  for (const pkg of open) {
    const patch: Partial<packagesRepo.PackageRow> = { updatedAt: at };
    if (!recoveryId) patch.status = 'failed';
    else if (failure.carriesAll) {
      if (pkg.pickupStopId === stop.id) patch.pickupStopId = recoveryId;
      if (pkg.dropoffStopId === stop.id) patch.dropoffStopId = recoveryId;
    } else if (pkg.dropoffStopId === stop.id) patch.dropoffStopId = recoveryId;
    await packagesRepo.updatePackage(tx, actor.tenantId, pkg.id, patch);
  }
  await packagesRepo.insertPackageHistory(
    tx,
    open.map((pkg) => ({
      tenantId: actor.tenantId,
      id: newId(),
      packageId: pkg.id,
      at,
      event: 'stop_failed',
      stopId: stop.id,
      tourId: stop.tourId,
      actorId: actor.userId,
      reasonKey: failure.reasonKey,
      note: failure.note,
    })),
  );
}
