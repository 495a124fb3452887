import { GraphQLError } from "graphql";
import { UserError } from "../lib/errors.ts";
import { HashingBusyError } from "../lib/passwords.ts";
import { logError } from "../lib/log.ts";
import { ChallengeRequiredError } from "../lib/proof-of-work.ts";

/**
 * Turns what a resolver threw into what a client may see. User errors keep their message, code and
 * field problems; anything unexpected becomes one generic message and is logged on the server.
 */
export function maskError(error: unknown, options: { production?: boolean } = {}): GraphQLError {
  const masked = maskUnexpected(error);
  return options.production ? withoutSuggestions(masked) : masked;
}

function maskUnexpected(error: unknown): GraphQLError {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof UserError) {
    return new GraphQLError(original.message, {
      extensions: {
        code: original.code,
        ...(original.fields.length ? { fields: original.fields } : {}),
        ...(original instanceof ChallengeRequiredError ? { challenge: original.challenge } : {}),
      },
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

/**
 * The error without graphql-js's "Did you mean …?" hint, which names schema fields, arguments, types
 * and enum values the client did not give (validation, and coercing variables). The same error when
 * it has none.
 */
export function withoutSuggestions<E extends Error>(error: E): E | GraphQLError {
  if (!(error instanceof GraphQLError)) return error;
  const message = error.message.replace(/\s*Did you mean [\s\S]*$/, "");
  if (message === error.message) return error;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}
