import { GraphQLError } from "graphql";
import { UserError } from "../lib/errors.ts";
import { HashingBusyError } from "../lib/passwords.ts";
import { logError } from "../lib/log.ts";

/**
 * Turns what a resolver threw into what a client may see. User errors keep their message, code and
 * field problems; anything unexpected becomes one generic message and is logged on the server.
 */
export function maskError(error: unknown): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof UserError) {
    return new GraphQLError(original.message, {
      extensions: { code: original.code, ...(original.fields.length ? { fields: original.fields } : {}) },
    });
  }
  if (original instanceof HashingBusyError) {
    return new GraphQLError(original.message, { extensions: { code: "UNAVAILABLE" } });
  }
  if (error instanceof GraphQLError && !error.originalError) return error; // parse/validation/auth errors
  if (error instanceof GraphQLError && error.originalError instanceof GraphQLError) return error.originalError;
  logError("Unexpected error in GraphQL", original);
  return new GraphQLError("Unexpected error.", { extensions: { code: "INTERNAL_SERVER_ERROR" } });
}
