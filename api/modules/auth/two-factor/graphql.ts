import { builder } from "../../../graphql/builder.ts";
import { UserType } from "../../users/graphql.ts";
import { recoverTwoFactor, issueRecoveryCode } from "./recovery.ts";
import { twoFactorSecret, undoTwoFactorSetup, type TwoFactorSecret } from "./setup.ts";
import { changeUserTwoFactor } from "./switch.ts";

// The two-factor calls of spec §7. The secret, undo and recover calls are made by a session that
// still owes its two-factor step, which no scope admits: each verb checks its actor itself.

const TwoFactorSecretType = builder.objectRef<TwoFactorSecret>("TwoFactorAuthenticationSecret").implement({
  fields: (t) => ({
    secret: t.exposeString("secret", { description: "The key in base32, for typing into an authenticator app." }),
    qrCodeString: t.exposeString("qrCodeString", { description: "The otpauth:// address; the console draws its QR code itself." }),
  }),
});

builder.drizzleObjectField(UserType, "pass2FA", (t) =>
  t.boolean({
    description: "True when the asking session owes no two-factor step (its own user only; false for anyone else).",
    resolve: (user, _args, ctx) => ctx.actor.kind === "staff" && ctx.actor.userId === user.id,
  }),
);

builder.queryFields((t) => ({
  twoFactorAuthenticationSecret: t.field({
    type: TwoFactorSecretType,
    description: "The key to scan while setting up two-factor authentication.",
    resolve: (_root, _args, ctx) => twoFactorSecret(ctx),
  }),
  twoFactorRecoveryCode: t.stringList({
    description:
      "Issues a new recovery code (the previous one stops working); it is shown only in this answer. Replacing an existing code needs the current password, and the passcode or the recovery code.",
    args: {
      password: t.arg.string({ required: false }),
      passcode: t.arg.string({ required: false }),
      recoveryCode: t.arg.string({ required: false }),
    },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => issueRecoveryCode(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  twoFactorAuthenticationUndo: t.boolean({
    description: "The setup screen's back arrow: turns two-factor authentication off while no authenticator is confirmed.",
    resolve: (_root, _args, ctx) => undoTwoFactorSetup(ctx),
  }),
  twoFactorAuthenticationRecover: t.boolean({
    description: "Lost device: the recovery code passes this session once, and a new authenticator must be set up.",
    args: { recoveryCode: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => recoverTwoFactor(ctx, args),
  }),
  userTwoFactorAuthenticationUpdate: t.boolean({
    description: "A super admin turns a user's two-factor authentication off (or their own on or off), proving their own account with password and passcode.",
    args: {
      userID: t.arg.id({ required: true }),
      activated: t.arg.boolean({ required: true }),
      password: t.arg.string({ required: false, description: "The acting super admin's own current password." }),
      passcode: t.arg.string({ required: false, description: "The acting super admin's own passcode, when their two-factor is on." }),
      recoveryCode: t.arg.string({ required: false }),
    },
    authScopes: { superAdmin: true },
    resolve: (_root, args, ctx) => changeUserTwoFactor(ctx, { ...args, userID: String(args.userID) }),
  }),
}));
