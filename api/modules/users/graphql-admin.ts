import { builder } from "../../graphql/builder.ts";
import { UserType } from "./graphql.ts";
import { updateUserAvatar } from "./avatar.ts";
import { createUser } from "./create.ts";
import { deleteUser, kickUser, suspendUser, unsuspendUser } from "./status.ts";
import { updateUser } from "./update.ts";

// User administration (spec §7 Users mutations). The coarse permission sits on each field; the
// rank, organisation and own-account rules are the verbs' (rules.ts).

const UserCreateInputType = builder.inputType("UserCreateInput", {
  fields: (t) => ({
    username: t.string({ required: false }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    password: t.string({ required: true }),
    email: t.string({ required: true }),
    avatarBlobID: t.string({ required: false, description: "Pictures are added after creation with userUpdateAvatar; only '-' (none) is accepted here." }),
    organisationID: t.id({ required: false }),
    roleID: t.id({ required: true }),
    twoFactorAuthenticationActivated: t.boolean({ required: false, description: "Only false: two-factor is turned on by the account holder." }),
  }),
});

const UserUpdateInputType = builder.inputType("UserUpdateInput", {
  fields: (t) => ({
    username: t.string({ required: false }),
    firstName: t.string({ required: false }),
    lastName: t.string({ required: false }),
    password: t.string({ required: false, description: "A new password ends every session of the user." }),
    email: t.string({ required: false }),
    avatarBlobID: t.string({ required: false, description: "'-' removes the picture; the current picture's id keeps it." }),
    organisationID: t.id({ required: false }),
    roleID: t.id({ required: false }),
    twoFactorAuthenticationActivated: t.boolean({ required: false }),
    ownPassword: t.string({ required: false, description: "The acting user's own current password: needed to change an email address, a password or two-factor authentication." }),
    ownPasscode: t.string({ required: false, description: "The acting user's own passcode, with ownPassword, while their two-factor authentication is on." }),
    ownRecoveryCode: t.string({ required: false, description: "The acting user's own recovery code, in place of ownPasscode (it is used up)." }),
  }),
});


builder.mutationFields((t) => ({
  userCreate: t.drizzleField({
    type: UserType,
    args: { input: t.arg({ type: UserCreateInputType, required: true }) },
    authScopes: { permission: "UserCreate" },
    resolve: async (query, _root, args, ctx) => (await ctx.db.query.users.findFirst(query({ where: { id: await createUser(ctx, args.input) } })))!,
  }),
  userUpdate: t.drizzleField({
    type: UserType,
    description: "Also a password-only change: send just the password.",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UserUpdateInputType, required: true }) },
    authScopes: { permission: "UserUpdate" },
    resolve: async (query, _root, args, ctx) => {
      const { id } = await updateUser(ctx, args.id, args.input);
      return (await ctx.db.query.users.findFirst(query({ where: { id } })))!;
    },
  }),
  userUpdateAvatar: t.drizzleField({
    type: UserType,
    // The file is checked by the verb ('Invalid file' when missing), so a request without one is the client's error like any other.
    args: { id: t.arg.id({ required: true }), file: t.arg({ type: "File", required: false }) },
    authScopes: { permission: "UserUpdate" },
    resolve: async (query, _root, args, ctx) => (await ctx.db.query.users.findFirst(query({ where: { id: await updateUserAvatar(ctx, args.id, args.file ?? null) } })))!,
  }),
  userSuspend: t.drizzleField({
    type: UserType,
    description: "The user's sessions end at once on every instance.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "UserArchive" },
    resolve: async (query, _root, args, ctx) => (await ctx.db.query.users.findFirst(query({ where: { id: await suspendUser(ctx, args.id) } })))!,
  }),
  userUnsuspend: t.drizzleField({
    type: UserType,
    description: "Needs a free seat in the user's organisation.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "UserUnarchive" },
    resolve: async (query, _root, args, ctx) => (await ctx.db.query.users.findFirst(query({ where: { id: await unsuspendUser(ctx, args.id) } })))!,
  }),
  userDelete: t.boolean({
    description: "Permanent. The user's notes and messages stay, without an author.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "UserArchive" },
    resolve: (_root, args, ctx) => deleteUser(ctx, args.id),
  }),
  userKick: t.boolean({
    description: "A guest member of another organisation leaves this one and its report teams.",
    args: { id: t.arg.id({ required: true }), organisationID: t.arg.id({ required: true }) },
    authScopes: { permission: "UserArchive" },
    resolve: (_root, args, ctx) => kickUser(ctx, args.id, args.organisationID),
  }),
}));
