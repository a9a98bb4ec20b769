// The recipient moves its delivery to a later day through the tracking link (docs/tracking.md "A later day", decision
// 1788): where the service area allows it (`recipient_reschedule_days`), once per booking, while nothing of the booking
// is under way. The booking's open stops keep their wall-clock windows on the new day and leave their tour, so the
// booking is planned again, whole, for that day.
import type { Deps } from '../../../deps.ts';
import type { Tx } from '../../../db/client.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { type AppError, conflict, invalidFields, notFound } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { addDays, daysBetween, localDay, shiftLocalDays } from '../../../shared/local-time.ts';
import { findServiceArea } from '../../identity/index.ts';
import { bookingEventData, recordBookingModified, settle, tourEventData } from '../settle.ts';
import { ToursChangedMeanwhile, startingOverWhenToursChanged } from '../start-over.ts';
import { stopsRepository as stopsRepo, type StopRow } from '../stops/index.ts';
import { compactTour } from '../tours/merge-and-insert.ts';
import { toursRepository as toursRepo } from '../tours/index.ts';
import { isFinalStop } from './booking-status.ts';
import * as bookingsRepo from './repository.ts';
import { recipientOwnStops, trackingExpired } from './tracked-booking.ts';
import { expiresAt, hashTrackingToken } from './tracking-links.ts';
import * as repo from './tracking-repository.ts';

export const messages: Messages = {
  'error.delivery_date_closed.not_offered': { en: 'The sender does not offer another delivery day.', de: 'Der Absender bietet keinen anderen Zustelltag an.' },
  'error.delivery_date_closed.moved': { en: 'The delivery day was changed once already.', de: 'Der Zustelltag wurde bereits einmal geändert.' },
  'error.delivery_date_closed.under_way': {
    en: 'The delivery day can no longer be changed: the delivery is under way or done.',
    de: 'Der Zustelltag kann nicht mehr geändert werden: die Zustellung ist unterwegs oder erledigt.',
  },
  'error.delivery_date_closed.no_day': { en: 'The delivery has no day yet to change.', de: 'Die Zustellung hat noch keinen Tag, der sich ändern ließe.' },
};

/** What the recipient may do with its delivery's day, and why not when it may not. */
export interface DeliveryDate {
  /** The recipient's stop's day on the area's clock (its time window's); null without a window. */
  date: string | null;
  /** The days it may move to, in order; empty when it may not. */
  options: string[];
  /** Why it may not: `not_offered`, `moved`, `under_way`, `no_day`; null when it may. */
  closed: 'not_offered' | 'moved' | 'under_way' | 'no_day' | null;
  /** The day the recipient moved it from; null until then. */
  movedFrom: string | null;
}

/** A stop the driver has not set out for: it may still change its day. */
const untouched = (s: StopRow): boolean => s.status === 'to_be_dispatched' || s.status === 'scheduled' || s.status === 'cancelled';

/**
 * The rule, pure: the anchor is the recipient's first open stop with a time window; the days offered are the next
 * `days` after it that are later than today on the area's clock. Closed once moved, once any stop of the booking is
 * approached, reached or done (the parcel may be in the van), or when the area offers no days.
 */
export function deliveryDateOf(stops: readonly StopRow[], movedFrom: string | null, area: { days: number; timeZone: string }, now: Date): DeliveryDate {
  const own = recipientOwnStops(stops).filter((s) => !isFinalStop(s.status));
  const anchor = own.find((s) => s.timeWindowStartsAt !== null);
  const date = anchor?.timeWindowStartsAt ? localDay(anchor.timeWindowStartsAt, area.timeZone) : null;
  const closed =
    area.days <= 0 ? 'not_offered' : movedFrom !== null ? 'moved' : !own.length || !stops.every(untouched) ? 'under_way' : date === null ? 'no_day' : null;
  if (closed || date === null) return { date, options: [], closed, movedFrom };
  const today = localDay(now, area.timeZone);
  const options = Array.from({ length: area.days }, (_, i) => addDays(date, i + 1)).filter((day) => day > today);
  return { date, options, closed: null, movedFrom };
}

async function linkOf(tx: Tx, deps: Pick<Deps, 'config' | 'clock'>, token: string) {
  const link = await repo.findLinkByTokenHash(tx, hashTrackingToken(token));
  if (!link) throw notFound('tracking link');
  const finished = await repo.finishedAtOfBookings(tx, link.tenantId, [link.bookingId]);
  const expires = expiresAt(deps.config, finished.get(link.bookingId));
  if (expires && deps.clock.now() >= expires) throw trackingExpired();
  return link;
}

async function areaRule(tx: Tx, tenantId: string, serviceAreaId: string) {
  const area = await findServiceArea(tx, tenantId, serviceAreaId);
  return { days: area?.recipientRescheduleDays ?? 0, timeZone: area?.timeZone ?? 'UTC' };
}

