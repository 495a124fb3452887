import { builder } from "../../graphql/builder.ts";
import { ROLE_NAMES, type RoleName } from "../../shared/enums.ts";
import { permissionsOf } from "../../shared/permissions.ts";
import { roleLabel } from "../../shared/roles.ts";

export const RoleNameEnum = builder.enumType("RoleName", { values: ROLE_NAMES });

export const RoleType = builder.drizzleObject("roles", {
  name: "Role",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.expose("name", { type: RoleNameEnum }),
    rank: t.exposeInt("rank"),
    label: t.exposeString("label"),
    permissions: t.stringList({ resolve: (role) => permissionsOf(role.name as RoleName) }),
  }),
});

export const OrganisationRef = builder.drizzleObject("organisations", {
  name: "Organisation",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    slug: t.exposeString("slug"),
    archived: t.exposeBoolean("archived"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const UserType = builder.drizzleObject("users", {
  name: "User",
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email"),
    username: t.exposeString("username", { nullable: true }),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    verified: t.exposeBoolean("verified"),
    suspended: t.exposeBoolean("suspended"),
    isSSO: t.exposeBoolean("isSSO"),
    twoFactorAuthenticationActivated: t.exposeBoolean("twoFactorAuthenticationActivated"),
    twoFactorAuthenticationIsSet: t.exposeBoolean("twoFactorAuthenticationIsSet"),
    hasRecoveryCode: t.boolean({ select: { columns: { recoveryCodeHash: true } }, resolve: (user) => user.recoveryCodeHash !== null }),
    role: t.relation("role"),
    organisation: t.relation("organisation", { nullable: true }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.drizzleField({
    type: UserType,
    nullable: true,
    description: "The signed-in staff user, or null.",
    resolve: (query, _root, _args, ctx) =>
      ctx.actor.kind === "staff" ? ctx.db.query.users.findFirst(query({ where: { id: ctx.actor.userId } })).then((u) => u ?? null) : null,
  }),
  roles: t.drizzleField({
    type: [RoleType],
    authScopes: { staff: true },
    resolve: (query, _root, _args, ctx) => ctx.db.query.roles.findMany(query({ orderBy: { rank: "asc", name: "asc" } })),
  }),
}));
