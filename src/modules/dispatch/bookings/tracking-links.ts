// A booking's recipient tracking link (docs/tracking.md, decision 1100): the token derived under the master key, its
// hash stored, the link rendered on bookings, rotated, and looked up by the public read.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Deps } from '../../../deps.ts';
import type { Queryable } from '../../../db/client.ts';
import type { Actor } from '../../../http/actor.ts';
import { masterKeyRingFor } from '../../../crypto/master-key.ts';
import type { MasterKey } from '../../../crypto/key-wrap.ts';
import { iso } from '../../../shared/time.ts';
import { requireBooking } from '../access.ts';
import type { StopRow } from '../stops/index.ts';
import { isFinalStop } from './booking-status.ts';
import { dispatchPermissions } from '../permissions.ts';
import * as repo from './tracking-repository.ts';

export type LinkDeps = Pick<Deps, 'config' | 'clock'>;

export interface TrackingLinkView {
  url: string;
  expires_at: string | null;
}

/** What a token is checked against: SHA-256 of the token, hex (the token has 256 bits; no slow hash needed). */
export const hashTrackingToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * The token of a link: HMAC-SHA-256 under the master key of the tenant, booking and the link's random nonce
 * (256 bits, base64url). The database holds the nonce and the token's hash, never the token (decision 1100).
 */
const deriveToken = (key: MasterKey, tenantId: string, bookingId: string, nonce: string): string =>
  createHmac('sha256', key.key).update(`tourbook-tracking-link\0${tenantId}\0${bookingId}\0${nonce}`).digest('base64url');

/** A fresh link under the current key; the nonce names that key so a rotated master key can tell its links apart. */
function newLink(key: MasterKey, tenantId: string, bookingId: string) {
  const nonce = `${key.id}.${randomBytes(16).toString('base64url')}`;
  const token = deriveToken(key, tenantId, bookingId, nonce);
  return { nonce, token, tokenHash: hashTrackingToken(token) };
}

/** The token of a stored link, or null when the master key it was derived under is no longer held. */
function tokenOf(ring: readonly MasterKey[], link: repo.TrackingLinkRow): string | null {
  const key = ring.find((k) => link.nonce.startsWith(`${k.id}.`));
  if (!key) return null;
  const token = deriveToken(key, link.tenantId, link.bookingId, link.nonce);
  return hashTrackingToken(token) === link.tokenHash ? token : null;
}

/**
 * The base of every link: PUBLIC_URL, else the address the service listens on — never the request's Host header, which
 * a caller chooses (decision 1100; the same fallback as report and tip e-mails).
 */
