// What the open tracking streams of one app watch (decision 1107): each link's facts, read once per change of its
// booking or tour and shared by every stream of the link; each tour's ETAs, read once per driver position and shared by
// every link on the tour; the position itself taken from the hub's message. One hub subscriber per tenant hands each
// change to the links it concerns by key, not to every stream of the tenant.
import type { Deps } from '../../deps.ts';
import type { Envelope } from '../../events/outbox.ts';
import { AppError } from '../../http/errors.ts';
import type { Lang } from '../../http/i18n.ts';
import { liveHubOf, type Subscriber } from '../live/index.ts';
import { trackedOrExpired } from '../dispatch/index.ts';
import { loadPositionChange, loadTrackingFacts, renderTracking } from './operations.ts';
import { isOpenStop, type TrackingFacts } from './views.ts';

/** One open stream as the feed sees it: its language, the JSON it last sent, how to send more. */
export interface TrackingClient {
  lang: Lang;
  /** The tracking object last written (JSON), so an equal one is not written again. */
  sent: string;
  closed: boolean;
  send(json: string): void;
  heartbeat(): void;
  close(): void;
}

interface Link {
  token: string;
  tenant: Tenant;
  facts: TrackingFacts;
  clients: Set<TrackingClient>;
  tour: TourWatch | null;
  /** A full read in flight; `again`: a change arrived during it, read once more after it. */
  reading: boolean;
  again: boolean;
  gone: boolean;
}

interface TourWatch {
  id: string;
  tenantId: string;
  links: Set<Link>;
  /** The newest position the hub told of (never older than what a read found). */
  position: TrackingFacts['position'];
  reading: boolean;
  again: boolean;
  /** Tour reads started: a link read that overlapped one reads the tour again after it (it may hold older ETAs). */
  reads: number;
}

interface Tenant {
  id: string;
  subscriber: Subscriber;
  joined: Promise<void>;
  byBooking: Map<string, Set<Link>>;
  tours: Map<string, TourWatch>;
  links: Set<Link>;
}

const POSITION = 'tour.driver_location_updated';

export interface TrackingFeed {
  /**
   * Adds a stream whose first frame showed `facts`. A link new to the feed is read once more after joining (a change
   * between the first read and joining would be lost); a known one only when the stream's facts differ from its own.
   */
  watch(token: string, facts: TrackingFacts, client: TrackingClient): Promise<void>;
  unwatch(token: string, client: TrackingClient): void;
}

const feeds = new WeakMap<Deps, TrackingFeed>();

/** The one feed of an app (its Deps), riding on its live hub (decision 1102). */
export function trackingFeedOf(deps: Deps): TrackingFeed {
  let feed = feeds.get(deps);
  if (!feed) feeds.set(deps, (feed = createTrackingFeed(deps)));
  return feed;
}

const newerPosition = (a: TrackingFacts['position'], b: TrackingFacts['position']): TrackingFacts['position'] =>
  !a ? b : !b ? a : b.recordedAt > a.recordedAt ? b : a;

