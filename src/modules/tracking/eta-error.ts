// The tenant's measured ETA error as the tracking read uses it (decision 1786): analytics' share of the time to go its
// recent ETAs were off, kept per tenant in this process and read again at most every ETA_ERROR_REFRESH_MS.
import { readDb } from '../../db/replicas.ts';
import type { Deps } from '../../deps.ts';
import { etaErrorShare } from '../analytics/index.ts';

/** The stops measured: those that arrived in the last fortnight (a week's quiet Sunday and busy Friday twice). */
export const ETA_ERROR_PERIOD_MS = 14 * 86_400_000;
/** With fewer measured stops the window keeps the fixed rule: a p80 of a handful is one unlucky stop. */
export const ETA_ERROR_MIN_SAMPLES = 20;
/** How long a tenant's figure serves before it is read again; a fortnight's figure moves little in five minutes. */
export const ETA_ERROR_REFRESH_MS = 5 * 60_000;
/** The most tenants kept; past it the cache starts again rather than grow (there are far fewer). */
const MAX_TENANTS = 10_000;

interface Entry {
  share: number | null;
  /** When it was last read, on deps.clock; null until the first read ends. */
  readAt: number | null;
  /** The read under way, if any: every caller meanwhile shares it. */
  reading: Promise<number | null> | null;
}

const entries = new Map<string, Entry>();

/**
 * The share of the time to go that the tenant's ETAs stayed within for 80 % of its recently measured stops, or null
 * when it has fewer than ETA_ERROR_MIN_SAMPLES (the window then keeps the fixed rule). The tracking read is a hot path:
 * a fresh figure answers at once; a stale one answers at once too while it is read again in the background; only a
 * tenant's first read in this process waits for the query, so two reads a second apart never disagree.
 */
export async function tenantEtaErrorShare(deps: Pick<Deps, 'db' | 'replicas' | 'clock' | 'log'>, tenantId: string): Promise<number | null> {
  const now = deps.clock.now().getTime();
  const entry = entries.get(tenantId);
  if (!entry) return refresh(deps, tenantId, { share: null, readAt: null, reading: null });
  if (entry.readAt === null) return entry.reading ?? entry.share;
  // A clock set back (tests; a corrected system clock) makes the figure stale rather than fresh for ever.
  const age = now - entry.readAt;
  if ((age < 0 || age >= ETA_ERROR_REFRESH_MS) && !entry.reading) void refresh(deps, tenantId, entry);
  return entry.share;
}

/** Reads the tenant's figure into `entry` (kept as it was when the read fails: the window falls back, never the page). */
function refresh(deps: Pick<Deps, 'db' | 'replicas' | 'clock' | 'log'>, tenantId: string, entry: Entry): Promise<number | null> {
  if (entries.size >= MAX_TENANTS && !entries.has(tenantId)) entries.clear();
  entries.set(tenantId, entry);
  const now = deps.clock.now();
  const reading = etaErrorShare(readDb(deps), tenantId, new Date(now.getTime() - ETA_ERROR_PERIOD_MS), now)
    .then(({ samples, p80 }) => (samples >= ETA_ERROR_MIN_SAMPLES ? p80 : null))
    .catch((err: unknown) => {
      deps.log.warn({ err, tenantId }, 'tracking: ETA error not read; the window keeps the last figure');
      return entry.share;
    })
    .then((share) => {
      Object.assign(entry, { share, readAt: now.getTime(), reading: null });
      return share;
    });
  entry.reading = reading;
  return reading;
}

/** Until every read under way has ended: for tests, which move the clock past ETA_ERROR_REFRESH_MS and look again. */
export async function etaErrorReadsSettled(): Promise<void> {
  await Promise.all([...entries.values()].map((e) => e.reading));
}
