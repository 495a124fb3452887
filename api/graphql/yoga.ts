import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { NoSchemaIntrospectionCustomRule } from "graphql";
import { createGraphQLError, createYoga, type Plugin } from "graphql-yoga";
import type { Ctx } from "../context.ts";
import { maskError, withoutSuggestions } from "./errors.ts";
import { inputGuard } from "./input-guard.ts";
import { ownChangesEndViewerCopies } from "./own-changes.ts";
import { schema } from "./schema.ts";

export const GRAPHQL_PATH = "/api/gql/query";

/** Limits that keep one request from costing the server too much. */
export const QUERY_LIMITS = { maxDepth: 22, maxAliases: 15, maxCost: 5000, maxTokens: 5000 } as const;

/**
 * graphql-js parses recursively, so a deeply nested document ("{a{a{a…" within the 1 MB body) would
 * overflow the stack before the depth limit is ever checked. A token limit stops the parser first,
 * with a syntax error the client can read; Lantern's own documents use a few hundred tokens.
 */
function boundedParsing(): Plugin {
  return {
    onParse({ parseFn, setParseFn }) {
      setParseFn((source, options) => parseFn(source, { ...options, maxTokens: QUERY_LIMITS.maxTokens }));
    },
  };
}

function disableIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/**
 * "Did you mean …?" in a validation error names fields, arguments and types the client did not ask
 * for: with introspection off, it would still spell the schema out. Production leaves it out (on
 * HTTP and on the WebSocket, which validates through the same plugins); execution errors are
 * cleaned by maskError.
 */
function noSuggestions(): Plugin {
  return {
    onValidate: () => ({ result, setResult }) => {
      if (result.some((error) => withoutSuggestions(error) !== error)) setResult(result.map(withoutSuggestions));
    },
  };
}

/**
 * Yoga reads a GET request's variables and extensions with a bare JSON.parse, so text that is not
 * JSON would surface as an unexpected server error; it is the client's mistake, and a 400 says so.
 */
function readableGetParameters(): Plugin {
  return {
    onRequestParse({ request, url }) {
      if (request.method !== "GET") return;
      for (const name of ["variables", "extensions"]) {
        const value = url.searchParams.get(name);
        if (value && !isJson(value)) {
          throw createGraphQLError(`The "${name}" parameter must be a JSON object.`, { extensions: { http: { status: 400 }, code: "BAD_REQUEST" } });
        }
      }
    },
  };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One Yoga instance; HTTP requests and WebSocket operations share its plugins and context. */
export function createGraphqlServer(options: { production: boolean }) {
  return createYoga<Ctx>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: false,
    batching: false,
    // The HTTP layer has already refused a body over its limit (1 MB JSON, 6 MB multipart, api/app.ts).
    // Yoga's own check would pipe every request body through a TransformStream to count it again.
    maxRequestBodySize: false,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => maskError(error, { production: options.production }) },
    // Only Lantern's own pages call the API, from their own origin: no cross-origin reader is allowed,
    // so no CORS header is ever sent (Yoga's default would reflect any origin, with credentials).
    cors: false,
    plugins: [
      boundedParsing(),
      // Introspection counts too, so it cannot be used to build arbitrarily deep queries; 22 still admits
      // the standard introspection query (depth 21 with its fragments). Cost limits bound the rest.
      maxDepthPlugin({ n: QUERY_LIMITS.maxDepth, exposeLimits: true, ignoreIntrospection: false }),
      maxAliasesPlugin({ n: QUERY_LIMITS.maxAliases, exposeLimits: true }),
      costLimitPlugin({ maxCost: QUERY_LIMITS.maxCost, exposeLimits: true }),
      readableGetParameters(),
      ...(options.production ? [disableIntrospection(), noSuggestions()] : []),
      inputGuard(),
      ownChangesEndViewerCopies(),
    ],
  });
}

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
