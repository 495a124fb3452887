import { and, eq, gt } from "drizzle-orm";
import { emailChanges } from "../../../db/schema/index.ts";
import { builder } from "../../graphql/builder.ts";
import { UserType } from "../users/graphql.ts";
import { cancelEmailChange, confirmEmailChange } from "./email-change.ts";
import { forgotPassword, isResetTokenValid, resetPassword } from "./password-reset.ts";
import { resendEmailVerification } from "./verification.ts";

// Forgotten passwords and account verification (spec §7). The reset calls need no session: the
// mailed link is the credential. Resending a verification code is for the signed-in user's own account.

builder.drizzleObjectField(UserType, "pendingEmail", (t) =>
  t.string({
    nullable: true,
    description: "The signed-in user's own new address while it waits for its confirmation link (null for anyone else).",
    resolve: async (user, _args, ctx) => {
      if (ctx.actor.kind !== "staff" || ctx.actor.userId !== user.id) return null;
      const [pending] = await ctx.db
        .select({ newEmail: emailChanges.newEmail })
        .from(emailChanges)
        .where(and(eq(emailChanges.userId, user.id), gt(emailChanges.expiresAt, new Date())));
      return pending?.newEmail ?? null;
    },
  }),
);

builder.queryFields((t) => ({
  verifyResetToken: t.boolean({
    description: "Whether a password reset link still works; spends nothing.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => isResetTokenValid(ctx, args.token),
  }),
}));

builder.mutationFields((t) => ({
  forgotPassword: t.boolean({
    description: "Mails a reset link when an account has the address; answers the same either way. verifyToken: a solved proof-of-work challenge when asked for one.",
    args: { email: t.arg.string({ required: true }), verifyToken: t.arg.string() },
    resolve: (_root, args, ctx) => forgotPassword(ctx, args),
  }),
  resetPassword: t.boolean({
    description: "Sets a new password with a reset link, and ends every session of the account.",
    args: { token: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => resetPassword(ctx, args),
  }),
  confirmEmailChange: t.boolean({
    description: "The link mailed to a new address: makes it the account's address. Needs no session.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => confirmEmailChange(ctx, args),
  }),
  cancelEmailChange: t.boolean({
    description: "The link mailed to the address in use: refuses a requested change, and signs the account out everywhere. Needs no session.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => cancelEmailChange(ctx, args),
  }),
  resendEmailVerification: t.boolean({
    description: "Mails a new verification code to the signed-in user's own address, which `email` must be.",
    args: { email: t.arg.string({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => resendEmailVerification(ctx, args),
  }),
}));
