// Failing a tour stop, as the failures module's failStop decides it: the locks, the writes, the events, the settling.
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import { recordEvents, type EventInput } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { getService } from '../../services/index.ts';
import { requireStop, seesTour } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import type { DispatchHooks, RecoveryStopCopy, StopFailureFacts } from '../hooks.ts';
import { moveFailedStopPackages } from '../packages/package-failures.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import * as stopsRepo from './repository.ts';
import { loadStopContext } from './render-stops.ts';
import { toStopView } from './views.ts';

type StopRow = stopsRepo.StopRow;

/** What failing a stop reads, locked: the stop, its tour and booking, their stops, the service (the failure_options facts). */
export interface StopFailureScene extends StopFailureFacts {
  booking: bookingsRepo.BookingRow | null;
  /** The tour's stops in tour order. */
  tourStops: StopRow[];
}

/** The recovery stop failures planned: a copy of the stop or a return to the pickup, now on the tour or later. */
export interface RecoveryStop {
  kind: 'return' | 'reattempt';
  dispatchNow: boolean;
  stop: RecoveryStopCopy;
}

/** How the stop failed, as recorded on it and in its events (labels in English: events are language-neutral). */
export interface StopFailureRecord {
  outcome: string;
  reason: { key: string; label: string } | null;
  note: string | null;
}

/**
 * Loads and locks what failing the stop touches: tour, then booking (the dispatch lock order), then re-reads the
 * stop. A stop the caller sees neither through its tour nor its booking is a 404; one that moved meanwhile a 409.
 */
export async function lockStopForFailure(tx: Tx, actor: Actor, stopId: string): Promise<StopFailureScene> {
  const tenantId = actor.tenantId;
  const peek = await stopsRepo.findStop(tx, tenantId, stopId);
  if (!peek) throw notFound('stop');
  const tour = peek.tourId ? await toursRepo.findTourForUpdate(tx, tenantId, peek.tourId) : null;
  const [booking] = peek.bookingId ? await bookingsRepo.findBookingsForUpdate(tx, tenantId, [peek.bookingId]) : [];
  const stop = await requireStop(tx, actor, { loaded: { stop: await stopsRepo.findStop(tx, tenantId, stopId), booking, tour } }, { through: 'tour_or_booking' });
  // The stop moved to another tour between the first read and the lock: the caller retries against the new state.
  if (stop.tourId !== peek.tourId) throw conflict('stop_moved', 'The stop moved to another tour meanwhile; retry.');
  const serviceId = tour?.serviceId ?? booking?.serviceId;
  const service = serviceId ? await getService(tx, tenantId, serviceId) : null;
  if (!service) throw new Error(`stop ${stop.id} without its service`);
  const bookingStops = booking ? await stopsRepo.findStopsOfBookings(tx, tenantId, [booking.id]) : null;
  const tourStops = tour ? (await stopsRepo.findStopsOfTours(tx, tenantId, [tour.id])).filter((s) => s.tourId === tour.id) : [];
  const tourStopCount = tourStops.filter((s) => s.status !== 'cancelled').length;
  return { stop, tour, booking: booking ?? null, service, bookingStops, tourStops, tourStopCount, seesTour: tour !== null && seesTour(actor, tour) };
}

/**
 * The failed stop stays on its tour and in its place (docs/api-guide.md "Bookings, stops and tours"); its recovery stop (if any) joins the booking, its
 * packages follow the recovery or fail, the events are recorded and the change settled. Returns the recovery stop's id.
 */
