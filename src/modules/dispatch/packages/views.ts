// A package with its history as the wire shows it: no queries here (render-packages.ts reads).
import { iso } from '../../../shared/time.ts';
import type * as packagesRepo from './repository.ts';
import { proofView } from '../proof-files/index.ts';

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
    forced_delivery: row.forcedDelivery && { ...row.forcedDelivery, proof: proofView(row.forcedDelivery.proof, (kind) => `/api/hailing/packages/${row.id}/proof/${kind}`) },
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
