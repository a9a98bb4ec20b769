// A package's pickup and drop-off stay on one tour (docs/api-guide.md "Moving a booking's stops", decision 1640).
import type { Tx } from '../../../db/client.ts';
import { conflict } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { packagesRepository as packagesRepo } from '../packages/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import * as repo from './repository.ts';
import { isOpenTour } from './tour-machine.ts';

export const messages: Messages = {
  'dispatch.booking_split': {
    en: "A package's pickup and drop-off stay on one tour: move the booking's open stops together.",
    de: 'Abholung und Zustellung eines Pakets bleiben auf einer Tour: Verschieben Sie die offenen Stopps der Buchung gemeinsam.',
  },
};

const OPEN_PACKAGE = ['created', 'awaiting_pickup', 'in_transit'];
const LIVE_ON_TOUR = ['scheduled', 'approaching', 'arrived'];

/**
 * Refuses with 409 booking_split a dispatch that would leave `moving` on `targetTourId` (null: a new tour) while
 * another stop of one of their open packages is on a different tour: still to be served there, or a completed
 * pickup on a tour that is still open (the parcel is in that van). A partner waiting for dispatch is no split: a
 * booking may be dispatched part by part. The caller holds the moving stops' bookings, so the partners (stops of
 * the same bookings) cannot move meanwhile.
 */
export async function refuseBookingSplit(tx: Tx, tenantId: string, targetTourId: string | null, moving: readonly stopsRepo.StopRow[]): Promise<void> {
  const movingIds = new Set(moving.map((s) => s.id));
  const packages = (await packagesRepo.findPackagesOfStops(tx, tenantId, [...movingIds])).filter((p) => OPEN_PACKAGE.includes(p.status));
  const partnerIds = [...new Set(packages.flatMap((p) => [p.pickupStopId, p.dropoffStopId]))].filter((id) => !movingIds.has(id));
  const partners = (await stopsRepo.findStops(tx, tenantId, partnerIds)).filter((s) => s.tourId !== null && s.tourId !== targetTourId);
  const onBoard = partners.filter((s) => s.status === 'completed' && packages.some((p) => p.pickupStopId === s.id && p.status === 'in_transit'));
  const openTours = new Set(
    (await repo.findTours(tx, tenantId, [...new Set(onBoard.map((s) => s.tourId!))])).filter((t) => isOpenTour(t.status)).map((t) => t.id),
  );
  const split = partners.filter((s) => LIVE_ON_TOUR.includes(s.status) || (onBoard.includes(s) && openTours.has(s.tourId!)));
  if (!split.length) return;
  const splitIds = new Set(split.map((s) => s.id));
  throw conflict('booking_split', { key: 'dispatch.booking_split' }, {
    stop_ids: [...splitIds].sort(),
    package_ids: packages.filter((p) => splitIds.has(p.pickupStopId) || splitIds.has(p.dropoffStopId)).map((p) => p.id).sort(),
    tour_ids: [...new Set(split.map((s) => s.tourId!))].sort(),
  });
}
