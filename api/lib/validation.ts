import * as v from "valibot";
import { badInput } from "./errors.ts";

/**
 * Validates outside input with a valibot schema. Failures become one user error whose message is
 * the first problem and whose `fields` name every problem, so forms can show them in place.
 * `null` values are treated as "not given" (GraphQL sends them for omitted optional fields).
 */
export function parseWith<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const given =
    input && typeof input === "object" && !Array.isArray(input)
      ? Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined))
      : input;
  const result = v.safeParse(schema, given);
  if (result.success) return result.output;
  const fields = result.issues.map((issue) => ({ field: issue.path?.map((p) => String(p.key)).join(".") ?? "", message: issue.message }));
  throw badInput(fields[0]?.message ?? "Invalid input", fields);
}
