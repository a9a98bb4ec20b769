// The tracking object from what the read loaded (docs/tracking.md): pure, no queries. Only the fields listed there.
import type { Lang } from '../../http/i18n.ts';

import { iso, isoOrNull } from '../../shared/time.ts';
import { isFinalStop, isHeldByDriver, recipientOwnStops, type TrackedBooking } from '../dispatch/index.ts';

/** What the tracking object is rendered from: the same for every language and every stream of one link. */
export interface TrackingFacts {
  tracked: TrackedBooking;
  /** ETAs of the booking's open stops (live's `stop_etas`). */
  etas: Map<string, Date>;
  driverName: string | null;
  /** The tour's current position (while it is en route). */
  position: { lat: number; lng: number; recordedAt: Date } | null;
  /** Who sends (decision 1784): the sender name, else the tenant's; the logo's hash and the colour, when it has them. */
  sender: { name: string; logoSha256: string | null; color: string | null };
  /** The booking's service area's clock: it dates the recipient's stop. Null only for an area gone missing. */
  timeZone: string | null;
  /**
   * The share of the time to go the tenant's recent ETAs stayed within for 80 % of its stops (decision 1786), null
   * with too few measured: it sizes the window once the driver heads here.
   */
  etaErrorShare: number | null;
}

export interface ViewInput extends TrackingFacts {
  now: Date;
  lang: Lang;
  reasonLabel: (key: string | null, lang: Lang) => string;
  /** The link to the proof photo of the stop at this index of `stops` (the token's own route, decision 1250). */
  photoUrl: (index: number) => string;
  /** The link to the sender's logo of this hash (the token's own route, decision 1784). */
  logoUrl: (sha256: string) => string;
}

/**
 * How far an ETA may be off either way: a fifth of the time still to go, at least five minutes (decision 1101). Once
 * the driver heads for this stop it is the tenant's measured share of the time to go (`errorShare`; a fifth while too
 * few stops were measured), between 3 and 15 minutes: at most 30 minutes wide, narrowing as the stop comes near
 * (contract §18, decisions 1784, 1786). The window never opens in the past, and never closes before it opens.
 */
export function etaWindow(eta: Date, now: Date, headingHere = false, errorShare: number | null = null): { earliest: string; latest: string } {
  const toGo = eta.getTime() - now.getTime();
  const margin = headingHere
    ? Math.min(HEADING_MARGIN_MAX_MS, Math.max(HEADING_MARGIN_MIN_MS, errorShare === null ? toGo / 5 : toGo * errorShare))
    : Math.max(5 * 60_000, toGo / 5);
  const earliest = Math.max(now.getTime(), eta.getTime() - margin);
  return { earliest: iso(new Date(earliest)), latest: iso(new Date(Math.max(earliest, eta.getTime() + margin))) };
}

const HEADING_MARGIN_MAX_MS = 15 * 60_000;
const HEADING_MARGIN_MIN_MS = 3 * 60_000;

/** One formatter per zone: building one costs more than the rest of the view (the read is a hot path). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The day of `at` on the clock of `timeZone`, as YYYY-MM-DD (en-CA writes ISO dates). */
function localDate(at: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  let format = dayFormats.get(zone);
  if (!format) dayFormats.set(zone, (format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(at);
}

/** The recipient's own stops (contract §18; dispatch's rule): only they carry the address and the date. */
export const ownStopIds = (stops: readonly TrackedStop[]): Set<string> => new Set(recipientOwnStops(stops).map((s) => s.id));

const firstName = (name: string): string => name.trim().split(/\s+/)[0] ?? '';

type TrackedStop = TrackedBooking['stops'][number];

/** A stop that takes more steps: dispatch's one list of final statuses decides (decision 0215). */
export const isOpenStop = (s: Pick<TrackedStop, 'status'>): boolean => !isFinalStop(s.status);

/** A driver holds the tour: the tour machine's statuses (decision 0215). */
const tourActive = (tracked: TrackedBooking): boolean => tracked.tour !== null && isHeldByDriver(tracked.tour.status);

/** Whether the read shows the driver's position: the tour is en route and its next open stop is this booking's. */
function headsHere(tracked: TrackedBooking): boolean {
  const next = tracked.tourOpenStops[0];
  return tracked.tour?.status === 'en_route' && next !== undefined && tracked.stops.some((s) => s.id === next.id);
}

/** A completed stop whose proof photo is kept as a file (and not yet deleted by retention). */
export const hasPhotoFile = (s: TrackedStop): boolean =>
  s.status === 'completed' && Boolean(s.proof?.files?.includes('photo')) && !s.proof?.deleted_at;

/** The tracking object: the booking's stops, the driver's first name and, only while it heads to this booking, where. */
export function toTrackingView(facts: ViewInput) {
  const { tracked, now, lang, etas } = facts;
  const own = new Set(tracked.stops.map((s) => s.id));
  const active = tourActive(tracked);
  const headingHere = headsHere(tracked);
  const firstOwn = tracked.tourOpenStops.findIndex((s) => own.has(s.id));
  const stopsBefore = active && !headingHere && firstOwn > 0 ? firstOwn : null;
  const window = (s: TrackedStop) =>
    s.timeWindowStartsAt && s.timeWindowEndsAt ? { starts_at: iso(s.timeWindowStartsAt), ends_at: iso(s.timeWindowEndsAt) } : null;
  const recipients = ownStopIds(tracked.stops);
  const heading = headingHere ? tracked.tourOpenStops[0]?.id : undefined;
  return {
    booking_status: tracked.bookingStatus,
    sender: { name: facts.sender.name, logo_url: facts.sender.logoSha256 ? facts.logoUrl(facts.sender.logoSha256) : null },
    stops: tracked.stops.map((s, index) => {
      const open = isOpenStop(s);
      const eta = open ? (etas.get(s.id) ?? s.eta ?? null) : null;
      const day = s.timeWindowStartsAt ?? eta ?? s.completedAt ?? s.failedAt ?? null;
      const reattempt = tracked.stops.find((r) => r.recoveryOfStopId === s.id && r.recoveryKind === 'reattempt');
      return {
        kind: s.type === 'pickup' ? ('pickup' as const) : ('dropoff' as const),
        status: s.status,
        time_window: window(s),
        eta: isoOrNull(eta),
        eta_window: eta ? etaWindow(eta, now, s.id === heading, facts.etaErrorShare) : null,
        completed_at: isoOrNull(s.completedAt),
        failure: s.status === 'failed' && s.failure ? { reason: facts.reasonLabel(s.failure.reason_key, lang) } : null,
        next_attempt: s.status === 'failed' && reattempt ? { time_window: window(reattempt) } : null,
        proof: s.status === 'completed' && s.proof ? { recipient_name: s.proof.recipient_name ?? null, photo_url: hasPhotoFile(s) ? facts.photoUrl(index) : null } : null,
        ...(recipients.has(s.id)
          ? {
              address: { street: s.address.street, number: s.address.number ?? null, zip_code: s.address.zip_code ?? null, city: s.address.city },
              date: day ? localDate(day, facts.timeZone) : null,
            }
          : {}),
      };
    }),
    driver:
      active && facts.driverName
        ? {
            first_name: firstName(facts.driverName),
            position: headingHere && facts.position ? { lat: facts.position.lat, lng: facts.position.lng, recorded_at: iso(facts.position.recordedAt) } : null,
          }
        : null,
    stops_before_yours: stopsBefore,
    feedback: tracked.feedback ? { rating: tracked.feedback.rating, comment: tracked.feedback.comment } : null,
  };
}

