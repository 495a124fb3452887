import * as v from "valibot";
import { and, eq, isNull, lt, or } from "drizzle-orm";
import { sessions, users } from "../../../../db/schema/index.ts";
import type { Ctx } from "../../../context.ts";
import { changeEverywhere } from "../../../lib/invalidation.ts";
import { badInput } from "../../../lib/errors.ts";
import { parseWith } from "../../../lib/validation.ts";
import { recordActivity } from "../../audit/service.ts";
import { clearFailures } from "../../abuse/failures.ts";
import { subjectKey } from "../../abuse/secret.ts";
import { matchingStep } from "./codes.ts";
import { requirePending, twoFactorState, wrongCode, WRONG_PASSCODE } from "./attempts.ts";

export const PasscodeInput = v.object({
  passcode: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(20, WRONG_PASSCODE)),
});

export const SETUP_NOT_STARTED = "Two-Factor Authentication has not been set up yet. Please scan the QR code first.";

/**
 * POST /api/auth/two_factor/verification: the session gives its passcode. During setup the first
 * right passcode confirms the authenticator; at sign-in it passes the session. Either way the code's
 * time step is recorded in the same statement that checks it was not used before, so a passcode is
 * accepted once even when two requests race with it.
 */
/** Resolves to the user whose session has now passed. */
export async function verifyPasscode(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<string> {
  const actor = requirePending(ctx);
  const { passcode } = parseWith(PasscodeInput, rawInput);
  const account = await twoFactorState(ctx.db, actor.userId, ctx.services.keyRing);
  if (!account.secret) throw badInput(SETUP_NOT_STARTED);
  const step = matchingStep(account.secret, passcode, now, account.lastStep);
  if (step === null) return wrongCode(ctx, actor, WRONG_PASSCODE, now);

  const accepted = await changeEverywhere(ctx.db, ctx.services.invalidator, { tokenHashes: [actor.sessionTokenHash] }, async (tx) => {
    const claimed = await tx
      .update(users)
      .set({ twoFactorLastStep: step, twoFactorAuthenticationIsSet: true })
      .where(and(eq(users.id, actor.userId), eq(users.twoFactorSecret, account.storedSecret!), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    if (claimed.length === 0) return false;
    await tx.update(sessions).set({ twoFactorPassed: true, twoFactorFailures: 0 }).where(eq(sessions.tokenHash, actor.sessionTokenHash));
    await recordActivity(tx, { userId: actor.userId }, {
      organisationId: account.organisationId,
      objectType: "Self",
      objectId: actor.userId,
      action: account.isSet ? "TwoFactorPassed" : "TwoFactorSetUp",
    });
    return true;
  });
  // Another request took this step (or changed the secret) in between: the code was used.
  if (!accepted) return wrongCode(ctx, actor, WRONG_PASSCODE, now);
  await clearFailures(ctx.db, await subjectKey(ctx.db, "staff", actor.email.toLowerCase()));
  return actor.userId;
}
