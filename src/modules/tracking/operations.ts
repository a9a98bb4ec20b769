// The public tracking read (docs/tracking.md): anyone holding a link's token, no credential; 404 for a token no link
// has, 410 past the link's time to live (decision 1100).
//
// One prepared statement (decision 1106): dispatch's derived table of the booking the token's hash finds (its stops,
// tour, the tour's open stops, feedback) with live's ETAs and the tour's position and identity's driver name as parts
// keyed on it. Nine statements built per request were most of its cost (docs/performance.md, "Tracking link"). The
// tenant's measured ETA error, which sizes the ETA window, comes from a per-tenant cache (decision 1786).
import { sql } from 'drizzle-orm';
import { combinedRead, decodeCombined } from '../../db/json-read.ts';
import { rawStatement, runRaw } from '../../db/prepared.ts';
import type { Deps } from '../../deps.ts';
import { notFound } from '../../http/errors.ts';
import { t, type Lang, type Messages } from '../../http/i18n.ts';
import {
  findTrackedBooking,
  liveTokensRead,
  readProofImage,
  recordTrackingFeedback,
  tokenHashes,
  trackedBookingRead,
  trackedOrExpired,
  trackingExpired,
  trackingProofPhotoUrl,
} from '../dispatch/index.ts';
import { findStopFailureReason } from '../failures/index.ts';
import { serviceAreaTimeZoneRead, tenantNameRead, userNameRead } from '../identity/index.ts';
import { currentPositionRead, stopEtasRead } from '../live/index.ts';
import { tenantEtaErrorShare } from './eta-error.ts';
import { baseUrl } from './notify.ts';
import { senderRead } from './sender-repository.ts';
import { hasPhotoFile, isOpenStop, toTrackingView, type TrackingFacts } from './views.ts';

export const messages: Messages = {
  'tracking.failure_unknown': { en: 'The delivery could not be made.', de: 'Die Zustellung war nicht möglich.' },
};

const reasonLabel = (key: string | null, lang: Lang): string => {
  const reason = key ? findStopFailureReason(key) : undefined;
  return reason ? reason.labels[lang] : t(lang, 'tracking.failure_unknown');
};

const source = trackedBookingRead();
const PARTS = {
  tracked: source.tracked,
  etas: stopEtasRead(source.tenantId, source.openStopIds),
  position: currentPositionRead(source.tenantId, source.tourId),
  driverName: userNameRead(source.tenantId, source.driverId),
  sender: senderRead(source.tenantId),
  tenantName: tenantNameRead(source.tenantId),
  timeZone: serviceAreaTimeZoneRead(source.tenantId, source.serviceAreaId),
};
const READ = rawStatement('tracking_read', sql`${combinedRead(PARTS)} FROM ${source.from}`);

const ph = (name: string) => sql.placeholder(name);
const POSITION_PARTS = {
  etas: stopEtasRead(sql`${ph('tenantId')}::uuid`, sql`${ph('stopIds')}::uuid[]`),
  live: liveTokensRead(sql`${ph('tenantId')}::uuid`, sql`${ph('hashes')}::text[]`),
};
const POSITION_READ = rawStatement('tracking_position_read', combinedRead(POSITION_PARTS));

/**
 * What a driver position changes for the streams of a tour (decision 1107), in one round trip: the ETAs of `stopIds`
 * (the position's write stored them before it notified) and which of `tokens` still have their link (a rotated link's
 * streams end at this change).
 */
export async function loadPositionChange(deps: Deps, tenantId: string, stopIds: string[], tokens: string[]): Promise<{ etas: Map<string, Date>; live: Set<string> }> {
  const hashes = tokenHashes(tokens);
  const [row] = await runRaw<Record<string, unknown>>(deps.database, POSITION_READ, { tenantId, stopIds, hashes });
  const read = decodeCombined(POSITION_PARTS, row);
  return { etas: read.etas, live: new Set(tokens.filter((_, i) => read.live.has(hashes[i]!))) };
}

/** The facts behind a token's tracking object, in one round trip; 404 / 410 as the read answers them. */
export async function loadTrackingFacts(deps: Deps, token: string): Promise<TrackingFacts> {
  const [row] = await runRaw<Record<string, unknown>>(deps.database, READ, source.params(token));
  // No row: no link has the token's hash (never made, or rotated away) — the same path either way (decision 1105).
  const read = row ? decodeCombined(PARTS, row) : null;
  const tracked = trackedOrExpired(deps, read?.tracked ?? null);
  if (tracked === null || read === null) throw notFound('tracking link');
  if (tracked === 'expired') throw trackingExpired();
  return {
    tracked,
    etas: read.etas,
    driverName: read.driverName,
    position: tracked.tour?.status === 'en_route' ? read.position : null,
    sender: { name: read.sender?.name ?? read.tenantName ?? '', logoSha256: read.sender?.logoSha256 ?? null, color: read.sender?.color ?? null },
    timeZone: read.timeZone,
    // Kept per tenant in this process, not a part of the statement: a fortnight's aggregate is no per-read cost.
    etaErrorShare: await tenantEtaErrorShare(deps, tracked.tenantId),
  };
}

/** The sender's logo behind a token, by its hash: a new logo is a new address, so an old one may be cached for long. */
export const trackingLogoUrl = (config: Deps['config'], token: string, sha256: string): string =>
  `${baseUrl(config)}/api/tracking/${token}/logo?v=${sha256.slice(0, 12)}`;

/** The tracking object of `facts` in `lang`, as of now (ETA windows narrow with time). */
export function renderTracking(deps: Pick<Deps, 'clock' | 'config'>, token: string, facts: TrackingFacts, lang: Lang) {
  return toTrackingView({
    ...facts,
    now: deps.clock.now(),
    lang,
    reasonLabel,
    photoUrl: (index) => trackingProofPhotoUrl(deps.config, token, index),
    logoUrl: (sha256) => trackingLogoUrl(deps.config, token, sha256),
  });
}

export async function readTracking(deps: Deps, token: string, lang: Lang) {
  return renderTracking(deps, token, await loadTrackingFacts(deps, token), lang);
}

/**
 * The tracking object, where the recipient's next drop-off is, for the page's small map (decision 1105), and the
 * sender's colour (decision 1784). Both are drawn on the page only, never added to the API's object (docs/tracking.md
 * lists it).
 */
export async function readTrackingPage(deps: Deps, token: string, lang: Lang) {
  const facts = await loadTrackingFacts(deps, token);
  const dropoff = facts.tracked.stops.find((s) => s.type !== 'pickup' && isOpenStop(s)) ?? null;
  return { view: renderTracking(deps, token, facts, lang), stop: dropoff ? { lat: dropoff.lat, lng: dropoff.lng } : null, color: facts.sender.color };
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
  const tracked = await findTrackedBooking(deps, token);
  if (tracked === null) throw notFound('tracking link');
  if (tracked === 'expired') throw trackingExpired();
  const stop = tracked.stops[index];
  if (!stop || !hasPhotoFile(stop)) throw notFound('proof');
  return readProofImage(deps, tracked.tenantId, { ownerKind: 'stop', ownerId: stop.id }, 'photo');
}
