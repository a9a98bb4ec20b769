// The public tracking read (docs/tracking.md): anyone holding a link's token, no credential; 404 for a token no link
// has, 410 past the link's time to live (decision 1100).
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { t, type Lang, type Messages } from '../../http/i18n.ts';
import { findTrackedBooking, readProofImage, recordTrackingFeedback, trackingExpired, trackingProofPhotoUrl } from '../dispatch/index.ts';
import { findStopFailureReason } from '../failures/index.ts';
import { findUser } from '../identity/index.ts';
import { currentPositionOfTour } from '../live/index.ts';
import { hasPhotoFile, toTrackingView } from './views.ts';

export const messages: Messages = {
  'tracking.failure_unknown': { en: 'The delivery could not be made.', de: 'Die Zustellung war nicht möglich.' },
};

const reasonLabel = (key: string | null, lang: Lang): string => {
  const reason = key ? findStopFailureReason(key) : undefined;
  return reason ? reason.labels[lang] : t(lang, 'tracking.failure_unknown');
};

export async function readTracking(deps: Deps, token: string, lang: Lang) {
  return (await loadTracking(deps, token, lang)).view;
}

/**
 * The tracking object and where the recipient's next drop-off is, for the page's small map (decision 1104). The place
 * is the recipient's own; it is drawn on the page only, never added to the API's object (docs/tracking.md lists it).
 */
export async function readTrackingPage(deps: Deps, token: string, lang: Lang) {
  const { view, stop } = await loadTracking(deps, token, lang);
  return { view, stop };
}

/** The tracking object with what a stream needs to tell which changes concern it: the tenant, booking and tour. */
export async function loadTracking(deps: Deps, token: string, lang: Lang) {
  const tracked = await findTrackedBooking(deps.db, deps, token);
  if (tracked === null) throw notFound('tracking link');
  if (tracked === 'expired') throw trackingExpired();
  const openIds = tracked.stops.filter((s) => s.status !== 'completed' && s.status !== 'failed' && s.status !== 'cancelled').map((s) => s.id);
  const tour = tracked.tour;
  const [etas, driver, position] = await Promise.all([
    openIds.length ? deps.hooks.dispatch.stopEtas(deps.db, tracked.tenantId, openIds) : new Map<string, { eta: Date }>(),
    tour?.driverId ? findUser(deps.db, tracked.tenantId, tour.driverId) : null,
    tour?.status === 'en_route' ? currentPositionOfTour(deps.db, tracked.tenantId, tour.id) : null,
  ]);
  const view = toTrackingView({
    tracked,
    now: deps.clock.now(),
    lang,
    etas: new Map([...etas].map(([id, e]) => [id, e.eta])),
    driverName: driver?.name ?? null,
    position,
    reasonLabel,
    photoUrl: (index) => trackingProofPhotoUrl(deps.config, token, index),
  });
  const dropoff = tracked.stops.find((s) => s.type !== 'pickup' && openIds.includes(s.id)) ?? null;
  const stop = dropoff ? { lat: dropoff.lat, lng: dropoff.lng } : null;
  return { view, stop, tenantId: tracked.tenantId, bookingId: tracked.bookingId, tourId: tour?.id ?? null };
}

/** The recipient rates the delivery (docs/tracking.md): once, after the last drop-off was completed; answers the read. */
export async function giveFeedback(deps: Deps, token: string, input: { rating: number; comment?: string | undefined }, lang: Lang) {
  await recordTrackingFeedback(deps, token, { rating: input.rating, comment: input.comment?.trim() || null });
  return readTracking(deps, token, lang);
}

/**
 * GET /api/tracking/{token}/stops/{index}/proof/photo: the photo of the recipient's own completed stop, by its index
 * in the tracking object's `stops` (no other resource id on the tracking wire); 404 when it has none (any more).
 */
export async function readTrackingProofPhoto(deps: Deps, token: string, index: number) {
  const tracked = await findTrackedBooking(deps.db, deps, token);
  if (tracked === null) throw notFound('tracking link');
  if (tracked === 'expired') throw trackingExpired();
  const stop = tracked.stops[index];
  if (!stop || !hasPhotoFile(stop)) throw notFound('proof');
  return readProofImage(deps, tracked.tenantId, { ownerKind: 'stop', ownerId: stop.id }, 'photo');
}
