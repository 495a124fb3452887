import { builder } from "../../graphql/builder.ts";
import { forgotPassword, isResetTokenValid, resetPassword } from "./password-reset.ts";
import { resendEmailVerification } from "./verification.ts";

// Forgotten passwords and account verification (spec §7). The reset calls need no session: the
// mailed link is the credential. Resending a verification code is for the signed-in user's own account.

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
  resendEmailVerification: t.boolean({
    description: "Mails a new verification code to the signed-in user's own address, which `email` must be.",
    args: { email: t.arg.string({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => resendEmailVerification(ctx, args),
  }),
}));
