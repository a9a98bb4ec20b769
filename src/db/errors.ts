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
