// Reading one stop: visible through its booking, or through its tour for a tour-only stop.
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { notFound } from '../../../http/errors.ts';
import { canSee } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { tourFacts } from '../settle.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { canSeeTour } from '../visibility.ts';
import * as stopsRepo from './repository.ts';
import { renderStop } from './render-stops.ts';
import { readProofImage } from '../proof-files/index.ts';
import type { ProofFileKind } from '../tables.ts';

/** GET /api/stops/{id}: visible through its booking, or through its tour for a tour-only stop. */
export async function getStop(deps: Deps, actor: Actor, stopId: string) {
  return renderStop(deps.db, deps, actor, await visibleStop(deps, actor, stopId));
}

/**
 * GET /api/stops/{id}/proof/{photo|signature}: the decrypted image for whoever may see the stop (decision 1250); 404
 * for a stop the caller may not see and for a proof without that image or whose file retention deleted.
 */
export async function getStopProofImage(deps: Deps, actor: Actor, stopId: string, kind: ProofFileKind) {
  await visibleStop(deps, actor, stopId);
  return readProofImage(deps, actor.tenantId, { ownerKind: 'stop', ownerId: stopId }, kind);
}

async function visibleStop(deps: Deps, actor: Actor, stopId: string) {
  const stop = await stopsRepo.findStop(deps.db, actor.tenantId, stopId);
  if (!stop) throw notFound('stop');
  const booking = stop.bookingId ? await bookingsRepo.findBooking(deps.db, actor.tenantId, stop.bookingId) : null;
  const tour = stop.tourId ? await toursRepo.findTour(deps.db, actor.tenantId, stop.tourId) : null;
  const visible = booking ? await canSee(deps.db, actor, booking) : tour !== null && canSeeTour(actor, tourFacts(tour));
  if (!visible) throw notFound('stop');
  return stop;
}
