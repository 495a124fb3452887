import * as v from "valibot";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { sessions, users } from "../../../../db/schema/index.ts";
import type { Ctx } from "../../../context.ts";
import { changeEverywhere } from "../../../lib/invalidation.ts";
import { UserError } from "../../../lib/errors.ts";
import { constantTimeEqual } from "../../../lib/tokens.ts";
import { parseWith } from "../../../lib/validation.ts";
import { requireStaff } from "../../access/policy.ts";
import { recordActivity } from "../../audit/service.ts";
import { ProofFields, proveOwnAccount, spendProof } from "../reauthentication.ts";
import { newRecoveryCode, recoveryCodeHash } from "./codes.ts";
import { announceEnded, endOtherSessions, requirePending, twoFactorState, wrongCode, WRONG_RECOVERY_CODE } from "./attempts.ts";

export const RecoverInput = v.object({
  recoveryCode: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(100, WRONG_RECOVERY_CODE)),
});

export const NO_RECOVERY_CODE_YET = "Two-Factor Authentication is not set up, so there is no recovery code.";
export const CODE_ISSUED_MEANWHILE = "A recovery code was issued in another window meanwhile. Please confirm it is you to get a new one.";

export const RecoveryCodeRequestInput = v.object(ProofFields);

/**
 * twoFactorRecoveryCode: a new recovery code for the signed-in user's confirmed authenticator. It
 * exists only in this answer (the console makes the user download it as recovery_code.txt); the
 * account keeps its hash, and the code it replaces stops working. The first code after setting up
 * or recovering needs nothing more than the session that just gave its passcode; replacing a code
 * that exists needs proof of the account (decision 061), so a stolen session cannot read one.
 */
export async function issueRecoveryCode(ctx: Ctx, rawInput: unknown = {}, now = new Date()): Promise<string[]> {
  const actor = requireStaff(ctx);
  const input = parseWith(RecoveryCodeRequestInput, rawInput);
  const [current] = await ctx.db
    .select({ hasCode: isNotNull(users.recoveryCodeHash), activated: users.twoFactorAuthenticationActivated, isSet: users.twoFactorAuthenticationIsSet })
    .from(users)
    .where(eq(users.id, actor.userId));
  if (!current?.activated || !current.isSet) throw new UserError("CONFLICT", NO_RECOVERY_CODE_YET);
  const proof = current.hasCode ? await proveOwnAccount(ctx, actor, input, now) : null;
  const code = newRecoveryCode();
  await ctx.db.transaction(async (tx) => {
    if (proof) await spendProof(tx, proof);
    const issued = await tx
      .update(users)
      .set({ recoveryCodeHash: recoveryCodeHash(code) })
      .where(
        and(
          eq(users.id, actor.userId),
          eq(users.twoFactorAuthenticationActivated, true),
          eq(users.twoFactorAuthenticationIsSet, true),
          // Without proof, only while there is still no code (another tab may have issued one meanwhile).
          proof ? undefined : isNull(users.recoveryCodeHash),
        ),
      )
      .returning({ organisationId: users.organisationId });
    if (issued.length === 0) throw new UserError("CONFLICT", proof ? NO_RECOVERY_CODE_YET : CODE_ISSUED_MEANWHILE);
    await recordActivity(tx, actor, { organisationId: issued[0]!.organisationId, objectType: "Self", objectId: actor.userId, action: "TwoFactorRecoveryCodeIssued" });
  });
  return [code];
}

/**
 * The lost-device mode: the recovery code stands in for a passcode, once. The lost authenticator
 * and the used code stop working, every other session of the account ends (whoever holds the
 * device may hold one), and this session goes on to set up a new authenticator.
 */
export async function recoverTwoFactor(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const actor = requirePending(ctx);
  const { recoveryCode } = parseWith(RecoverInput, rawInput);
  const account = await twoFactorState(ctx.db, actor.userId, ctx.services.keyRing);
  const given = recoveryCodeHash(recoveryCode);
  if (!account.isSet || !account.recoveryCodeHash || !constantTimeEqual(given, account.recoveryCodeHash)) {
    return wrongCode(ctx, actor, WRONG_RECOVERY_CODE, now);
  }
  let ended: string[] = [];
  const recovered = await changeEverywhere(ctx.db, ctx.services.invalidator, { userIds: [actor.userId] }, async (tx) => {
    // Only over the code that was checked: the same code sent twice at once recovers once.
    const cleared = await tx
      .update(users)
      .set({ twoFactorAuthenticationIsSet: false, twoFactorSecret: null, twoFactorLastStep: null, recoveryCodeHash: null })
      .where(and(eq(users.id, actor.userId), eq(users.recoveryCodeHash, given)))
      .returning({ id: users.id });
    if (cleared.length === 0) return false;
    await tx.update(sessions).set({ twoFactorPassed: true, twoFactorFailures: 0 }).where(eq(sessions.tokenHash, actor.sessionTokenHash));
    ended = await endOtherSessions(tx, actor);
    await recordActivity(tx, { userId: actor.userId }, { organisationId: account.organisationId, objectType: "Self", objectId: actor.userId, action: "TwoFactorRecovered" });
    return true;
  });
  if (!recovered) return wrongCode(ctx, actor, WRONG_RECOVERY_CODE, now);
  await announceEnded(ctx, actor.userId, ended);
  return true;
}
