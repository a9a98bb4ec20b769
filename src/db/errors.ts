// PostgreSQL errors by meaning, the same from both drivers (Drizzle wraps the driver's error as `cause`).

interface DriverError {
  code?: string;
  constraint?: string;
  cause?: DriverError;
}

/** The driver's error inside `err` (Drizzle's wrapper or the driver's own), if any carries a SQLSTATE code. */
function driverError(err: unknown): DriverError | null {
  for (let e = err as DriverError | undefined, depth = 0; e && depth < 3; e = e.cause, depth++) {
    if (e.code) return e;
  }
  return null;
}

/** The constraint a unique_violation (23505) broke, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  const e = driverError(err);
  return e?.code === '23505' ? (e.constraint ?? '') : null;
}

/**
 * A deadlock (40P01) or serialization failure (40001): the transaction lost a race with another and was rolled back
 * whole, so running it again is safe.
 */
export function lostRace(err: unknown): boolean {
  const code = driverError(err)?.code;
  return code === '40P01' || code === '40001';
}

/** SQLSTATEs that say the server is going away, not up yet, or no longer the primary (decision 1400). */
const UNAVAILABLE_CODES = new Set([
  '57P01', // admin_shutdown: the server is stopping (a fast shutdown, a failover)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, or in recovery
  '57014', // query_canceled: our query timeout (statement_timeout) ran out
  '53300', // too_many_connections
  '25006', // read_only_sql_transaction: a write reached a standby (the old primary after a failover)
  '25P04', // transaction_timeout
]);

/** Socket errors of a server that cannot be reached or dropped the connection. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/** node-postgres' own errors of a lost or never-made connection carry no code, only these messages. */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|connection (?:error|timeout)/i;

/**
 * The database could not answer: unreachable, shutting down, in recovery, a standby, or too slow for our timeouts.
 * Such a failure says nothing about the request; the client may send it again later (503, decision 1400).
 */
export function databaseUnavailable(err: unknown): boolean {
  for (let e = err as (DriverError & { message?: string; errors?: unknown[] }) | undefined, depth = 0; e && depth < 4; e = e.cause, depth++) {
    const code = e.code;
    if (code && (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    // Node's connect to a name with several addresses (localhost: ::1 and 127.0.0.1) fails with all of them.
    if (Array.isArray(e.errors) && e.errors.some((inner) => databaseUnavailable(inner))) return true;
  }
  return false;
}

/** The innermost message of a wrapped error (Drizzle's "Failed query: …" carries the whole statement): for log lines. */
export function rootMessage(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  for (let depth = 0; e?.cause && depth < 4; depth++) e = e.cause as typeof e;
  return String(e?.message ?? err);
}
