// The outbox's consumer side, as SQL fragments: claiming undispatched events and marking them dispatched. The
// webhook fan-out builds its one statement around them (a claim and what it is matched against in one round trip).
import { sql, type SQL } from 'drizzle-orm';

/**
 * The oldest undispatched events, at most `limit`, locked FOR UPDATE SKIP LOCKED so that many workers fan out side by
 * side (each claims other rows); the claim holds until the caller's transaction ends. Columns: tenant_id, id, type,
 * data, occurred_at. For a WITH clause.
 */
export const claimUndispatchedEvents = (limit: number): SQL =>
  sql`SELECT tenant_id, id, type, data, occurred_at FROM events
       WHERE dispatched_at IS NULL
       ORDER BY occurred_at
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED`;

/** Marks dispatched the events whose (tenant_id, id) the relation `claimed` lists (one statement's final UPDATE). */
export const markEventsDispatched = (claimed: SQL, now: Date): SQL =>
  sql`UPDATE events SET dispatched_at = ${now}
       WHERE tenant_id = ANY (ARRAY(SELECT DISTINCT tenant_id FROM ${claimed}))
         AND id = ANY (ARRAY(SELECT id FROM ${claimed}))`;