export async function failStopOnTour(
  tx: Tx,
  hooks: DispatchHooks,
  actor: Actor,
  scene: StopFailureScene,
  failure: StopFailureRecord,
  recovery: RecoveryStop | null,
  at: Date,
): Promise<string | null> {
  const tenantId = actor.tenantId;
  const { stop, tour, booking } = scene;
  const { outcome, reason, note } = failure;
  await stopsRepo.updateStop(tx, tenantId, stop.id, { status: 'failed', failedAt: at, failure: { outcome, reason_key: reason?.key ?? null, note }, updatedAt: at });
  const recoveryId = recovery ? await appendRecoveryStop(tx, tenantId, scene, recovery, at) : null;
  await moveFailedStopPackages(tx, actor, stop, { carriesAll: outcome === 'reattempt_now' || outcome === 'reattempt_later', recoveryId, reasonKey: reason?.key ?? null, note }, at);

  const events: EventInput[] = [];
  const event = (type: EventInput['type'], resourceId: string, data: Record<string, unknown>) => events.push({ tenantId, actor, type, resourceId, at, data });
  if (booking) {
    event('booking.stop_failed', booking.id, {
      ...bookingEventData(booking),
      stop_id: stop.id,
      tour_id: stop.tourId,
      outcome,
      failure_reason: { key: reason?.key ?? null, label: reason?.label ?? null, note },
      recovery_stop_id: recoveryId,
    });
    if (outcome === 'return_now') event('booking.return_started', booking.id, { ...bookingEventData(booking), stop_id: recoveryId, tour_id: stop.tourId });
    event('booking.modified', booking.id, bookingEventData(booking));
    // The route changes only when a recovery stop joins it; a skipped stop stays where it was.
    if (recoveryId) event('booking.route_changed', booking.id, { ...bookingEventData(booking), tour_id: recovery?.dispatchNow ? stop.tourId : null });
  }
  if (tour) event('tour.modified', tour.id, tourEventData(tour));
  await recordEvents(tx, events);
  await settle(tx, hooks, { tenantId, actor, at, bookingIds: booking ? [booking.id] : [], tourIds: tour ? [tour.id] : [], event: 'fail_stop' });
  return recoveryId;
}

/** Appends the recovery stop to the booking; `dispatchNow` puts it right after the failed stop on the tour. */
export async function appendRecoveryStop(tx: Tx, tenantId: string, scene: StopFailureScene, recovery: RecoveryStop, at: Date): Promise<string> {
  const { stop, booking, tour, bookingStops } = scene;
  // failure_options allow recoveries only on a booking stop on a tour.
  if (!booking || !bookingStops || !tour || stop.tourPosition === null) throw new Error(`recovery of stop ${stop.id} without booking or tour`);
  const failedAt = stop.tourPosition;
  // Everything behind the failed stop moves one place back.
  if (recovery.dispatchNow) await stopsRepo.shiftStopsOnTour(tx, tenantId, tour.id, failedAt + 1, at);
  const id = newId();
  await stopsRepo.insertStops(tx, [
    {
      ...recovery.stop,
      tenantId,
      id,
      bookingId: booking.id,
      tourId: recovery.dispatchNow ? tour.id : null,
      tourPosition: recovery.dispatchNow ? failedAt + 1 : null,
      status: recovery.dispatchNow ? 'scheduled' : 'to_be_dispatched',
      position: Math.max(...bookingStops.map((s) => s.position)) + 1,
      recoveryOfStopId: stop.id,
      recoveryKind: recovery.kind,
      createdAt: at,
      updatedAt: at,
    },
  ]);
  return id;
}

/** The failed stop and its recovery stop as the caller sees them, read after the commit. */
export async function renderFailedStop(deps: Deps, actor: Actor, failedId: string, recoveryId: string | null) {
  const rows = await stopsRepo.findStops(deps.db, actor.tenantId, recoveryId ? [failedId, recoveryId] : [failedId]);
  const context = await loadStopContext(deps.db, deps, actor.tenantId, rows);
  const view = (id: string | null) => {
    const row = rows.find((r) => r.id === id);
    return row ? toStopView(actor, row, context) : null;
  };
  const stop = view(failedId);
  if (!stop) throw new Error(`stop ${failedId} vanished after failing`);
  return { stop, recovery_stop: view(recoveryId) };
}
