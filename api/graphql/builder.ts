import SchemaBuilder from "@pothos/core";
import DrizzlePlugin from "@pothos/plugin-drizzle";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { getTableConfig } from "drizzle-orm/pg-core";
import { GraphQLError } from "graphql";
import { relations, type Relations } from "../../db/relations.ts";
import type { Ctx } from "../context.ts";
import type { Permission } from "../shared/permissions.ts";

export interface AuthScopes {
  /** A signed-in staff user. */
  staff: boolean;
  superAdmin: boolean;
  /** A staff user whose role holds this permission. */
  permission: Permission;
  /** An anonymous reporter with a report session. */
  reporter: boolean;
}

export const builder = new SchemaBuilder<{
  Context: Ctx;
  AuthScopes: AuthScopes;
  DrizzleRelations: Relations;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
    File: { Input: File; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  // Scope-auth must come first so its checks wrap every other plugin's resolvers.
  plugins: [ScopeAuthPlugin, DrizzlePlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({
      staff: ctx.actor.kind === "staff",
      superAdmin: ctx.actor.kind === "staff" && ctx.actor.role === "SUPER_ADMIN",
      permission: (permission) => ctx.actor.kind === "staff" && ctx.actor.permissions.has(permission),
      reporter: ctx.actor.kind === "reporter",
    }),
    unauthorizedError: (_parent, ctx) =>
      ctx.actor.kind === "anonymous"
        ? new GraphQLError("You must login to view this page", { extensions: { code: "UNAUTHENTICATED" } })
        : new GraphQLError("You do not have permission to do this.", { extensions: { code: "FORBIDDEN" } }),
  },
  drizzle: {
    client: (ctx) => ctx.db,
    getTableConfig,
    relations,
  },
});

builder.scalarType("DateTime", {
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString()),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (typeof value !== "string" || Number.isNaN(date.getTime())) throw new GraphQLError("Invalid date", { extensions: { code: "BAD_USER_INPUT" } });
    return date;
  },
});

builder.scalarType("JSONObject", {
  description: "A JSON object (theme colours keyed by the spec's field names).",
  serialize: (value) => value,
  parseValue: (value) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new GraphQLError("Expected an object", { extensions: { code: "BAD_USER_INPUT" } });
    return value as Record<string, unknown>;
  },
});

builder.scalarType("File", {
  description: "An uploaded file, sent with the GraphQL multipart request spec. Input only.",
  serialize: () => {
    throw new GraphQLError("File is an input-only scalar");
  },
  // Yoga's multipart parser puts the web File where the map points; anything else (a string in JSON
  // variables, an inline literal) is not an upload.
  parseValue: (value) => {
    if (!(value instanceof File)) throw new GraphQLError("Invalid file", { extensions: { code: "BAD_USER_INPUT" } });
    return value;
  },
  parseLiteral: () => {
    throw new GraphQLError("Invalid file", { extensions: { code: "BAD_USER_INPUT" } });
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
