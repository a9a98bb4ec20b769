// What the public tracking read (the tracking module) reads of dispatch through a link's token: the booking's status,
// its stops, and the tour its next open stop is on with that tour's open stops in order — nothing of other bookings
// but their stops' places in the tour's order (to count them).
import type { Deps } from '../../../deps.ts';
import type { Queryable } from '../../../db/client.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { bookingEventData } from '../settle.ts';
import type { StopRow } from '../stops/repository.ts';
import * as stopsRepo from '../stops/repository.ts';
import type { TourStatus } from '../tables.ts';
import * as toursRepo from '../tours/repository.ts';
import { isFinalStop } from './booking-status.ts';
import * as bookingsRepo from './repository.ts';
import { expiresAt, hashTrackingToken } from './tracking-links.ts';
import * as repo from './tracking-repository.ts';

export interface TrackedBooking {
  tenantId: string;
  bookingId: string;
  bookingStatus: string;
  /** The booking's stops in booking order. */
  stops: StopRow[];
  feedback: { rating: number; comment: string | null } | null;
  /** The tour of the booking's next open stop (else of its last stop on a tour). */
  tour: { id: string; status: TourStatus; driverId: string | null } | null;
  /** That tour's open stops in tour order: only which booking each belongs to. */
  tourOpenStops: { id: string; bookingId: string | null }[];
}

/**
 * The booking a token tracks: null for a token no link has (404), `expired` past its time to live (410). The token is
 * hashed first and looked up by its hash, so the lookup compares no secret and costs the same for any token.
 */
export async function findTrackedBooking(q: Queryable, deps: Pick<Deps, 'config' | 'clock'>, token: string): Promise<TrackedBooking | 'expired' | null> {
  const link = await repo.findLinkByTokenHash(q, hashTrackingToken(token));
  if (!link) return null;
  const { tenantId, bookingId } = link;
  const [booking, stops] = await Promise.all([bookingsRepo.findBooking(q, tenantId, bookingId), stopsRepo.findStopsOfBookings(q, tenantId, [bookingId])]);
  if (!booking) return null;
  const finished = await repo.finishedAtOfBookings(q, tenantId, [bookingId]);
  const expires = expiresAt(deps.config, finished.get(bookingId));
  if (expires && deps.clock.now() >= expires) return 'expired';
  const ordered = [...stops].sort((a, b) => a.position - b.position);
  const next = ordered.find((s) => !isFinalStop(s.status) && s.tourId);
  const tourId = next?.tourId ?? [...ordered].reverse().find((s) => s.tourId)?.tourId ?? null;
  const tour = tourId ? await toursRepo.findTour(q, tenantId, tourId) : null;
  const tourStops = tour ? await stopsRepo.findStopsOfTours(q, tenantId, [tour.id]) : [];
  return {
    tenantId,
    bookingId,
    bookingStatus: booking.status,
    stops: ordered,
    feedback: link.feedbackAt && link.feedbackRating !== null ? { rating: link.feedbackRating, comment: link.feedbackComment } : null,
    tour: tour ? { id: tour.id, status: tour.status, driverId: tour.driverId } : null,
    tourOpenStops: tourStops
      .filter((s) => !isFinalStop(s.status))
      .sort((a, b) => (a.tourPosition ?? 0) - (b.tourPosition ?? 0))
      .map((s) => ({ id: s.id, bookingId: s.bookingId })),
  };
}

export const messages: Messages = {
  'error.tracking_expired': {
    en: 'This tracking link has expired: the delivery finished some time ago.',
    de: 'Dieser Sendungsverfolgungs-Link ist abgelaufen: die Zustellung liegt schon einige Zeit zurück.',
  },
  'error.feedback_not_open': {
    en: 'Feedback opens once the delivery is completed.',
    de: 'Eine Bewertung ist erst nach abgeschlossener Zustellung möglich.',
  },
  'error.feedback_exists': {
    en: 'This delivery has been rated already.',
    de: 'Diese Zustellung wurde bereits bewertet.',
  },
};

/** 410: the link outlived TRACKING_LINK_TTL after the booking's last stop became final (decision 1100). */
export const trackingExpired = (): AppError => new AppError(410, 'tracking_expired', { key: 'error.tracking_expired' });

/**
 * The recipient's rating of the delivery, once per booking and only after its last drop-off was completed (docs/api-guide.md "Bookings, stops and tours"
 * §12): 409 `feedback_not_open` before, `feedback_exists` after the first. The booking row is locked, so two ratings at
 * once cannot both be stored; the event names no user (actor `system`: the recipient holds no identity, decision 1100).
 */
export async function recordTrackingFeedback(deps: Pick<Deps, 'db' | 'config' | 'clock'>, token: string, feedback: { rating: number; comment: string | null }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const link = await repo.findLinkByTokenHash(tx, hashTrackingToken(token));
    if (!link) throw notFound('tracking link');
    const [booking] = await bookingsRepo.findBookingsForUpdate(tx, link.tenantId, [link.bookingId]);
    if (!booking) throw notFound('tracking link');
    const finished = await repo.finishedAtOfBookings(tx, link.tenantId, [link.bookingId]);
    const expires = expiresAt(deps.config, finished.get(link.bookingId));
    const now = deps.clock.now();
    if (expires && now >= expires) throw trackingExpired();
    const stops = await stopsRepo.findStopsOfBookings(tx, link.tenantId, [link.bookingId]);
    const lastDropoff = stops.filter((s) => s.type === 'dropoff').sort((a, b) => b.position - a.position)[0];
    if (lastDropoff?.status !== 'completed') throw conflict('feedback_not_open', { key: 'error.feedback_not_open' });
    if (!(await repo.setFeedback(tx, link.tenantId, link.bookingId, { ...feedback, at: now }))) throw conflict('feedback_exists', { key: 'error.feedback_exists' });
    await recordEvent(tx, {
      tenantId: link.tenantId,
      actor: 'system',
      type: 'booking.feedback_received',
      resourceId: booking.id,
      data: { ...bookingEventData(booking), rating: feedback.rating, comment: feedback.comment },
      at: now,
    });
  });
}
