import { UserError } from "./errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * An id from outside, checked before it reaches the database (Postgres rejects malformed uuids
 * with an error, which must never surface as a server fault). A malformed id names nothing.
 */
export function requireUuid(value: unknown, notFoundMessage: string): string {
  if (!isUuid(value)) throw new UserError("NOT_FOUND", notFoundMessage);
  return value.toLowerCase();
}
