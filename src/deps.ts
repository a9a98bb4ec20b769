// Deps: everything an operation may use, passed by hand as one plain object. It names no domain module: the seams'
// interfaces live in src/seams/, below the modules (decision 0212), so everything that takes Deps stays below them too.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { ReadRouter } from './db/replicas.ts';
import type { SolverPool } from './optimizer/index.ts';
import type { DispatchHooks, FailureRules, IdentityHooks, TravelTimes } from './seams/index.ts';
import type { Clock } from './shared/clock.ts';

/**
 * Where one module reacts to or asks another without importing it (the import would close a loop), wired in the
 * composition root by `wireHooks` (src/hooks.ts).
 */
export interface Hooks {
  /**
   * Reactions inside dispatch's transactions (tip facts for compensation, touched tours for live tracking) and what
   * dispatch renders of other modules (stop ETAs, a booking's tip distribution).
   */
  dispatch: DispatchHooks;
  /** What dispatch renders and checks of failures: failure_options, package failure reasons, the reattempt copy. */
  failureRules: FailureRules;
  /** What identity asks of the modules that import it: a new tenant's seed data, scheduling config references. */
  identity: IdentityHooks;
  /** What tour optimisation asks of live tracking: travel seconds by the ETA routing, the driver's last position. */
  travel: TravelTimes;
}

export interface Deps {
  db: Db;
  database: Database;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  hooks: Hooks;
  /** The route optimiser's worker threads (decision 0961), started on first use, ended by whoever made Deps (runtime.close()). */
  optimizer: SolverPool;
  /** Read replicas for heavy reads (DATABASE_REPLICA_URLS, decision 1401): reads go through `readDb(deps)`. */
  replicas?: ReadRouter;
}
