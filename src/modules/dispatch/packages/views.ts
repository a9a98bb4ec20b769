// Rendering packages with their history.
import type { Queryable } from '../../../db/client.ts';
import { iso } from '../../../shared/time.ts';
import * as packagesRepo from './repository.ts';

export function toPackageView(row: packagesRepo.PackageRow, history: packagesRepo.PackageHistoryRow[]) {
  return {
    id: row.id,
    booking_id: row.bookingId,
    shortcode: row.shortcode,
    external_label: row.externalLabel,
    status: row.status,
    pickup_stop_id: row.pickupStopId,
    dropoff_stop_id: row.dropoffStopId,
    description: row.description,
    weight_grams: row.weightGrams,
    forced_delivery: row.forcedDelivery,
    history: history.map((h) => ({
      at: iso(h.at),
      event: h.event,
      stop_id: h.stopId,
      tour_id: h.tourId,
      actor_id: h.actorId,
      reason_key: h.reasonKey,
      note: h.note,
    })),
  };
}

export async function renderPackages(q: Queryable, tenantId: string, rows: packagesRepo.PackageRow[]) {
  const history = await packagesRepo.findPackageHistory(q, tenantId, rows.map((p) => p.id));
  return rows.map((p) => toPackageView(p, history.filter((h) => h.packageId === p.id)));
}
