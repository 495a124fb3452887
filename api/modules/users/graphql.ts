import { builder } from "../../graphql/builder.ts";
import { findFirstById } from "../../graphql/prepared-selections.ts";
import { getUser, listUsers, USER_SORT_KEYS } from "./service.ts";
import { ROLE_NAMES, type RoleName } from "../../shared/enums.ts";
import { permissionsOf } from "../../shared/permissions.ts";
import { roleLabel } from "../../shared/roles.ts";
import { avatarFileURL } from "../files/avatar-access.ts";

export const RoleNameEnum = builder.enumType("RoleName", { values: ROLE_NAMES });
const UserSortByEnum = builder.enumType("UserSortBy", { values: USER_SORT_KEYS });

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

const AvatarType = builder.objectRef<{ id: string; fileURL: string }>("Avatar").implement({
  fields: (t) => ({ id: t.exposeID("id"), fileURL: t.exposeString("fileURL") }),
});

export const UserType = builder.drizzleObject("users", {
  name: "User",
  // Only the columns the asked fields need are read: a user row also holds the password hash, the
  // two-factor secret and the recovery code's hash, which no query has a reason to load.
  select: { columns: { id: true } },
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
    avatar: t.field({
      type: AvatarType,
      nullable: true,
      select: { columns: { avatarBlobId: true } },
      resolve: (user) => (user.avatarBlobId ? { id: user.avatarBlobId, fileURL: avatarFileURL(user.avatarBlobId) } : null),
    }),
    hasRecoveryCode: t.boolean({ select: { columns: { recoveryCodeHash: true } }, resolve: (user) => user.recoveryCodeHash !== null }),
    role: t.relation("role"),
    organisation: t.relation("organisation", {
      nullable: true,
      authScopes: (_user, _args, ctx) => ctx.actor.kind !== "two-factor-pending",
      unauthorizedResolver: () => null,
    }),
  }),
});

export const UserListType = builder.objectRef<{ total: number; ids: string[] }>("UserList").implement({
  fields: (t) => ({
    total: t.exposeInt("total"),
    list: t.drizzleField({
      type: [UserType],
      resolve: async (query, parent, _args, ctx) => {
        if (parent.ids.length === 0) return [];
        const rows = await ctx.db.query.users.findMany(query({ where: { id: { in: parent.ids } } }));
        const order = new Map(parent.ids.map((id, index) => [id, index]));
        const position = (row: unknown) => order.get((row as { id: string }).id) ?? 0;
        return rows.sort((a, b) => position(a) - position(b));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  userGet: t.drizzleField({
    type: UserType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "UserRead" },
    resolve: async (query, _root, args, ctx) => {
      const row = await getUser(ctx, String(args.id));
      return (await ctx.db.query.users.findFirst(query({ where: { id: row.id } })))!;
    },
  }),
  users: t.field({
    type: UserListType,
    args: {
      roleName: t.arg({ type: RoleNameEnum }),
      includeSelf: t.arg.boolean({ description: "Whether the asking user is listed too (default true)." }),
      organisationID: t.arg.id(),
      includeGuestMembers: t.arg.boolean({ description: "Also guests of other organisations admitted to this one." }),
      reportSubmissionID: t.arg.id({ description: "Only the report's team (or, with reportSubmissionUnassigned, only those not on it)." }),
      reportSubmissionUnassigned: t.arg.boolean(),
      sortBy: t.arg({ type: UserSortByEnum }),
      ascending: t.arg.boolean({ description: "Default true." }),
      search: t.arg.string(),
      limit: t.arg.int(),
      offset: t.arg.int(),
    },
    authScopes: { permission: "UserList" },
    resolve: (_root, args, ctx) =>
      listUsers(ctx, {
        ...args,
        organisationID: args.organisationID ? String(args.organisationID) : null,
        reportSubmissionID: args.reportSubmissionID ? String(args.reportSubmissionID) : null,
      }),
  }),
  viewer: t.drizzleField({
    type: UserType,
    nullable: true,
    description: "The signed-in staff user, or null.",
    // Every console screen asks for it: the query is prepared once per selection (prepared-selections.ts),
    // and its answer kept until the user changes (viewer-cache.ts).
    resolve: async (query, _root, _args, ctx) => {
      // A session that owes its passcode sees its own user too, to know which two-factor screen to show (not its organisation).
      if (ctx.actor.kind !== "staff" && ctx.actor.kind !== "two-factor-pending") return null;
      const { userId, organisationId } = ctx.actor;
      const cache = ctx.services.viewerCache;
      const user = await findFirstById(ctx.db, userId, (id) => query({ where: id as never }), (config) => ctx.db.query.users.findFirst(config), {
        read: (shape) => cache.read(userId, shape) as never,
        mark: () => cache.mark(),
        keep: (shape, row, markedAt) => cache.keep(userId, organisationId, shape, row as Record<string, unknown>, markedAt),
      });
      return user ?? null;
    },
  }),
  roles: t.drizzleField({
    type: [RoleType],
    authScopes: { staff: true },
    resolve: (query, _root, _args, ctx) => ctx.db.query.roles.findMany(query({ orderBy: { rank: "asc", name: "asc" } })),
  }),
}));
