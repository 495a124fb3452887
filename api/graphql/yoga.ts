import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { NoSchemaIntrospectionCustomRule } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import type { Ctx } from "../context.ts";
import { maskError } from "./errors.ts";
import { schema } from "./schema.ts";

export const GRAPHQL_PATH = "/api/gql/query";

/** Limits that keep one request from costing the server too much. */
export const QUERY_LIMITS = { maxDepth: 22, maxAliases: 15, maxCost: 5000 } as const;

function disableIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/** One Yoga instance; HTTP requests and WebSocket operations share its plugins and context. */
export function createGraphqlServer(options: { production: boolean }) {
  return createYoga<Ctx>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: false,
    batching: false,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => maskError(error) },
    plugins: [
      // Introspection counts too, so it cannot be used to build arbitrarily deep queries; 22 still admits
      // the standard introspection query (depth 21 with its fragments). Cost limits bound the rest.
      maxDepthPlugin({ n: QUERY_LIMITS.maxDepth, exposeLimits: true, ignoreIntrospection: false }),
      maxAliasesPlugin({ n: QUERY_LIMITS.maxAliases, exposeLimits: true }),
      costLimitPlugin({ maxCost: QUERY_LIMITS.maxCost, exposeLimits: true }),
      ...(options.production ? [disableIntrospection()] : []),
    ],
  });
}

export type GraphqlServer = ReturnType<typeof createGraphqlServer>;
