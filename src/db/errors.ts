// PostgreSQL errors by meaning, the same from both drivers (Drizzle wraps the driver's error as `cause`).

interface DriverError {
  code?: string;
  constraint?: string;
  cause?: DriverError;
}

/** The constraint a unique_violation (23505) broke, or null for any other error. */
export function uniqueViolation(err: unknown): string | null {
  for (let e = err as DriverError | undefined, depth = 0; e && depth < 3; e = e.cause, depth++) {
    if (e.code === '23505') return e.constraint ?? '';
  }
  return null;
}
