// What the public tracking read (the tracking module) reads of dispatch through a link's token: the booking's status,
// its stops, and the tour its next open stop is on with that tour's open stops in order — nothing of other bookings
// but their stops' places in the tour's order (to count them).
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Deps } from '../../../deps.ts';
import { combinedRead, decodeCombined, rowFromJson, type JsonPart } from '../../../db/json-read.ts';
import { rawStatement, runRaw } from '../../../db/prepared.ts';
import { recordEvent } from '../../../events/outbox.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import type { Messages } from '../../../http/i18n.ts';
import { bookingEventData } from '../settle.ts';
import type { StopRow } from '../stops/index.ts';
import { stopsRepository as stopsRepo } from '../stops/index.ts';
import { stops as stopsTable, type RecipientInstructions, type TourStatus } from '../tables.ts';
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
  /** When the booking's last stop became final (null while one is open): the link's time to live runs from here. */
  finishedAt: Date | null;
}

interface TrackedJson {
  tenant_id: string;
  booking_id: string;
  booking_status: string;
  feedback: [number, string | null] | null;
  stops: Record<string, unknown>[];
  tour: [string, TourStatus, string | null] | null;
  tour_open_stops: [string, string | null][];
}

/** What finishedAtOfBookings says of one booking, from its stops: the latest final time once every stop is final. */
function finishedAtOf(stops: readonly StopRow[]): Date | null {
  if (!stops.length || !stops.every((s) => isFinalStop(s.status))) return null;
  return new Date(Math.max(...stops.map((s) => (s.completedAt ?? s.failedAt ?? s.cancelledAt ?? s.updatedAt).getTime())));
}

function decodeTracked(json: unknown): TrackedBooking | null {
  if (!json) return null;
  const row = json as TrackedJson;
  const ordered = row.stops.map((s) => rowFromJson(stopsTable, s));
  return {
    tenantId: row.tenant_id,
    bookingId: row.booking_id,
    bookingStatus: row.booking_status,
    stops: ordered,
    feedback: row.feedback ? { rating: row.feedback[0], comment: row.feedback[1] } : null,
    tour: row.tour ? { id: row.tour[0], status: row.tour[1], driverId: row.tour[2] } : null,
    tourOpenStops: row.tour_open_stops.map(([id, bookingId]) => ({ id, bookingId })),
    finishedAt: finishedAtOf(ordered),
  };
}

/**
 * The public read's part of dispatch, for one statement with other modules' parts (db/json-read.ts): `from` is the
 * derived table (alias `tb`) of the booking a token tracks, `tracked` decodes it (null: no link has the token), the
 * keys are what other parts read by (the tenant, the tour, its driver, the booking's open stops as uuid[]), and
 * `params(token)` the statement's parameters: the token's hash, never the token (decision 1100).
 */
export function trackedBookingRead() {
  return {
    from: sql`${repo.trackedBookingSource(sql.placeholder('tokenHash'))} AS tb`,
    params: (token: string) => ({ tokenHash: hashTrackingToken(token) }),
    tracked: { sql: sql`tb.tracked`, decode: decodeTracked } satisfies JsonPart<TrackedBooking | null>,
    tenantId: sql`tb.tenant_id`,
    tourId: sql`tb.tour_id`,
    driverId: sql`tb.driver_id`,
    openStopIds: sql`tb.open_stop_ids`,
    /** The booking's service area: its clock dates the recipient's stop. */
    serviceAreaId: sql`tb.service_area_id`,
  };
}

/**
 * Which of `tokens` still have their link, as one part of a combined read (`tokenHashes`: a text[] expression of
 * `tokenHashes(tokens)`): a stream of a rotated link ends at its next change, a position included (decision 1102).
 */
export function liveTokensRead(tenantId: SQL | Placeholder, hashes: SQL) {
  return {
    sql: repo.existingTokenHashesSql(tenantId, hashes),
    decode: (json: unknown) => new Set(json as string[]),
  } satisfies JsonPart<Set<string>>;
}