export function createTrackingFeed(deps: Deps): TrackingFeed {
  const hub = liveHubOf(deps);
  const tenants = new Map<string, Tenant>();
  const links = new Map<string, Link>();

  const render = (link: Link, facts: TrackingFacts, lang: Lang, now: Date) => JSON.stringify(renderTracking({ config: deps.config, clock: { now: () => now } }, link.token, facts, lang));

  /** Writes the link's object to each client whose last frame differs; rendered once per language. */
  function publish(link: Link): void {
    const now = deps.clock.now();
    const byLang = new Map<Lang, string>();
    for (const client of link.clients) {
      let json = byLang.get(client.lang);
      if (json === undefined) byLang.set(client.lang, (json = render(link, link.facts, client.lang, now)));
      if (json !== client.sent) client.send(json);
    }
  }

  function tenantOf(tenantId: string): Tenant {
    let tenant = tenants.get(tenantId);
    if (tenant) return tenant;
    const subscriber: Subscriber = {
      tenantId,
      // The tenant's admin audience only tells the feed that something changed: it forwards nothing it hears, each link
      // renders its own object.
      viewer: { role: 'admin', userId: '', organizationIds: [] },
      credentialHash: null,
      filters: { tourId: null, types: null },
      deliver: (envelope) => heard(tenant!, envelope),
      heartbeat: () => {
        for (const link of tenant!.links) for (const client of link.clients) client.heartbeat();
      },
      close: () => {
        for (const link of [...tenant!.links]) for (const client of [...link.clients]) client.close();
      },
    };
    const joined = hub.add(subscriber).catch((err: unknown) => {
      if (tenants.get(tenantId) === tenant) tenants.delete(tenantId);
      throw err;
    });
    tenant = { id: tenantId, subscriber, joined, byBooking: new Map(), tours: new Map(), links: new Set() };
    tenants.set(tenantId, tenant);
    return tenant;
  }

  /** The tenant's entry once its subscriber is in the hub (a new one if the last link left while joining). */
  async function joinedTenant(tenantId: string): Promise<Tenant> {
    for (;;) {
      const tenant = tenantOf(tenantId);
      await tenant.joined;
      if (tenants.get(tenantId) === tenant) return tenant;
    }
  }

  /** A change of the tenant: a position moves its tour's links, anything else makes the links it names read again. */
  function heard(tenant: Tenant, envelope: Envelope): void {
    const tourId = typeof envelope.data.tour_id === 'string' ? envelope.data.tour_id : null;
    const location = envelope.data.location as { lat?: unknown; lng?: unknown; recorded_at?: unknown } | undefined;
    if (envelope.type === POSITION && location && tourId) {
      const tour = tenant.tours.get(tourId);
      if (tour && typeof location.lat === 'number' && typeof location.lng === 'number' && typeof location.recorded_at === 'string') {
        moved(tour, { lat: location.lat, lng: location.lng, recordedAt: new Date(location.recorded_at) });
      }
      return;
    }
    const concerned = new Set<Link>();
    const bookingId = typeof envelope.data.booking_id === 'string' ? envelope.data.booking_id : null;
    if (bookingId) for (const link of tenant.byBooking.get(bookingId) ?? []) concerned.add(link);
    if (tourId) for (const link of tenant.tours.get(tourId)?.links ?? []) concerned.add(link);
    for (const link of concerned) void reread(link);
  }

  /**
   * A driver position: the position comes from the message; the tour's ETAs and whether its links still exist are read
   * once for all its links (the position's write stored the ETAs before it notified); each link sends what changed.
   */
  function moved(tour: TourWatch, position: NonNullable<TrackingFacts['position']>): void {
    tour.position = newerPosition(tour.position, position);
    void rereadTour(tour);
  }

  async function rereadTour(tour: TourWatch): Promise<void> {
    if (tour.reading) {
      tour.again = true;
      return;
    }
    tour.reading = true;
    try {
      do {
        tour.again = false;
        tour.reads++;
        const members = [...tour.links];
        const ids = [...new Set(members.flatMap((link) => link.facts.tracked.stops.filter(isOpenStop).map((s) => s.id)))];
        let change: Awaited<ReturnType<typeof loadPositionChange>>;
        try {
          change = await loadPositionChange(deps, tour.tenantId, ids, members.map((link) => link.token));
        } catch (err) {
          deps.log.warn({ err }, 'tracking: stream read failed');
          continue;
        }
        for (const link of members) {
          if (link.gone || link.tour !== tour) continue;
          // Rotated (404) or expired (410) since: the link is over, and so are its streams.
          if (!change.live.has(link.token) || trackedOrExpired(deps, link.facts.tracked) !== link.facts.tracked) {
            for (const client of [...link.clients]) client.close();
            continue;
          }
          const etas = new Map<string, Date>();
          for (const s of link.facts.tracked.stops) {
            const eta = isOpenStop(s) ? change.etas.get(s.id) : undefined;
            if (eta) etas.set(s.id, eta);
          }
          const enRoute = link.facts.tracked.tour?.status === 'en_route';
          link.facts = { ...link.facts, etas, position: enRoute ? newerPosition(link.facts.position, tour.position) : link.facts.position };
          publish(link);
        }
      } while (tour.again && tour.links.size);
    } finally {
      tour.reading = false;
    }
  }

  /** Reads the link's facts again (one read at a time; changes meanwhile read once more after it) and sends them. */
  async function reread(link: Link): Promise<void> {
    if (link.reading) {
      link.again = true;
      return;
    }
    link.reading = true;
    try {
      do {
        link.again = false;
        const tour = link.tour;
        const reads = tour?.reads;
        let facts: TrackingFacts;
        try {
          facts = await loadTrackingFacts(deps, link.token);
        } catch (err) {
          // Rotated (404) or expired (410): the link is over, and so are its streams.
          if (err instanceof AppError && (err.status === 404 || err.status === 410)) {
            for (const client of [...link.clients]) client.close();
            return;
          }
          deps.log.warn({ err }, 'tracking: stream read failed');
          continue;
        }
        if (link.gone) return;
        place(link, facts);
        publish(link);
        // ETAs read for the tour while this read ran may be newer than the ones it found: read the tour again.
        if (tour && tour === link.tour && tour.reads !== reads) void rereadTour(tour);
      } while (link.again && !link.gone);
    } finally {
      link.reading = false;
    }
  }

  /** Takes `facts` for the link and files it under its (possibly new) tour; a position the hub told of stays if newer. */
  function place(link: Link, facts: TrackingFacts): void {
    const tourId = facts.tracked.tour?.id ?? null;
    if (link.tour && link.tour.id !== tourId) leaveTour(link);
    if (tourId && !link.tour) {
      let tour = link.tenant.tours.get(tourId);
      if (!tour) link.tenant.tours.set(tourId, (tour = { id: tourId, tenantId: link.tenant.id, links: new Set(), position: null, reading: false, again: false, reads: 0 }));
      tour.links.add(link);
      link.tour = tour;
    }
    const enRoute = facts.tracked.tour?.status === 'en_route';
    link.facts = enRoute && link.tour ? { ...facts, position: newerPosition(facts.position, link.tour.position) } : facts;
    if (link.tour && enRoute) link.tour.position = newerPosition(link.tour.position, facts.position);
  }

  function leaveTour(link: Link): void {
    const tour = link.tour;
    if (!tour) return;
    tour.links.delete(link);
    if (!tour.links.size) link.tenant.tours.delete(tour.id);
    link.tour = null;
  }

  function forget(link: Link): void {
    link.gone = true;
    links.delete(link.token);
    leaveTour(link);
    const tenant = link.tenant;
    const ofBooking = tenant.byBooking.get(link.facts.tracked.bookingId);
    ofBooking?.delete(link);
    if (ofBooking && !ofBooking.size) tenant.byBooking.delete(link.facts.tracked.bookingId);
    tenant.links.delete(link);
    leaveIfEmpty(tenant);
  }

  function leaveIfEmpty(tenant: Tenant): void {
    if (tenant.links.size || tenants.get(tenant.id) !== tenant) return;
    tenants.delete(tenant.id);
    // After the join completes: a subscriber removed before the hub added it would stay in the hub.
    void tenant.joined.then(() => hub.remove(tenant.subscriber)).catch(() => undefined);
  }

  return {
    async watch(token, facts, client) {
      const tenant = await joinedTenant(facts.tracked.tenantId);
      if (client.closed) return leaveIfEmpty(tenant);
      const known = links.get(token);
      if (known) {
        known.clients.add(client);
        const now = deps.clock.now();
        if (known.reading) known.again = true;
        else if (render(known, known.facts, client.lang, now) !== render(known, facts, client.lang, now)) void reread(known);
        return;
      }
      const link: Link = { token, tenant, facts, clients: new Set([client]), tour: null, reading: false, again: false, gone: false };
      links.set(token, link);
      tenant.links.add(link);
      const bookingId = facts.tracked.bookingId;
      (tenant.byBooking.get(bookingId) ?? tenant.byBooking.set(bookingId, new Set()).get(bookingId))?.add(link);
      place(link, facts);
      void reread(link);
    },
    unwatch(token, client) {
      const link = links.get(token);
      if (!link?.clients.delete(client)) return;
      if (!link.clients.size) forget(link);
    },
  };
}
