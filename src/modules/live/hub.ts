// The live hub of one API process: fans driver positions (LISTEN/NOTIFY) and outbox events (one shared poller)
// out to this process's open streams, each through the visibility rule (decision 0902).
import { and, asc, eq, gt, gte, inArray } from 'drizzle-orm';
import type { PoolClient } from 'pg';
import type { Deps } from '../../deps.ts';
import { toEnvelope, type Envelope } from '../../events/outbox.ts';
import { events } from '../../events/tables.ts';
import { isUuid } from '../../shared/ids.ts';
import { findActiveCredential } from '../identity/index.ts';
import { passesFilters, type ResourceFacts, type StreamFilters, type Viewer } from './audience.ts';
import { sameSightKey, seesEvent, seesPosition } from './access.ts';
import { bookingFactsOf, tourFactsOf } from './dispatch-port.ts';
import { LIVE_CHANNEL, type PositionNotice } from './views.ts';

export interface Subscriber {
  tenantId: string;
  viewer: Viewer;
  /** The credential the stream stands for, re-checked every revalidateMs; null for a stream that has none (a recipient's tracking link). */
  credentialHash: string | null;
  filters: StreamFilters;
  deliver(envelope: Envelope, frame: string): void;
  heartbeat(): void;
  close(): void;
}

export interface LiveHub {
  add(subscriber: Subscriber): Promise<void>;
  remove(subscriber: Subscriber): void;
  /**
   * Events of the tenant after `afterId` from the last `windowMs`, as the subscriber may see them (Last-Event-ID):
   * every event, but of positions only the latest of each driver (decision 0118).
   */
  backlog(subscriber: Subscriber, afterId: string, windowMs: number): Promise<Envelope[]>;
  /** How many streams are open (metrics, tests). */
  size(): number;
  stop(): Promise<void>;
}

export interface HubOptions {
  pollMs: number;
  /** Outbox rows per page (tests make it small). */
  pollBatch?: number;
  heartbeatMs: number;
  revalidateMs: number;
}

/** The outbox is read again this far behind the newest event seen: a transaction may commit after a later one. */
const LOOKBACK_MS = 2_000;
const POLL_BATCH = 1_000;
/** Pages one poll reads at most before it yields to the next interval (and resumes where it stopped). */
const MAX_PAGES_PER_POLL = 5;
/** The longest run of outbox fan-out before the event loop serves others (requests, notices). */
const FAN_OUT_SLICE_MS = 10;