/** The hashes liveTokensRead compares and answers with, in the order of `tokens`. */
export const tokenHashes = (tokens: readonly string[]): string[] => tokens.map(hashTrackingToken);

/** 404 for a token no link has, 410 past the link's time to live (decision 1100). */
export function trackedOrExpired(deps: Pick<Deps, 'config' | 'clock'>, tracked: TrackedBooking | null): TrackedBooking | 'expired' | null {
  if (!tracked) return null;
  const expires = expiresAt(deps.config, tracked.finishedAt);
  return expires && deps.clock.now() >= expires ? 'expired' : tracked;
}

const source = trackedBookingRead();
const PARTS = { tracked: source.tracked };
const READ = rawStatement('tracked_booking', sql`${combinedRead(PARTS)} FROM ${source.from}`);

/**
 * The booking a token tracks: null for a token no link has (404), `expired` past its time to live (410). The token is
 * hashed first and looked up by its hash, so the lookup compares no secret and costs the same for any token. One
 * prepared statement (the proof photo's read; the tracking read adds other modules' parts to the same source).
 */
export async function findTrackedBooking(deps: Pick<Deps, 'database' | 'config' | 'clock'>, token: string): Promise<TrackedBooking | 'expired' | null> {
  const [row] = await runRaw<Record<string, unknown>>(deps.database, READ, source.params(token));
  return trackedOrExpired(deps, decodeCombined(PARTS, row).tracked);
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
  'error.instructions_closed': {
    en: 'Instructions can no longer be changed: the delivery is finished.',
    de: 'Hinweise können nicht mehr geändert werden: die Zustellung ist abgeschlossen.',
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

/**
 * The recipient's own stops (contract §18): the drop-offs; the pickups only for a booking that has no drop-off (the
 * recipient is then the sender).
 */
export function recipientOwnStops<S extends Pick<StopRow, 'type'>>(stops: readonly S[]): S[] {
  const dropoffs = stops.filter((s) => s.type !== 'pickup');
  return dropoffs.length ? dropoffs : [...stops];
}

/**
 * The recipient's delivery instructions through the link (decision 1788), written on each of its own stops still open
 * by one conditional update: 409 `instructions_closed` when none is; 410 past the link's time to live. A second write
 * replaces the first. The event names no user (actor `system`: the recipient holds no identity, decision 1100).
 */
export async function recordRecipientInstructions(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  token: string,
  input: Omit<RecipientInstructions, 'updated_at'>,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const link = await repo.findLinkByTokenHash(tx, hashTrackingToken(token));
    if (!link) throw notFound('tracking link');
    const [booking] = await bookingsRepo.findBookings(tx, link.tenantId, [link.bookingId]);
    if (!booking) throw notFound('tracking link');
    const now = deps.clock.now();
    const finished = await repo.finishedAtOfBookings(tx, link.tenantId, [link.bookingId]);
    const expires = expiresAt(deps.config, finished.get(link.bookingId));
    if (expires && now >= expires) throw trackingExpired();
    const stops = await stopsRepo.findStopsOfBookings(tx, link.tenantId, [link.bookingId]);
    const instructions: RecipientInstructions = { ...input, updated_at: now.toISOString() };
    const own = recipientOwnStops(stops).map((s) => s.id);
    const written = await stopsRepo.setRecipientInstructions(tx, link.tenantId, own, instructions, now);
    if (!written.length) throw conflict('instructions_closed', { key: 'error.instructions_closed' });
    await recordEvent(tx, {
      tenantId: link.tenantId,
      actor: 'system',
      type: 'booking.recipient_instructions_updated',
      resourceId: booking.id,
      data: { ...bookingEventData(booking), stop_ids: written, instructions: { kind: input.kind, neighbour: input.neighbour, note: input.note } },
      at: now,
    });
  });
}