/** GET /api/tracking/{token}/delivery_date: the day, the days offered, and whether it may move (404, 410 as the read). */
export async function trackedDeliveryDate(deps: Pick<Deps, 'db' | 'config' | 'clock'>, token: string): Promise<DeliveryDate> {
  return deps.db.transaction(async (tx) => {
    const link = await linkOf(tx, deps, token);
    const [booking] = await bookingsRepo.findBookings(tx, link.tenantId, [link.bookingId]);
    if (!booking) throw notFound('tracking link');
    const stops = await stopsRepo.findStopsOfBookings(tx, link.tenantId, [link.bookingId]);
    return deliveryDateOf(stops, booking.recipientRescheduledFrom, await areaRule(tx, link.tenantId, booking.serviceAreaId), deps.clock.now());
  });
}

/** 409 delivery_date_closed, with the reason in words. */
const closedError = (reason: NonNullable<DeliveryDate['closed']>): AppError => conflict('delivery_date_closed', { key: `error.delivery_date_closed.${reason}` }, { reason });

/**
 * PUT /api/tracking/{token}/delivery_date: moves the booking to `date`, one of the days offered. Under the locks of
 * the booking's tours and then the booking (the order every writer takes), the rule is decided on what they hold: a
 * driver approaching a stop meanwhile closes it (409). Every open stop keeps its wall-clock window on the new day and
 * leaves its tour; the tours close their gaps; settle makes the booking `to_be_dispatched` again. Events:
 * `booking.delivery_date_changed` (actor `system`: the recipient holds no identity), booking.modified and
 * route_changed, tour.modified.
 */
export async function moveDeliveryDate(deps: Deps, token: string, date: string): Promise<void> {
  const at = deps.clock.now();
  await startingOverWhenToursChanged(() =>
    deps.db.transaction(async (tx) => {
      const link = await linkOf(tx, deps, token);
      const { tenantId, bookingId } = link;
      const locked = await stopsRepo.tourIdsOfBookings(tx, tenantId, [bookingId]);
      await toursRepo.findToursForUpdate(tx, tenantId, locked);
      const [booking] = await bookingsRepo.findBookingsForUpdate(tx, tenantId, [bookingId]);
      if (!booking) throw notFound('tracking link');
      const tourIds = await stopsRepo.tourIdsOfBookings(tx, tenantId, [bookingId]);
      if (tourIds.some((tourId) => !locked.includes(tourId))) throw new ToursChangedMeanwhile();
      const stops = await stopsRepo.findStopsOfBookings(tx, tenantId, [bookingId]);
      const area = await areaRule(tx, tenantId, booking.serviceAreaId);
      const rule = deliveryDateOf(stops, booking.recipientRescheduledFrom, area, at);
      if (rule.closed) throw closedError(rule.closed);
      if (!rule.options.includes(date)) {
        throw invalidFields([{ pointer: '/delivery_date/date', code: 'invalid_value', detail: `must be one of the days offered: ${rule.options.join(', ')}` }]);
      }
      const days = daysBetween(rule.date!, date);
      const shift = (instant: Date | null) => (instant ? shiftLocalDays(instant, days, area.timeZone) : null);
      for (const stop of stops.filter((s) => !isFinalStop(s.status))) {
        await stopsRepo.updateStop(tx, tenantId, stop.id, {
          timeWindowStartsAt: shift(stop.timeWindowStartsAt),
          timeWindowEndsAt: shift(stop.timeWindowEndsAt),
          tourId: null,
          tourPosition: null,
          status: 'to_be_dispatched',
          eta: null,
          updatedAt: at,
        });
      }
      await bookingsRepo.updateBooking(tx, tenantId, bookingId, { recipientRescheduledFrom: rule.date, scheduledAt: shift(booking.scheduledAt), updatedAt: at });
      await recordEvent(tx, {
        tenantId,
        actor: 'system',
        type: 'booking.delivery_date_changed',
        resourceId: bookingId,
        at,
        data: { ...bookingEventData(booking), from_date: rule.date, to_date: date },
      });
      await recordBookingModified(tx, tenantId, 'system', at, booking, tourIds.length > 0);
      for (const tourId of tourIds) {
        await compactTour(tx, tenantId, tourId, at);
        const tour = await toursRepo.findTour(tx, tenantId, tourId);
        if (tour) await recordEvent(tx, { tenantId, actor: 'system', type: 'tour.modified', resourceId: tourId, at, data: tourEventData(tour) });
      }
      await settle(tx, deps.hooks.dispatch, { tenantId, actor: 'system', at, bookingIds: [bookingId], tourIds, event: 'recipient_reschedule' });
    }),
  );
}
