// failStop: POST /api/stops/{id}/fail — fails a tour stop with an outcome and appends its recovery stop (CONTRACT.md §6).
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict, forbidden, invalidFields, notFound, unprocessable } from '../../../http/errors.ts';
import { t } from '../../../http/i18n.ts';
import { recordEvents, type EventInput } from '../../../events/outbox.ts';
import { newId } from '../../../shared/ids.ts';
import { automaticGroup, bookingsRepository as bookingsRepo, canSeeBookingRow, loadStopContext, toStopView, tourFacts } from '../../bookings/index.ts';
import { getService } from '../../services/index.ts';
import { bookingEventData, canSeeTour, settle, tourEventData, toursRepository as toursRepo } from '../../tours/index.ts';
import { blockerMessage, outcomeBlocker, type FailureContext, type FailureOutcome } from '../failure-options.ts';
import { findStopFailureReason, reasonUseProblem, type ReasonRecord } from '../reasons.ts';
import { recoveryPlan, type RecoveryPlan } from '../recovery.ts';
import type { FailStopInput } from '../schemas.ts';

type StopRow = bookingsRepo.StopRow;

/** The stop failure reason named in the body, checked before anything is locked: bad input never waits on a lock. */
function chosenReason(input: FailStopInput): ReasonRecord | null {
  if (!input.reason_key) return null;
  const reason = findStopFailureReason(input.reason_key);
  if (!reason) {
    throw invalidFields([{ pointer: '/reason_key', code: 'unknown_reference', detail: `No stop failure reason ${input.reason_key}; see GET /api/reasons/stop_failure.` }]);
  }
  return reason;
}

function checkReasonUse(reason: ReasonRecord | null, stop: StopRow, note: string | null, actor: Actor): void {
  if (!reason) return;
  const problem = reasonUseProblem(reason, { stopType: stop.type, note });
  if (problem) {
    const pointer = problem.code === 'note_required' ? '/note' : '/reason_key';
    throw invalidFields([{ pointer, code: problem.code, detail: t(actor.lang, problem.key, problem.params) }]);
  }
}

/** Loads and locks what failing the stop touches: tour, then booking (the dispatch core's lock order), then re-reads the stop. */
async function lockStop(tx: Tx, actor: Actor, stopId: string) {
  const peek = await bookingsRepo.findStop(tx, actor.tenantId, stopId);
  if (!peek) throw notFound('stop');
  const tour = peek.tourId ? await toursRepo.findTourForUpdate(tx, actor.tenantId, peek.tourId) : null;
  const [booking] = peek.bookingId ? await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, [peek.bookingId]) : [];
  const stop = await bookingsRepo.findStop(tx, actor.tenantId, stopId);
  if (!stop) throw notFound('stop');
  const visible = (tour !== null && canSeeTour(actor, tourFacts(tour))) || (booking !== undefined && (await canSeeBookingRow(tx, actor, booking)));
  if (!visible) throw notFound('stop');
  // The stop moved to another tour between the first read and the lock: the caller retries against the new state.
  if (stop.tourId !== peek.tourId) throw conflict('stop_moved', 'The stop moved to another tour meanwhile; retry.');
  return { stop, tour, booking: booking ?? null };
}

function notAvailable(actor: Actor, outcome: FailureOutcome, blocker: NonNullable<ReturnType<typeof outcomeBlocker>>) {
  const reason = blockerMessage(blocker, actor.lang);
  return unprocessable('outcome_not_available', reason, [{ pointer: '/outcome', code: 'not_allowed', detail: reason }], { outcome, reason_key: blocker });
}

