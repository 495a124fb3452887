import * as v from "valibot";
import { NUL_CHARACTER, NUL_NOT_ALLOWED, SEARCH_TEXT, TEXT_LIMITS } from "../shared/limits.ts";
import { badInput } from "./errors.ts";

/**
 * The dotted path of the first string holding a NUL character within a value from outside (keys
 * count too), or null when there is none. Postgres refuses NUL in text and jsonb with an error, so
 * such input must be turned away as the person's mistake before it gets near a query.
 */
export function nulPath(value: unknown, path: string[] = []): string | null {
  if (typeof value === "string") return value.includes(NUL_CHARACTER) ? path.join(".") : null;
  if (!value || typeof value !== "object") return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL_CHARACTER)) return [...path, key.replaceAll(NUL_CHARACTER, "")].join(".");
    const found = nulPath(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

/** Refuses a value from outside that holds a NUL character anywhere, naming where. */
export function rejectNul(value: unknown): void {
  const field = nulPath(value);
  if (field !== null) throw badInput(NUL_NOT_ALLOWED, [{ field, message: NUL_NOT_ALLOWED }]);
}

/**
 * Validates outside input with a valibot schema. Failures become one user error whose message is
 * the first problem and whose `fields` name every problem, so forms can show them in place.
 * `null` values are treated as "not given" (GraphQL sends them for omitted optional fields).
 */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  rejectNul(input);
  const given =
    input && typeof input === "object" && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined))
      : input;
  const result = v.safeParse(schema, given);
  if (result.success) return result.output;
  const fields = result.issues.map((issue) => ({ field: issue.path?.map((p) => String(p.key)).join(".") ?? "", message: issue.message }));
  throw badInput(fields[0]?.message ?? "Invalid input", fields);
}

/** A search text from outside: trimmed, at most SEARCH_TEXT.max characters (api/shared/limits.ts), optional. */
export const SearchText = v.nullish(v.pipe(v.string(), v.trim(), v.maxLength(SEARCH_TEXT.max, SEARCH_TEXT.tooLong)));

/** The search text of a list's arguments, validated like any input ("" when none is given). */
export function searchTextOf(raw: unknown): string {
  return parseWith(v.object({ search: SearchText }), { search: raw }).search ?? "";
}

/** `%text%` for ILIKE, the text's own `%`, `_` and `\` matched literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** An id from outside, bounded before anything else looks at it (ids are then checked as uuids where used). */
export const IdText = v.pipe(v.string(), v.maxLength(TEXT_LIMITS.id.max, TEXT_LIMITS.id.tooLong));
