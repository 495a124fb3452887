/**
 * Reading what a raw statement (`db.execute`) answers the same way on both drivers: postgres.js
 * answers an array of rows, PGlite an object with `rows`.
 */
export function resultRows<T = Record<string, unknown>>(result: unknown): T[] {
  const rows = Array.isArray(result) ? result : (result as { rows?: unknown[] } | null)?.rows;
  return (rows ?? []) as T[];
}

const UNIQUE_VIOLATION = "23505";

/** Postgres' unique_violation, however the driver wraps it (drizzle puts the driver's error in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: unknown }).code === UNIQUE_VIOLATION) return true;
  }
  return false;
}
