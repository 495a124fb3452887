import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { authTokens, users } from "../../../db/schema/index.ts";
import type { Ctx, Services } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { mailFailureReason } from "../../lib/mailer.ts";
import { parseWith } from "../../lib/validation.ts";
import { VERIFICATION_CODE_INVALID } from "../../shared/messages.ts";
import { requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { ResendVerificationInput, VerifyAccountInput } from "./inputs.ts";
import { consumeMailedToken, issueMailedToken } from "./mailed-tokens.ts";
import { verificationMail } from "./mails.ts";

/**
 * Account verification (spec §2, /admin/verify; docs/decisions/029-account-access.md). An account
 * is unverified while nobody has shown they read mail at its address: a new account, or one whose
 * address changed. The code is a mailed secret like a reset link, and the link in the mail carries it.
 */

export const NOT_YOUR_EMAIL = "This is not the email address of your account.";
export const RESEND_TOO_SOON = "An email was sent less than a minute ago. Please wait a minute before asking for another.";
export const VERIFICATION_MAIL_FAILED = "The email could not be sent. Please try again later.";
/** Between two codes for one account: the resend link cannot be used to flood a mailbox. */
export const RESEND_INTERVAL_MS = 60 * 1000;

/** A new code for the account, voiding the one before; the caller mails it once its transaction commits. */
export function issueVerificationCode(tx: Database, userId: string, now: Date): Promise<string> {
  return issueMailedToken(tx, userId, "VerifyEmail", now);
}

/** Mails a code; false when the hand-over failed (logged without the address). */
export async function sendVerificationCode(services: Services, to: string, code: string): Promise<boolean> {
  try {
    await services.mailer.send(verificationMail(services.config, to, code));
    return true;
  } catch (error) {
    logError("Could not send a verification code", undefined, { reason: mailFailureReason(error) });
    return false;
  }
}

/**
 * POST /api/auth/verify_account {token}: spends the code and marks its account verified. It needs
 * no session: the code proves the mailbox, and the link may be opened on another device.
 */
export async function verifyAccount(services: Services, rawInput: unknown, now = new Date()): Promise<void> {
  const input = parseWith(VerifyAccountInput, rawInput);
  await services.database.db.transaction(async (tx) => {
    const userId = await consumeMailedToken(tx, input.token, "VerifyEmail", now);
    if (!userId) throw badInput(VERIFICATION_CODE_INVALID, [{ field: "token", message: VERIFICATION_CODE_INVALID }]);
    const [account] = await tx.update(users).set({ verified: true }).where(eq(users.id, userId)).returning({ organisationId: users.organisationId });
    await recordActivity(tx, { userId }, { organisationId: account!.organisationId, objectType: "Self", objectId: userId, action: "VerifyAccount" });
  });
}

/**
 * resendEmailVerification(email): a new code for the signed-in user's own unverified account.
 * Only the caller's own current address is accepted, so the call reveals nothing about other
 * accounts; a verified account is sent nothing. At most one code a minute.
 */
export async function resendEmailVerification(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const actor = requireStaff(ctx);
  const input = parseWith(ResendVerificationInput, rawInput);
  const issued = await ctx.db.transaction(async (tx) => {
    // Locked, so two resends at once cannot both pass the interval check.
    const [account] = await tx
      .select({ email: users.email, verified: users.verified, organisationId: users.organisationId })
      .from(users)
      .where(eq(users.id, actor.userId))
      .for("update");
    if (!account) throw new UserError("UNAUTHENTICATED", "You must login to view this page");
    if (account.email.toLowerCase() !== input.email) throw badInput(NOT_YOUR_EMAIL, [{ field: "email", message: NOT_YOUR_EMAIL }]);
    if (account.verified) return null;
    const [latest] = await tx
      .select({ createdAt: authTokens.createdAt })
      .from(authTokens)
      .where(and(eq(authTokens.userId, actor.userId), eq(authTokens.purpose, "VerifyEmail")))
      .orderBy(desc(authTokens.createdAt))
      .limit(1);
    const since = latest ? now.getTime() - latest.createdAt.getTime() : Infinity;
    if (since < RESEND_INTERVAL_MS) {
      throw new UserError("TOO_MANY_REQUESTS", RESEND_TOO_SOON, { retryAfterSeconds: Math.ceil((RESEND_INTERVAL_MS - since) / 1000) });
    }
    const code = await issueVerificationCode(tx, actor.userId, now);
    await recordActivity(tx, actor, { organisationId: account.organisationId, objectType: "Self", objectId: actor.userId, action: "ResendEmailVerification" });
    return { to: account.email, code };
  });
  if (issued && !(await sendVerificationCode(ctx.services, issued.to, issued.code))) throw new UserError("UNAVAILABLE", VERIFICATION_MAIL_FAILED);
  return true;
}