export async function failStop(deps: Deps, actor: Actor, stopId: string, input: FailStopInput) {
  if (actor.role === 'customer') throw forbidden();
  const outcome = input.outcome ?? 'skip_recovery';
  const note = input.note?.trim() ? input.note : null;
  const reason = chosenReason(input);
  const at = deps.clock.now();

  const { failedId, recoveryId } = await deps.db.transaction(async (tx) => {
    const tenantId = actor.tenantId;
    const { stop, tour, booking } = await lockStop(tx, actor, stopId);
    const serviceId = tour?.serviceId ?? booking?.serviceId;
    const service = serviceId ? await getService(tx, tenantId, serviceId) : null;
    if (!service) throw new Error(`stop ${stop.id} without its service`);
    const bookingStops = booking ? await bookingsRepo.findStopsOfBookings(tx, tenantId, [booking.id]) : [];
    const tourStops = tour ? (await bookingsRepo.findStopsOfTours(tx, tenantId, [tour.id])).filter((s) => s.tourId === tour.id) : [];

    // The same rule that rendered failure_options, re-checked under the locks.
    const context: FailureContext = {
      caller: { role: actor.role, userId: actor.userId, seesTour: tour !== null && canSeeTour(actor, tourFacts(tour)) },
      stop: { type: stop.type, status: stop.status, tourId: stop.tourId },
      tour: tour ? { status: tour.status, driverId: tour.driverId, stopCount: tourStops.filter((s) => s.status !== 'cancelled').length } : null,
      booking: booking ? { stops: bookingStops.map((s) => ({ type: s.type, status: s.status })) } : null,
      service,
    };
    const blocker = outcomeBlocker(context, outcome);
    if (blocker) throw notAvailable(actor, outcome, blocker);
    checkReasonUse(reason, stop, note, actor);

    // The failed stop stays on its tour and in its place (SPEC.md).
    await bookingsRepo.updateStop(tx, tenantId, stop.id, {
      status: 'failed',
      failedAt: at,
      failure: { outcome, reason_key: reason?.key ?? null, note },
      updatedAt: at,
    });

    const pickup = bookingStops.find((s) => s.type === 'pickup' && s.status !== 'cancelled') ?? null;
    const plan = recoveryPlan(outcome, stop, pickup, service.returnStopType, automaticGroup);
    const recoveryId = plan ? await appendRecoveryStop(tx, tenantId, { stop, plan, booking, tour, bookingStops, tourStops }, at) : null;
    await movePackages(tx, actor, stop, outcome, recoveryId, reason?.key ?? null, note, at);

    const events: EventInput[] = [];
    const event = (type: EventInput['type'], resourceId: string, data: Record<string, unknown>) => events.push({ tenantId, type, resourceId, at, data });
    if (booking) {
      event('booking.stop_failed', booking.id, {
        ...bookingEventData(booking),
        stop_id: stop.id,
        tour_id: stop.tourId,
        outcome,
        // Events are language-neutral: the English label, as the reason read at the time.
        failure_reason: { key: reason?.key ?? null, label: reason?.labels.en ?? null, note },
        recovery_stop_id: recoveryId,
      });
      if (outcome === 'return_now') event('booking.return_started', booking.id, { ...bookingEventData(booking), stop_id: recoveryId, tour_id: stop.tourId });
      event('booking.modified', booking.id, bookingEventData(booking));
      // The route changes only when a recovery stop joins it; a skipped stop stays where it was.
      if (recoveryId) event('booking.route_changed', booking.id, { ...bookingEventData(booking), tour_id: plan?.dispatchNow ? stop.tourId : null });
    }
    if (tour) event('tour.modified', tour.id, tourEventData(tour));
    await recordEvents(tx, events);

    await settle(tx, { tenantId, at, bookingIds: booking ? [booking.id] : [], tourIds: tour ? [tour.id] : [], event: 'fail_stop' });
    return { failedId: stop.id, recoveryId };
  });

  const rows = await bookingsRepo.findStops(deps.db, actor.tenantId, recoveryId ? [failedId, recoveryId] : [failedId]);
  const context = await loadStopContext(deps.db, deps.clock, actor.tenantId, rows);
  const view = (id: string | null) => {
    const row = rows.find((r) => r.id === id);
    return row ? toStopView(actor, row, context) : null;
  };
  const stop = view(failedId);
  if (!stop) throw new Error(`stop ${failedId} vanished after failing`);
  return { stop, recovery_stop: view(recoveryId) };
}

/** Appends the recovery stop to the booking; `*_now` puts it right after the failed stop on the tour. */
async function appendRecoveryStop(
  tx: Tx,
  tenantId: string,
  { stop, plan, booking, tour, bookingStops, tourStops }: {
    stop: StopRow;
    plan: RecoveryPlan<StopRow>;
    booking: bookingsRepo.BookingRow | null;
    tour: toursRepo.TourRow | null;
    bookingStops: StopRow[];
    tourStops: StopRow[];
  },
  at: Date,
): Promise<string> {
  // outcomeBlocker allows recoveries only on a booking stop on a tour.
  if (!booking || !tour || stop.tourPosition === null) throw new Error(`recovery of stop ${stop.id} without booking or tour`);
  const failedAt = stop.tourPosition;
  if (plan.dispatchNow) {
    // Everything behind the failed stop moves one place back.
    for (const s of tourStops) {
      if (s.tourPosition !== null && s.tourPosition > failedAt) await bookingsRepo.updateStop(tx, tenantId, s.id, { tourPosition: s.tourPosition + 1, updatedAt: at });
    }
  }
  const id = newId();
  await bookingsRepo.insertStops(tx, [
    {
      ...plan.stop,
      tenantId,
      id,
      bookingId: booking.id,
      tourId: plan.dispatchNow ? tour.id : null,
      tourPosition: plan.dispatchNow ? failedAt + 1 : null,
      status: plan.dispatchNow ? 'scheduled' : 'to_be_dispatched',
      position: Math.max(...bookingStops.map((s) => s.position)) + 1,
      recoveryOfStopId: stop.id,
      recoveryKind: plan.kind,
      createdAt: at,
      updatedAt: at,
    },
  ]);
  return id;
}

/**
 * Packages follow their recovery: a reattempt carries every package of the failed stop, a return the packages
 * the failed drop-off was to deliver; with no recovery the packages of the failed stop fail with it.
 * Each package records the failure in its history.
 */
async function movePackages(
  tx: Tx,
  actor: Actor,
  stop: StopRow,
  outcome: FailureOutcome,
  recoveryId: string | null,
  reasonKey: string | null,
  note: string | null,
  at: Date,
): Promise<void> {
  const packages = await bookingsRepo.findPackagesOfStops(tx, actor.tenantId, [stop.id]);
  const open = packages.filter((p) => p.status === 'created' || p.status === 'awaiting_pickup' || p.status === 'in_transit');
  for (const pkg of open) {
    const patch: Partial<bookingsRepo.PackageRow> = { updatedAt: at };
    if (!recoveryId) patch.status = 'failed';
    else if (outcome === 'reattempt_now' || outcome === 'reattempt_later') {
      if (pkg.pickupStopId === stop.id) patch.pickupStopId = recoveryId;
      if (pkg.dropoffStopId === stop.id) patch.dropoffStopId = recoveryId;
    } else if (pkg.dropoffStopId === stop.id) patch.dropoffStopId = recoveryId;
    await bookingsRepo.updatePackage(tx, actor.tenantId, pkg.id, patch);
  }
  await bookingsRepo.insertPackageHistory(
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
      reasonKey,
      note,
    })),
  );
}
