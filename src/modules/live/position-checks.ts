// The checks a driver's position passes before anything is written, shared by the fast path (record-position-fast.ts)
// and the locking transactions (record-driver-location.ts, record-driver-locations.ts) so that a rule changes in one place (decision 0218). The
// tour's visibility (404) comes first, from dispatch; then these, in this order.
import type { Actor } from '../../http/actor.ts';
import { conflict, forbidden, invalidFields } from '../../http/errors.ts';
import { isHeldByDriver, type TourSummary } from './dispatch-port.ts';
import type { Fix } from './ingestion.ts';

/** A phone's clock may run a little ahead; beyond this a fix is bad input (issue 15). */
const MAX_FUTURE_MS = 5 * 60 * 1000;

/** The field error of a fix taken more than 5 minutes after `now`, or null; `pointer` names its recorded_at. */
export function fixInTheFuture(fix: Fix, now: Date, pointer: string) {
  if (fix.recordedAt.getTime() <= now.getTime() + MAX_FUTURE_MS) return null;
  return { pointer, code: 'in_the_future', detail: 'recorded_at is more than 5 minutes ahead of the server clock.' };
}

/** The fix itself, before any read: a time too far ahead of the server's clock is 422. */
export function checkFix(fix: Fix, now: Date): void {
  const future = fixInTheFuture(fix, now, '/location/recorded_at');
  if (future) throw invalidFields([future]);
}

/** The tour the caller sees: only its driver records positions (403), and only while holding it (409). */
export function checkPositionTour(actor: Actor, tour: Pick<TourSummary, 'driverId' | 'status'>): void {
  if (tour.driverId !== actor.userId) throw forbidden();
  if (!isHeldByDriver(tour.status)) throw conflict('tour_not_tracked', { key: 'live.tour_not_tracked' }, { status: tour.status });
}
