import { eq, sql } from "drizzle-orm";
import { sessions, users } from "../../../db/schema/index.ts";
import type { Ctx, Services } from "../../context.ts";
import { badInput } from "../../lib/errors.ts";
import { changeEverywhere } from "../../lib/invalidation.ts";
import { logError } from "../../lib/log.ts";
import { mailFailureReason } from "../../lib/mailer.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { hashToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { INVALID_RESET_LINK } from "../../shared/messages.ts";
import { admit, hashForParty } from "../abuse/guard.ts";
import { clearFailures, recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { recordActivity } from "../audit/service.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../auth/events.ts";
import { ForgotPasswordInput, ResetPasswordInput } from "./inputs.ts";
import { consumeMailedToken, issueMailedToken, peekMailedToken, voidSignInLinks } from "./mailed-tokens.ts";
import { resetPasswordMail } from "./mails.ts";

/**
 * Forgotten passwords (spec §2, /admin/forgot-password and /admin/reset-password/:token;
 * docs/decisions/029-account-access.md).
 */

interface ResetCandidate {
  id: string;
  email: string;
  organisationId: string | null;
}

/**
 * Writes the link and mails it. Runs after the answer has gone, for accounts only: the answer for an
 * address without an account is the same, and comes just as fast, because neither waits for this.
 */
async function deliverResetLink(services: Services, account: ResetCandidate, now: Date): Promise<void> {
  const token = await services.database.db.transaction(async (tx) => {
    const issued = await issueMailedToken(tx, account.id, "ResetPassword", now);
    await recordActivity(tx, { userId: account.id }, { organisationId: account.organisationId, objectType: "Self", objectId: account.id, action: "ForgotPassword" });
    return issued;
  });
  await services.mailer.send(resetPasswordMail(services.config, account.email, token));
}

/**
 * forgotPassword(email, verifyToken): always true, whatever the address. Each request counts against
 * its address (known or not) apart from sign-in failures: a few an hour are free, then each costs
 * proof of work that grows (decision 016), so nobody can fill a mailbox with reset links.
 */
export async function forgotPassword(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const input = parseWith(ForgotPasswordInput, rawInput);
  const key = await subjectKey(ctx.db, "password-reset", input.email);
  await admit(ctx.db, { action: "forgot_password_submit", subjectKey: key, solution: input.verifyToken, now });
  await recordFailure(ctx.db, key, now, { pressure: false });
  const [account] = await ctx.db
    .select({ id: users.id, email: users.email, organisationId: users.organisationId, suspended: users.suspended, isSSO: users.isSSO })
    .from(users)
    .where(sql`lower(${users.email}) = ${input.email}`)
    .limit(1);
  // Single sign-on accounts have no password to reset, and a suspended account may not sign in at all.
  if (account && !account.isSSO && !account.suspended) {
    const services = ctx.services;
    void deliverResetLink(services, account, now).catch((error: unknown) => logError("Could not send a password reset link", undefined, { reason: mailFailureReason(error) }));
  }
  return true;
}

/** The account a live reset link reaches, if it still works. Spends nothing. */
async function resetLinkHolder(ctx: Ctx, token: string, now: Date): Promise<string | null> {
  const holder = await peekMailedToken(ctx.db, token, "ResetPassword", now);
  return holder && !holder.isSSO ? holder.userId : null;
}

/** verifyResetToken(token): whether the link still works, checked when the page opens. */
export async function isResetTokenValid(ctx: Ctx, token: string, now = new Date()): Promise<boolean> {
  return (await resetLinkHolder(ctx, token.trim(), now)) !== null;
}

/**
 * resetPassword(token, newPassword): sets the password, spends the link, and ends every session of
 * the account on every instance (a reset is what someone does when they fear another has the
 * password). Open consoles of the account are told at once.
 */
export async function resetPassword(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const input = parseWith(ResetPasswordInput, rawInput);
  // A dead link is refused before any hashing.
  const userId = await resetLinkHolder(ctx, input.token, now);
  if (!userId) throw badInput(INVALID_RESET_LINK);
  // One hash at a time per link in the trusted lane: repeating a live link cannot queue hashes in front of sign-ins.
  const passwordHash = await hashForParty(`reset:${hashToken(input.token)}`, (lane) => hashPassword(input.newPassword, lane));

  const account = await changeEverywhere(ctx.db, ctx.services.invalidator, { userIds: [userId] }, async (tx) => {
    // Spent here, in the transaction that uses it: of two requests racing with one link, one wins.
    if ((await consumeMailedToken(tx, input.token, "ResetPassword", now)) !== userId) throw badInput(INVALID_RESET_LINK);
    const [changed] = await tx
      .update(users)
      .set({ passwordHash, failedLoginCount: 0, lastFailedLoginAt: null })
      .where(eq(users.id, userId))
      .returning({ email: users.email, organisationId: users.organisationId });
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await voidSignInLinks(tx, userId);
    await recordActivity(tx, { userId }, { organisationId: changed!.organisationId, objectType: "Self", objectId: userId, action: "ResetPassword" });
    return changed!;
  });
  // The owner proved the mailbox: earlier failed sign-ins of the address cost nothing any more.
  await clearFailures(ctx.db, await subjectKey(ctx.db, "staff", account.email.toLowerCase()));
  // Every open console of the account (any tab, any device) is told; without a session hash the event concerns them all.
  await ctx.services.pubsub
    .publish(userDisconnectTopic(userId), {} satisfies UserDisconnectEvent)
    .catch((error: unknown) => logError("Could not announce the end of a user's sessions", error));
  return true;
}