/** The smallest UUIDv7 of a millisecond: ids are time-ordered, so `id > floor` reads what was written since. */
export function uuidFloor(ms: number): string {
  const h = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7000-8000-000000000000`;
}

const msOfUuid = (id: string): number => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

/** One SSE frame: `event:` is the type, `id:` the event id (what EventSource sends back as Last-Event-ID). */
export const frameOf = (envelope: Envelope): string => `id: ${envelope.id}\nevent: ${envelope.type}\ndata: ${JSON.stringify(envelope)}\n\n`;

type EventRow = typeof events.$inferSelect;

const POSITION = 'tour.driver_location_updated';

/**
 * A resumed map wants each driver where it is now, not the path it took while the client was away: of the outbox's
 * position events (one per tour per 10 s) only each driver's latest is kept, at its place in the order (decision 0118).
 */
export function latestPositionsOnly(envelopes: readonly Envelope[]): Envelope[] {
  const latest = new Map<unknown, string>();
  for (const e of envelopes) if (e.type === POSITION) latest.set(e.data.driver_id, e.id);
  return envelopes.filter((e) => e.type !== POSITION || latest.get(e.data.driver_id) === e.id);
}

/**
 * Streams that see exactly the same events share an audience: same role, user (drivers, customers), organizations
 * (managers) and filters. Visibility is decided once per event and audience, not per stream: 1,000 managers of 10
 * organizations are 10 decisions (docs/performance.md).
 */
const audiences = new WeakMap<Subscriber, string>();
export function audienceOf(sub: Subscriber): string {
  let key = audiences.get(sub);
  if (key === undefined) {
    const types = sub.filters.types ? [...sub.filters.types].sort().join(',') : '*';
    key = `${sub.tenantId}|${sub.viewer.role}|${sameSightKey(sub.viewer)}|${sub.filters.tourId ?? '*'}|${types}`;
    audiences.set(sub, key);
  }
  return key;
}

/** Delivers `envelope` to every subscriber whose audience `sees` it, deciding once per audience. */
function fanOut(subscribers: Iterable<Subscriber>, envelope: Envelope, frame: string, sees: (sub: Subscriber) => boolean): void {
  const decided = new Map<string, boolean>();
  for (const sub of subscribers) {
    const audience = audienceOf(sub);
    let yes = decided.get(audience);
    if (yes === undefined) decided.set(audience, (yes = sees(sub)));
    if (yes) sub.deliver(envelope, frame);
  }
}

export function createLiveHub(deps: Deps, options: HubOptions): LiveHub {
  const byTenant = new Map<string, Set<Subscriber>>();
  const seen = new Map<string, number>();
  let floorMs = Date.now() - LOOKBACK_MS;
  /** Where the next poll goes on when the last one stopped before catching up (null: from the floor). */
  let resumeAfter: string | null = null;
  const batch = options.pollBatch ?? POLL_BATCH;
  let timers: NodeJS.Timeout[] = [];
  let started: Promise<void> | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let polling = false;
  let pollFailures = 0;
  let stopped = false;

  const all = (): Subscriber[] => [...byTenant.values()].flatMap((set) => [...set]);

  function onPosition(payload: string | undefined): void {
    if (!payload) return;
    let notice: PositionNotice;
    try {
      notice = JSON.parse(payload) as PositionNotice;
    } catch {
      return;
    }
    const subscribers = byTenant.get(notice.tenant_id);
    if (!subscribers) return;
    // The commit wrote outbox events too: read them now rather than at the next poll (decision 1776).
    if (Array.isArray(notice.outbox)) void (notice.outbox.length ? readNamed(notice.tenant_id, notice.outbox) : poll());
    const envelope = notice.envelope;
    const frame = frameOf(envelope);
    const driverId = typeof envelope.data.driver_id === 'string' ? envelope.data.driver_id : null;
    fanOut(subscribers, envelope, frame, (sub) => seesPosition(sub.viewer, driverId, notice.driver_organization_id) && passesFilters(sub.filters, envelope, {}));
  }

  async function listen(): Promise<void> {
    const { database } = deps;
    if (database.pglite) {
      const off = await database.pglite.listen(LIVE_CHANNEL, onPosition);
      unlisten = off;
      return;
    }
    // Past a transaction pooler, LISTEN needs a session of its own: the direct pool (decision 1450).
    const pool = database.directPool ?? database.pool;
    if (!pool) return;
    // One connection per process held for LISTEN; a lost one is replaced (positions meanwhile are missed, not queued).
    let client: PoolClient | null = null;
    const connect = async (): Promise<void> => {
      if (stopped) return;
      let c: PoolClient | null = null;
      // A connection is given up once, whichever notices first (its 'error' event, or a failed LISTEN): releasing a
      // client twice throws inside the event handler, and two retries would leave two listeners.
      let lost = false;
      const retry = (err: unknown, message: string) => {
        // After stop, unlisten has released the client: an error it emits later is not ours to handle.
        if (lost || stopped) return;
        lost = true;
        deps.log.warn({ err }, message);
        if (c) c.release(err instanceof Error ? err : true);
        if (client === c) client = null;
        setTimeout(() => void connect(), 1_000).unref();
      };
      try {
        c = await pool.connect();
        c.on('notification', (msg) => msg.channel === LIVE_CHANNEL && onPosition(msg.payload));
        c.on('error', (err) => retry(err, 'live: LISTEN connection lost'));
        await c.query(`LISTEN ${LIVE_CHANNEL}`);
        if (!lost) client = c;
      } catch (err) {
        retry(err, 'live: LISTEN failed, retrying');
      }
    };
    await connect();
    unlisten = async () => {
      const c = client;
      client = null;
      if (!c) return;
      await c.query(`UNLISTEN ${LIVE_CHANNEL}`).catch(() => undefined);
      c.release();
    };
  }

  /** Resource facts of a batch of events, per tenant, as the visibility rule needs them. */
  async function factsOf(tenantId: string, rows: Envelope[]): Promise<Map<string, ResourceFacts>> {
    const tourIds = [...new Set(rows.filter((e) => e.resource_type === 'tour').map((e) => e.data.tour_id).filter((id): id is string => typeof id === 'string'))];
    const bookingIds = [...new Set(rows.filter((e) => e.resource_type === 'booking').map((e) => e.data.booking_id).filter((id): id is string => typeof id === 'string'))];
    const [tours, bookings] = await Promise.all([tourFactsOf(deps.db, tenantId, tourIds), bookingFactsOf(deps.db, tenantId, bookingIds)]);
    const facts = new Map<string, ResourceFacts>();
    for (const e of rows) {
      if (e.resource_type === 'tour') facts.set(e.id, { tour: tours.get(String(e.data.tour_id)) ?? null });
      else if (e.resource_type === 'booking') facts.set(e.id, { booking: bookings.get(String(e.data.booking_id)) ?? null });
      else facts.set(e.id, {});
    }
    return facts;
  }

  const visibleTo = (sub: Subscriber, e: Envelope, facts: ResourceFacts): boolean => seesEvent(sub.viewer, e, facts) && passesFilters(sub.filters, e, facts);

  /**
   * Reads the outbox in pages of `pollBatch` from the look-back floor, or from where the last poll stopped when it
   * had more to read than MAX_PAGES_PER_POLL. The floor trails the newest event by LOOKBACK_MS only once the poller
   * has caught up: a burst of more than one page within the look-back (thousands of events a second) read from the
   * floor alone returned the same page on every poll, and the streams never saw another event.
   */
  async function poll(): Promise<void> {
    if (polling || stopped || !byTenant.size) return;
    polling = true;
    try {
      const tenants = [...byTenant.keys()];
      let after = resumeAfter ?? uuidFloor(floorMs);
      for (let page = 0; ; page++) {
        // Ids first, whole rows only for the unseen: most of a page is the look-back, read again every poll.
        const rows = await deps.db
          .select({ id: events.id, type: events.type })
          .from(events)
          .where(and(inArray(events.tenantId, tenants), gt(events.id, after)))
          .orderBy(asc(events.id))
          .limit(batch);
        const unseen = rows.filter((r) => !seen.has(r.id) && r.type !== POSITION).map((r) => r.id);
        // Marked seen before the read, so that a notice naming the same events meanwhile does not deliver them twice.
        for (const r of rows) seen.set(r.id, msOfUuid(r.id));
        const fresh = await readRows(unseen);
        const last = rows.at(-1);
        if (last) after = last.id;
        if (await deliver(fresh)) return;
        if (rows.length < batch) {
          // Caught up: later polls read again from the look-back floor, for transactions that commit late.
          // `after` is the newest id read (also when this page came back empty after a full one).
          resumeAfter = null;
          floorMs = Math.max(floorMs, msOfUuid(after) - LOOKBACK_MS);
          break;
        }
        if (page + 1 >= MAX_PAGES_PER_POLL) {
          resumeAfter = after;
          break;
        }
      }
      for (const [id, ms] of seen) if (ms < floorMs) seen.delete(id);
      if (pollFailures > 0) deps.log.info({ failed_polls: pollFailures }, 'live: outbox poll works again');
      pollFailures = 0;
    } catch (err) {
      // Once per run of failures: while the database is away, a poll fails every pollMs (decision 1400).
      if (pollFailures++ === 0) deps.log.warn({ err }, 'live: outbox poll failed; streams stay open and catch up when it works again');
    } finally {
      polling = false;
    }
  }

  /** Whole rows of events marked seen; unmarked again when the read fails, so that the next poll takes them. */
  async function readRows(ids: string[], tenantId?: string): Promise<EventRow[]> {
    if (!ids.length) return [];
    try {
      const named = inArray(events.id, ids);
      return await deps.db
        .select()
        .from(events)
        .where(tenantId ? and(eq(events.tenantId, tenantId), named) : named)
        .orderBy(asc(events.id));
    } catch (err) {
      for (const id of ids) seen.delete(id);
      throw err;
    }
  }

  /**
   * The events a position's commit wrote, named by its notice (decision 1776): read by id and fanned out at once. The
   * poll finds them seen; one the poll took first is not read again.
   */
  async function readNamed(tenantId: string, ids: string[]): Promise<void> {
    if (stopped) return;
    const claimed = ids.filter((id) => typeof id === 'string' && isUuid(id) && !seen.has(id));
    for (const id of claimed) seen.set(id, msOfUuid(id));
    try {
      await deliver(await readRows(claimed, tenantId));
    } catch (err) {
      // The next poll reads them (readRows unmarked them).
      deps.log.debug({ err }, 'live: reading the events a position named failed');
    }
  }

  /** Fans a page of fresh events out to the streams; true when the hub stopped meanwhile. */
  async function deliver(fresh: EventRow[]): Promise<boolean> {
    // Positions come through NOTIFY (every one of them); the outbox's coalesced copy is for webhooks and resume.
    const byTenantRows = new Map<string, Envelope[]>();
    for (const r of fresh) (byTenantRows.get(r.tenantId) ?? byTenantRows.set(r.tenantId, []).get(r.tenantId))?.push(toEnvelope(r));
    for (const [tenantId, envelopes] of byTenantRows) {
      const subscribers = byTenant.get(tenantId);
      if (!subscribers?.size) continue;
      const facts = await factsOf(tenantId, envelopes);
      let since = performance.now();
      for (const e of envelopes) {
        const frame = frameOf(e);
        const f = facts.get(e.id) ?? {};
        fanOut(subscribers, e, frame, (sub) => visibleTo(sub, e, f));
        // A batch of events for 1,000 streams is 100,000 deliveries: in one go it held the event loop for 100–200 ms,
        // and every request of the process (driver positions first) waited behind it. Requests go between slices.
        if (performance.now() - since > FAN_OUT_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          if (stopped) return true;
          since = performance.now();
        }
      }
    }
    return false;
  }

  /** Streams of revoked, expired or deactivated credentials close (checked every revalidateMs). */
  async function revalidate(): Promise<void> {
    const hashes = new Set(all().flatMap((s) => (s.credentialHash === null ? [] : [s.credentialHash])));
    const now = deps.clock.now().getTime();
    for (const hash of hashes) {
      const found = await findActiveCredential(deps.db, hash).catch(() => undefined);
      if (found === undefined) continue; // the database is unreachable: not a revocation
      if (!found || (found.expiresAt !== null && found.expiresAt <= now)) for (const sub of all()) if (sub.credentialHash === hash) sub.close();
    }
  }

  async function start(): Promise<void> {
    floorMs = Date.now() - LOOKBACK_MS;
    await listen();
    timers = [
      setInterval(() => void poll(), options.pollMs),
      setInterval(() => all().forEach((s) => s.heartbeat()), options.heartbeatMs),
      setInterval(() => void revalidate(), options.revalidateMs),
    ];
    for (const t of timers) t.unref();
  }

  return {
    async add(subscriber) {
      if (stopped) throw new Error('live hub stopped');
      started ??= start();
      await started;
      (byTenant.get(subscriber.tenantId) ?? byTenant.set(subscriber.tenantId, new Set()).get(subscriber.tenantId))?.add(subscriber);
    },
    remove(subscriber) {
      const set = byTenant.get(subscriber.tenantId);
      set?.delete(subscriber);
      if (set && !set.size) byTenant.delete(subscriber.tenantId);
    },
    async backlog(subscriber, afterId, windowMs) {
      const since = new Date(deps.clock.now().getTime() - windowMs);
      const rows = await deps.db
        .select()
        .from(events)
        .where(and(eq(events.tenantId, subscriber.tenantId), gt(events.id, afterId), gte(events.occurredAt, since)))
        .orderBy(asc(events.id))
        .limit(POLL_BATCH);
      const envelopes = rows.map(toEnvelope);
      const facts = await factsOf(subscriber.tenantId, envelopes);
      return latestPositionsOnly(envelopes.filter((e) => visibleTo(subscriber, e, facts.get(e.id) ?? {})));
    },
    size: () => all().length,
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      timers = [];
      for (const sub of all()) sub.close();
      byTenant.clear();
      if (unlisten) await unlisten();
    },
  };
}

const hubs = new WeakMap<Deps, LiveHub>();

/**
 * The one hub of an app (its Deps): the API's live stream and the recipients' tracking streams share its poller and
 * its LISTEN connection (decision 1102). Stopped by the live routes' preClose.
 */
export function liveHubOf(deps: Deps): LiveHub {
  let hub = hubs.get(deps);
  if (!hub) hubs.set(deps, (hub = createLiveHub(deps, deps.config.live.stream)));
  return hub;
}