const baseUrl = (config: Deps['config']): string => (config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');

export const trackingPageUrl = (config: Deps['config'], token: string): string => `${baseUrl(config)}/track/${token}`;

/** A tracked stop's proof photo, by the token and the stop's index in the tracking object's `stops` (decision 1250). */
export const trackingProofPhotoUrl = (config: Deps['config'], token: string, index: number): string =>
  `${baseUrl(config)}/api/tracking/${token}/stops/${index}/proof/photo`;

/** When the link stops answering: the TTL after the booking's last stop reached a final state; null while it is open. */
export const expiresAt = (config: Deps['config'], finishedAt: Date | null | undefined): Date | null =>
  finishedAt ? new Date(finishedAt.getTime() + config.trackingLinkTtlSeconds * 1000) : null;

/** What a caller may already hold of each booking: every one of its stops, and its link row when that was read (null: none). */
export interface HeldForLinks {
  stops: readonly StopRow[];
  trackingLink?: repo.TrackingLinkRow | null;
}

/**
 * What finishedAtOfBookings reads, from every stop of each booking held already: when the last stop reached its final
 * state, for the bookings whose stops are all final.
 */
function finishedAtFromStops(bookingIds: readonly string[], held: ReadonlyMap<string, HeldForLinks>): Map<string, Date> {
  const finished = new Map<string, Date>();
  for (const id of bookingIds) {
    const stops = held.get(id)?.stops ?? [];
    if (!stops.length || !stops.every((s) => isFinalStop(s.status))) continue;
    finished.set(id, new Date(Math.max(...stops.map((s) => (s.completedAt ?? s.failedAt ?? s.cancelledAt ?? s.updatedAt).getTime()))));
  }
  return finished;
}

/** The link rows held for every booking, or null when any booking's link was not read with it. */
function heldLinks(bookingIds: readonly string[], held: ReadonlyMap<string, HeldForLinks>): repo.TrackingLinkRow[] | null {
  const rows: repo.TrackingLinkRow[] = [];
  for (const id of bookingIds) {
    const link = held.get(id)?.trackingLink;
    if (link === undefined) return null;
    if (link) rows.push(link);
  }
  return rows;
}

/**
 * Each booking's link, made on first render for bookings that have none (those created before links existed; a new
 * booking's create writes its own, decision 1453). Empty when the server holds no master key (a test app on
 * PostgreSQL without one: `serve` refuses to start so, decision 0207). `held`: what the caller holds of every booking
 * (all of its stops, maybe its link row), which spares reading them again (decision 1453).
 */
export async function trackingLinksOf(
  q: Queryable,
  deps: LinkDeps,
  tenantId: string,
  bookingIds: readonly string[],
  held?: ReadonlyMap<string, HeldForLinks>,
): Promise<Map<string, TrackingLinkView>> {
  const ring = masterKeyRingFor(deps.config);
  const links = new Map<string, TrackingLinkView>();
  if (!ring.length || !bookingIds.length) return links;
  const [current] = ring as [MasterKey];
  const [stored, finished] = await Promise.all([
    (held && heldLinks(bookingIds, held)) ?? repo.findLinks(q, tenantId, bookingIds),
    held ? finishedAtFromStops(bookingIds, held) : repo.finishedAtOfBookings(q, tenantId, bookingIds),
  ]);
  const tokens = new Map<string, string>();
  for (const link of stored) {
    const token = tokenOf(ring, link);
    if (token) tokens.set(link.bookingId, token);
    else {
      // Derived under a master key that was retired since: the old link could not be shown again, so it is re-issued.
      const fresh = newLink(current, tenantId, link.bookingId);
      await repo.replaceLink(q, tenantId, link.bookingId, fresh);
      tokens.set(link.bookingId, fresh.token);
    }
  }
  const missing = bookingIds.filter((id) => !stored.some((link) => link.bookingId === id));
  if (missing.length) {
    const now = deps.clock.now();
    const fresh = missing.map((bookingId) => ({ bookingId, ...newLink(current, tenantId, bookingId) }));
    await repo.insertLinks(q, fresh.map(({ bookingId, nonce, tokenHash }) => ({ tenantId, bookingId, nonce, tokenHash, createdAt: now, feedbackRating: null, feedbackComment: null, feedbackAt: null })));
    // Two first renders at once: one insert wins, and both show its link.
    for (const link of await repo.findLinks(q, tenantId, missing)) {
      const token = tokenOf(ring, link);
      if (token) tokens.set(link.bookingId, token);
    }
  }
  for (const [bookingId, token] of tokens) {
    const expires = expiresAt(deps.config, finished.get(bookingId));
    links.set(bookingId, { url: trackingPageUrl(deps.config, token), expires_at: expires ? iso(expires) : null });
  }
  return links;
}

/** Whether the caller's booking responses carry `tracking`: admins, managers and customers; never drivers. */
export const showsTrackingLink = (actor: Pick<Actor, 'role'>): boolean => dispatchPermissions.may(actor, 'tracking_link');

/**
 * A new booking's link row, made by its create when the creator's response shows links (decision 1453): the create
 * writes it in its own statement and renders from it. Null without a master key or for a caller who is not shown
 * links; the link is then made on first render, as for any booking.
 */
export function newBookingLink(deps: LinkDeps, actor: Pick<Actor, 'role' | 'tenantId'>, bookingId: string, at: Date): repo.TrackingLinkRow | null {
  const [current] = masterKeyRingFor(deps.config);
  if (!current || !showsTrackingLink(actor)) return null;
  const { nonce, tokenHash } = newLink(current, actor.tenantId, bookingId);
  return { tenantId: actor.tenantId, bookingId, nonce, tokenHash, createdAt: at, feedbackRating: null, feedbackComment: null, feedbackAt: null };
}

/** Gives the booking a new link: the old token answers 404 from this commit on (docs/tracking.md). */
export async function rotateTrackingLink(deps: Deps, actor: Actor, id: string): Promise<void> {
  dispatchPermissions.require(actor, 'tracking_link');
  await deps.db.transaction(async (tx) => {
    await requireBooking(tx, actor, id, { forUpdate: true });
    const [current] = masterKeyRingFor(deps.config);
    if (!current) return;
    const fresh = newLink(current, actor.tenantId, id);
    const [stored] = await repo.findLinks(tx, actor.tenantId, [id]);
    if (stored) await repo.replaceLink(tx, actor.tenantId, id, fresh);
    else await repo.insertLinks(tx, [{ tenantId: actor.tenantId, bookingId: id, nonce: fresh.nonce, tokenHash: fresh.tokenHash, createdAt: deps.clock.now(), feedbackRating: null, feedbackComment: null, feedbackAt: null }]);
  });
}
