// The driver's stop flow on an en_route tour: approach, arrive, complete (with package results and groups).
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, forbidden, invalidTransition, notFound } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { recordEvents } from '../../../events/outbox.ts';
import { isFinalStop } from '../bookings/index.ts';
import { applyPackageResults, type PackageResult } from '../packages/operations.ts';
import { recordProofFiles, withPreparedProof } from '../proof-files/index.ts';
import type { DeliveryProofInput } from '../bookings/index.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import * as stopsRepo from './repository.ts';
import type { StopStatus } from '../tables.ts';
import { renderStop } from './render-stops.ts';
import { toursRepository as repo } from '../tours/index.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { dispatchPermissions } from '../permissions.ts';
import { requireTour } from '../access.ts';

export const messages: Messages = {
  'stop.another_in_progress': {
    en: 'Another stop of this tour is under way; finish it first.',
    de: 'Ein anderer Stopp dieser Tour ist in Bearbeitung; schließen Sie ihn zuerst ab.',
  },
  'stop.not_tour_driver': {
    en: 'You are not the driver of this tour (any more): it is waiting for a driver.',
    de: 'Sie sind nicht (mehr) der Fahrer dieser Tour: Sie wartet auf einen Fahrer.',
  },
};

const STOP_STEPS: Record<'approach' | 'arrive' | 'complete', { from: readonly StopStatus[]; to: StopStatus }> = {
  approach: { from: ['scheduled'], to: 'approaching' },
  arrive: { from: ['scheduled', 'approaching'], to: 'arrived' },
  complete: { from: ['approaching', 'arrived'], to: 'completed' },
};

/**
 * Locks the stop's tour, then reads the tour's stops (the stop among them): the tour row serializes the driver and
 * the dispatcher.
 */
async function lockStopOnDriversTour(tx: Tx, actor: Actor, stopId: string) {
  const tour = await requireTour(tx, actor, { loaded: await repo.findTourOfStopForUpdate(tx, actor.tenantId, stopId) }, { otherwise: () => notFound('stop') });
  // Admins and managers never run a driver's stops (403). A driver that sees the tour without holding it sees a tour
  // waiting for a driver — after force_unassign, its former driver: that state is visible to it, so it is told so
  // (409), not that its role may not do this (decision 1204).
  if (!dispatchPermissions.may(actor, 'drive')) throw forbidden();
  if (tour.driverId !== actor.userId) throw conflict('not_tour_driver', { key: 'stop.not_tour_driver' });
  const tourStops = await stopsRepo.findStopsOfTours(tx, actor.tenantId, [tour.id]);
  // The stop moved to another tour between the two reads: treat as not found rather than act on a stale tour.
  const stop = tourStops.find((s) => s.id === stopId);
  if (!stop) throw notFound('stop');
  if (tour.status !== 'en_route') throw invalidTransition('tour', tour.status, 'en_route');
  return { stop, tour, tourStops };
}

export async function advanceStop(
  deps: Deps,
  actor: Actor,
  stopId: string,
  step: 'approach' | 'arrive' | 'complete',
  input: { packages?: PackageResult[]; proof?: DeliveryProofInput | undefined } = {},
) {
  const at = deps.clock.now();
  // Checked and sealed before anything is read or written (its blobs removed again if the completion is refused); a
  // completed stop (and its group) keeps the proof it was given.
  return withPreparedProof(deps, actor.tenantId, step === 'complete' ? input.proof : undefined, (prepared) => deps.db.transaction(async (tx) => {
    const proof = prepared ? { proof: prepared.stored } : {};
    const tenantId = actor.tenantId;
    const { stop, tour, tourStops } = await lockStopOnDriversTour(tx, actor, stopId);
    const { from, to } = STOP_STEPS[step];
    if (!from.includes(stop.status)) throw invalidTransition('stop', stop.status, to);
    // One stop (or one group of stops) of a tour is under way at a time.
    const busy = tourStops.find((s) => s.id !== stop.id && (s.status === 'approaching' || s.status === 'arrived') && (s.group === null || s.group !== stop.group));
    if (busy && step !== 'complete') throw conflict('another_stop_in_progress', { key: 'stop.another_in_progress' }, { stop_id: busy.id });
    // Completing the first stop of a group on the tour completes the rest of the group there (docs/api-guide.md "Bookings, stops and tours").
    const affected =
      step === 'complete' && stop.group
        ? tourStops.filter((s) => s.id === stop.id || (s.group === stop.group && !isFinalStop(s.status)))
        : [stop];
    const bookingIds = [...new Set(affected.map((s) => s.bookingId).filter((id): id is string => !!id))];
    const bookings = await bookingsRepo.findBookingsForUpdate(tx, tenantId, bookingIds);
    const timestamp = step === 'approach' ? { approachedAt: at } : step === 'arrive' ? { arrivedAt: at } : { completedAt: at };
    const patch = { status: to, ...timestamp, ...proof, updatedAt: at };
    for (const s of affected) await stopsRepo.updateStop(tx, tenantId, s.id, patch);
    if (step === 'complete') {
      await applyPackageResults(tx, actor, deps.hooks.failureRules, affected, input.packages ?? [], at);
      await recordProofFiles(tx, prepared, affected.map((s) => ({ ownerKind: 'stop' as const, ownerId: s.id })), at);
    }
    await recordEvents(tx, [
      ...bookings.map((booking) => ({ tenantId, actor, type: 'booking.modified' as const, resourceId: booking.id, at, data: bookingEventData(booking) })),
      { tenantId, actor, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) },
    ]);
    const settled = await settle(tx, deps.hooks.dispatch, { tenantId, actor, at, bookingIds, tourIds: [tour.id], event: `stop_${to}` });
    // The stop as written above, its tour and the stops around it as settle read and left them: not read again.
    return renderStop(tx, deps, actor, { ...stop, ...patch }, settled);
  }));
}
