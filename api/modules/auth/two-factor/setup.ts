import { and, eq } from "drizzle-orm";
import { users } from "../../../../db/schema/index.ts";
import type { Ctx } from "../../../context.ts";
import { changeEverywhere } from "../../../lib/invalidation.ts";
import { UserError } from "../../../lib/errors.ts";
import { recordActivity } from "../../audit/service.ts";
import { newTotpSecret, totpKeyUri } from "./codes.ts";
import { requirePending, twoFactorState } from "./attempts.ts";
import { openTwoFactorSecret, sealTwoFactorSecret } from "./sealed-secret.ts";

export const ALREADY_SET_UP = "Two-Factor Authentication is already set up. Please enter the passcode from your authenticator app.";

export interface TwoFactorSecret {
  secret: string;
  /** The otpauth:// address; the console draws it as a QR code itself. */
  qrCodeString: string;
}

/**
 * twoFactorAuthenticationSecret: the key to scan, for a session whose account has 2FA turned on but
 * no confirmed authenticator. An unconfirmed key is kept, so reloading the setup screen shows the
 * one already scanned; it counts for nothing until a passcode from it is verified. The key is
 * stored sealed (sealed-secret.ts): TOTP needs it to compute passcodes, so it cannot be hashed.
 * An unconfirmed key that does not open is replaced, as if there were none.
 */
export async function twoFactorSecret(ctx: Ctx): Promise<TwoFactorSecret> {
  const actor = requirePending(ctx);
  if (actor.twoFactorSet) throw new UserError("CONFLICT", ALREADY_SET_UP);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ secret: users.twoFactorSecret, isSet: users.twoFactorAuthenticationIsSet })
      .from(users)
      .where(eq(users.id, actor.userId))
      .for("update")
      .limit(1);
    if (!row || row.isSet) throw new UserError("CONFLICT", ALREADY_SET_UP);
    let secret = await openTwoFactorSecret(ctx.services.keyRing, tx, actor.userId, row.secret);
    if (!secret) {
      secret = newTotpSecret();
      const sealed = await sealTwoFactorSecret(ctx.services.keyRing, tx, actor.userId, secret);
      await tx.update(users).set({ twoFactorSecret: sealed, twoFactorLastStep: null }).where(eq(users.id, actor.userId));
    }
    return { secret, qrCodeString: totpKeyUri(secret, actor.email) };
  });
}

/**
 * The setup screen's back arrow: turns two-factor authentication off again while no authenticator
 * has been confirmed. Nothing was protected by it yet, so the password that opened this session is
 * enough; once a passcode has been verified this is refused and only a signed-in user can turn it off.
 */
export async function undoTwoFactorSetup(ctx: Ctx): Promise<true> {
  const actor = requirePending(ctx);
  if (actor.twoFactorSet) throw new UserError("CONFLICT", ALREADY_SET_UP);
  const account = await twoFactorState(ctx.db, actor.userId, ctx.services.keyRing);
  await changeEverywhere(ctx.db, ctx.services.invalidator, { userIds: [actor.userId] }, async (tx) => {
    const undone = await tx
      .update(users)
      .set({ twoFactorAuthenticationActivated: false, twoFactorAuthenticationIsSet: false, twoFactorSecret: null, twoFactorLastStep: null, recoveryCodeHash: null })
      // Only while still unconfirmed: a passcode verified a moment ago wins.
      .where(and(eq(users.id, actor.userId), eq(users.twoFactorAuthenticationIsSet, false)))
      .returning({ id: users.id });
    if (undone.length === 0) throw new UserError("CONFLICT", ALREADY_SET_UP);
    await recordActivity(tx, { userId: actor.userId }, { organisationId: account.organisationId, objectType: "Self", objectId: actor.userId, action: "TwoFactorSetupUndone" });
  });
  return true;
}
