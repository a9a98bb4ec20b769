// POST /api/hailing/tours/{id}/optimize: the tour's open stops reordered by the solver, written if the tour did not
// change while the solver ran (decision 0957: routing and search hold no lock; the write re-checks under the locks).
import type { Tx } from '../../../db/client.ts';
import type { Deps } from '../../../deps.ts';
import type { Actor } from '../../../http/actor.ts';
import { conflict } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { recordEvents, type EventActor } from '../../../events/outbox.ts';
import { requireDispatcher, requireLoadedTour } from '../access.ts';
import { bookingsRepository as bookingsRepo } from '../bookings/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { bookingEventData, settle, tourEventData } from '../settle.ts';
import { getTour } from '../tours/get-tours.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { isOpenTour } from '../tours/index.ts';
import { optimizedOrder, type Optimization } from './order.ts';
import type { OptimizeTourInput } from './schemas.ts';

export const messages: Messages = {
  'planning.tour_closed': { en: 'A {status} tour cannot be optimised.', de: 'Eine Tour im Zustand {status} kann nicht optimiert werden.' },
  'planning.tour_changed': { en: 'The tour kept changing while it was optimised; try again.', de: 'Die Tour änderte sich während der Optimierung; bitte erneut versuchen.' },
};

/** Default search budget of an optimise request (decision 0956). */
export const OPTIMIZE_TIME_LIMIT_MS = 1000;
/** A tour changed under the solver this often in a row is busy: the client retries later (409 tour_changed). */
const RUNS = 3;

/** What decides the order: which stops, in which state and position, and whether a driver holds the tour. */
const fingerprint = (tour: toursRepo.TourRow, stops: readonly stopsRepo.StopRow[]): string =>
  [tour.status, tour.scheduledAt?.getTime() ?? '', ...stops.map((s) => `${s.id}:${s.status}:${s.tourPosition}`)].join('|');

/** The tour if the caller may optimise it: 404 unless seen, then 403 for a role that never may, then 409 if closed. */
function checkTour(actor: Actor, tour: toursRepo.TourRow | null): toursRepo.TourRow {
  const seen = requireLoadedTour(actor, tour);
  requireDispatcher(actor);
  if (!isOpenTour(seen.status)) throw conflict('invalid_transition', { key: 'planning.tour_closed', params: { status: seen.status } }, { from: seen.status });
  return seen;
}

/**
 * Writes a new order of the tour's stops (in the caller's transaction, tour and bookings locked): positions 0…n-1,
 * `optimized`, tour.modified, booking.route_changed for bookings whose stops moved, and the settle that makes ETAs
 * of a held tour due again.
 */
export async function writeOrder(tx: Tx, deps: Pick<Deps, 'hooks'>, tenantId: string, actor: EventActor, at: Date, tour: toursRepo.TourRow, before: readonly stopsRepo.StopRow[], order: stopsRepo.StopRow[]) {
  const moved = order.flatMap((s, i) => (s.tourPosition === i ? [] : [{ stop: s, position: i }]));
  // One statement for all positions: a reordered tour of 100 stops moves most of them.
  await stopsRepo.setTourPositions(tx, tenantId, moved.map((m) => ({ id: m.stop.id, position: m.position })), at);
  await toursRepo.updateTour(tx, tenantId, tour.id, { optimized: true, updatedAt: at });
  const bookingIds = [...new Set(moved.map((m) => m.stop.bookingId).filter((id): id is string => !!id))].sort();
  const routeChanged = (await bookingsRepo.findBookings(tx, tenantId, bookingIds)).map((booking) => ({
    tenantId,
    actor,
    type: 'booking.route_changed' as const,
    resourceId: booking.id,
    at,
    data: { ...bookingEventData(booking), tour_id: tour.id },
  }));
  await recordEvents(tx, [{ tenantId, actor, type: 'tour.modified', resourceId: tour.id, at, data: tourEventData(tour) }, ...routeChanged]);
  await settle(tx, deps.hooks.dispatch, {
    tenantId,
    actor,
    at,
    bookingIds: [...new Set(before.map((s) => s.bookingId).filter((id): id is string => !!id))],
    tourIds: [tour.id],
    event: 'optimize',
  });
}

export async function optimizeTour(deps: Deps, actor: Actor, tourId: string, input: OptimizeTourInput): Promise<{ tour: Awaited<ReturnType<typeof getTour>>; optimization: Optimization }> {
  const timeLimitMs = input.time_limit_ms ?? OPTIMIZE_TIME_LIMIT_MS;
  for (let run = 1; ; run++) {
    const tour = checkTour(actor, await toursRepo.findTour(deps.db, actor.tenantId, tourId));
    const stops = await stopsRepo.findStopsOfTours(deps.db, actor.tenantId, [tourId]);
    const { order, optimization } = await optimizedOrder(deps, deps.db, actor.tenantId, tour, stops, timeLimitMs);
    const written = await deps.db.transaction(async (tx) => {
      // Lock order as every tour writer: the tour, then its bookings (decision 0330); then read again under them.
      const locked = checkTour(actor, await toursRepo.findTourForUpdate(tx, actor.tenantId, tourId));
      const bookingIds = [...new Set(stops.map((s) => s.bookingId).filter((id): id is string => !!id))];
      await bookingsRepo.findBookingsForUpdate(tx, actor.tenantId, bookingIds);
      const now = await stopsRepo.findStopsOfTours(tx, actor.tenantId, [tourId]);
      if (fingerprint(locked, now) !== fingerprint(tour, stops)) return false;
      await writeOrder(tx, deps, actor.tenantId, actor, deps.clock.now(), locked, stops, order);
      return true;
    });
    if (written) return { tour: await getTour(deps, actor, tourId), optimization };
    if (run === RUNS) throw conflict('tour_changed', { key: 'planning.tour_changed' });
  }
}
