// Cancelling a booking whose parcels are in the van (docs/api-guide.md "Cancelling a booking", decision 1641): the
// parcels go back to where they were picked up, on the van's tour right after the driver's current stop — the path
// of a return_now recovery (docs/api-guide.md "Failed stops"), so the driver app shows the return stop at once.
import type { Tx } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { newId } from '../../../shared/ids.ts';
import type { ServiceConfig } from '../../services/index.ts';
import { packagesRepository as packagesRepo, type PackageRow } from '../packages/index.ts';
import { automaticGroup, stopsRepository as stopsRepo, type StopRow } from '../stops/index.ts';
import { isOpenTour, toursRepository as toursRepo } from '../tours/index.ts';
import { isFinalStop } from './booking-status.ts';

/** A parcel on board: picked up (its pickup completed on a tour), its drop-off not reached an outcome. */
export interface OnBoard {
  pkg: PackageRow;
  pickup: StopRow;
}

export function packagesOnBoard(stops: readonly StopRow[], packages: readonly PackageRow[]): OnBoard[] {
  const byId = new Map(stops.map((s) => [s.id, s]));
  return packages.flatMap((pkg) => {
    const pickup = byId.get(pkg.pickupStopId);
    const dropoff = byId.get(pkg.dropoffStopId);
    if (pkg.status !== 'in_transit' || !pickup || pickup.status !== 'completed' || !pickup.tourId || !dropoff || isFinalStop(dropoff.status)) return [];
    return [{ pkg, pickup }];
  });
}

/** Returns are possible when the service names a return stop type it offers (as for a return_* outcome, §6). */
export const returnsEnabled = (service: ServiceConfig): boolean => !!service.returnStopType && service.stopTypes.includes(service.returnStopType);

/** Where the return goes on its tour: right after the stop under way, else after the last stop with an outcome. */
function positionAfterCurrent(tourStops: readonly StopRow[]): number {
  const ordered = [...tourStops].sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0));
  const current = ordered.findIndex((s) => s.status === 'approaching' || s.status === 'arrived');
  if (current >= 0) return current + 1;
  let lastDone = -1;
  ordered.forEach((s, i) => {
    if (isFinalStop(s.status)) lastDone = i;
  });
  return lastDone + 1;
}

export interface ReturnStarted {
  stopId: string;
  tourId: string | null;
}

/**
 * After the booking's open stops were cancelled (or failed) and its tours laid out again: one return stop per
 * pickup the parcels left from, to the pickup's place, address and contact (recovery_kind `return`, recovery of
 * the parcels' drop-off), dispatched onto the pickup's tour while that tour is open, else waiting for dispatch. The
 * parcels stay `in_transit` with the return as their drop-off; their history records `return_started`.
 */
export async function returnPackagesOnBoard(
  tx: Tx,
  tenantId: string,
  actor: Actor,
  bookingId: string,
  service: ServiceConfig,
  bookingStops: readonly StopRow[],
  onBoard: readonly OnBoard[],
  at: Date,
): Promise<ReturnStarted[]> {
  const returnType = service.returnStopType!;
  const started: ReturnStarted[] = [];
  let position = Math.max(...bookingStops.map((s) => s.position)) + 1;
  for (const pickupId of [...new Set(onBoard.map((o) => o.pickup.id))]) {
    const parcels = onBoard.filter((o) => o.pickup.id === pickupId);
    const pickup = parcels[0]!.pickup;
    const dropoff = bookingStops.find((s) => s.id === parcels[0]!.pkg.dropoffStopId)!;
    const tour = await toursRepo.findTour(tx, tenantId, pickup.tourId!);
    const onTour = tour !== null && isOpenTour(tour.status);
    let tourPosition: number | null = null;
    if (onTour) {
      const tourStops = (await stopsRepo.findStopsOfTours(tx, tenantId, [tour.id])).filter((s) => s.tourId === tour.id);
      tourPosition = positionAfterCurrent(tourStops);
      await stopsRepo.shiftStopsOnTour(tx, tenantId, tour.id, tourPosition, at);
    }
    const id = newId();
    await stopsRepo.insertStops(tx, [
      {
        tenantId,
        id,
        bookingId,
        type: returnType,
        placeId: pickup.placeId,
        lat: pickup.lat,
        lng: pickup.lng,
        address: pickup.address,
        contact: pickup.contact,
        group: pickup.placeId ? automaticGroup(returnType, pickup.placeId) : null,
        timeWindowStartsAt: null,
        timeWindowEndsAt: null,
        serviceDurationSeconds: dropoff.serviceDurationSeconds,
        notes: null,
        tourId: onTour ? tour.id : null,
        tourPosition,
        status: onTour ? 'scheduled' : 'to_be_dispatched',
        position: position++,
        recoveryOfStopId: dropoff.id,
        recoveryKind: 'return',
        createdAt: at,
        updatedAt: at,
      },
    ]);
    for (const { pkg } of parcels) await packagesRepo.updatePackage(tx, tenantId, pkg.id, { dropoffStopId: id, updatedAt: at });
    await packagesRepo.insertPackageHistory(
      tx,
      parcels.map(({ pkg }) => ({ tenantId, id: newId(), packageId: pkg.id, at, event: 'return_started', stopId: id, tourId: onTour ? tour.id : null, actorId: actor.userId, reasonKey: 'booking_cancelled' })),
    );
    started.push({ stopId: id, tourId: onTour ? tour.id : null });
  }
  return started;
}
