import { builder } from "../../graphql/builder.ts";
import { UserType } from "../users/graphql.ts";
import { changeAvatar } from "./avatar.ts";
import { changeDetails } from "./details.ts";
import { changePassword } from "./password.ts";

// The signed-in user's own profile (spec §7, Profile). Open to every staff user: there is no
// permission to hold for changing oneself, and no id to pass, so nobody else can be reached.

const ChangeDetailsInputType = builder.inputType("ChangeDetailsInput", {
  fields: (t) => ({
    firstName: t.string({ required: false }),
    lastName: t.string({ required: false }),
    email: t.string({ required: false }),
    twoFactorAuthenticationActivated: t.boolean({ required: false }),
    avatarBlobID: t.string({ required: false, description: "'-' removes the avatar; the current avatar's id keeps it. New pictures come through changeAvatar." }),
    password: t.string({ required: false, description: "The current password: needed to change the email address or two-factor authentication." }),
    passcode: t.string({ required: false, description: "A passcode from the authenticator app, with the password, while two-factor authentication is on." }),
    recoveryCode: t.string({ required: false, description: "The recovery code, in place of a passcode (it is used up)." }),
  }),
});

builder.mutationFields((t) => ({
  changeDetails: t.drizzleField({
    type: UserType,
    args: { input: t.arg({ type: ChangeDetailsInputType, required: true }) },
    authScopes: { staff: true },
    resolve: async (query, _root, args, ctx) => {
      const id = await changeDetails(ctx, args.input);
      return (await ctx.db.query.users.findFirst(query({ where: { id } })))!;
    },
  }),
  changeAvatar: t.drizzleField({
    type: UserType,
    args: { file: t.arg({ type: "File", required: true }) },
    authScopes: { staff: true },
    resolve: async (query, _root, args, ctx) => {
      const id = await changeAvatar(ctx, args.file);
      return (await ctx.db.query.users.findFirst(query({ where: { id } })))!;
    },
  }),
  changePassword: t.boolean({
    description: "Ends every session of the user, this one included: the console then shows the login page.",
    args: {
      oldPassword: t.arg.string({ required: true }),
      newPassword: t.arg.string({ required: true }),
      passcode: t.arg.string({ required: false, description: "Needed while two-factor authentication is on." }),
      recoveryCode: t.arg.string({ required: false, description: "In place of a passcode (it is used up)." }),
    },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => changePassword(ctx, args),
  }),
}));
