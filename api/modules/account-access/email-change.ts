import * as v from "valibot";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/results.ts";
import { authTokens, emailChanges, sessions, users } from "../../../db/schema/index.ts";
import type { Ctx, Services } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { mailFailureReason } from "../../lib/mailer.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { parseWith } from "../../lib/validation.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { recordActivity } from "../audit/service.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../auth/events.ts";
import { isTokenShaped, voidSignInLinks } from "./mailed-tokens.ts";
import { emailChangeCancelledMail, emailChangedMail, emailChangeRequestedMail, confirmEmailChangeMail } from "./mails.ts";

/**
 * A new email address takes effect only once the link mailed to it is opened (decision 061). Until
 * then sign-in, resets and mail keep using the old address, which is told of the request and holds a
 * link that cancels it. Whoever asked had to prove the account first (auth/reauthentication.ts).
 */

export const EMAIL_TAKEN = "This email address is already in use.";
export const EMAIL_CHANGE_LINK_INVALID = "This email change link has expired, was cancelled or has already been used.";
/** A day, as a verification code: the mail may wait in a mailbox over a night. */
export const EMAIL_CHANGE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const EmailChangeLinkInput = v.object({
  token: v.pipe(v.string(EMAIL_CHANGE_LINK_INVALID), v.trim(), v.maxLength(TEXT_LIMITS.short.max, EMAIL_CHANGE_LINK_INVALID)),
});

export interface RequestedEmailChange {
  oldEmail: string;
  newEmail: string;
  confirmToken: string;
  cancelToken: string;
}

const emailTaken = () => new UserError("CONFLICT", EMAIL_TAKEN, { fields: [{ field: "email", message: EMAIL_TAKEN }] });

/** Refuses an address another account already has (sign-in finds accounts by address alone). */
export async function refuseTakenEmail(tx: Database, email: string, ownerId: string): Promise<void> {
  const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  if (taken && taken.id !== ownerId) throw emailTaken();
}

/**
 * Inside the caller's transaction: records the address waiting for confirmation, replacing any
 * earlier request of the account (its links stop working). The caller mails the links once it commits.
 */
export async function requestEmailChange(tx: Database, account: { id: string; email: string }, newEmail: string, now: Date): Promise<RequestedEmailChange> {
  await refuseTakenEmail(tx, newEmail, account.id);
  const confirmToken = newToken();
  const cancelToken = newToken();
  const row = { newEmail, confirmTokenHash: hashToken(confirmToken), cancelTokenHash: hashToken(cancelToken), createdAt: now, expiresAt: new Date(now.getTime() + EMAIL_CHANGE_LIFETIME_MS) };
  await tx.insert(emailChanges).values({ userId: account.id, ...row }).onConflictDoUpdate({ target: emailChanges.userId, set: row });
  return { oldEmail: account.email, newEmail, confirmToken, cancelToken };
}

/** After the request committed: the link to the new address, and word (with the cancel link) to the old one. */
export async function mailEmailChange(services: Services, change: RequestedEmailChange): Promise<void> {
  const send = (mail: Parameters<Services["mailer"]["send"]>[0], what: string) =>
    services.mailer.send(mail).catch((error: unknown) => logError(`Could not send ${what}`, undefined, { reason: mailFailureReason(error) }));
  await send(confirmEmailChangeMail(services.config, change.newEmail, change.confirmToken), "an email change link");
  await send(emailChangeRequestedMail(services.config, change.oldEmail, change.cancelToken), "word of an email change");
}

/** The request a link of this kind names, removed so that it works once; null for any dead link. */
async function takeRequest(tx: Database, token: string, link: "confirm" | "cancel", now: Date) {
  if (!isTokenShaped(token)) return null;
  const column = link === "confirm" ? emailChanges.confirmTokenHash : emailChanges.cancelTokenHash;
  const [request] = await tx
    .delete(emailChanges)
    .where(and(eq(column, hashToken(token)), gt(emailChanges.expiresAt, now)))
    .returning({ userId: emailChanges.userId, newEmail: emailChanges.newEmail });
  return request ?? null;
}

/**
 * confirmEmailChange(token): the new address's owner opened the link. It needs no session (the link
 * proves the mailbox, and may be opened on another device). The address is now the account's and
 * proven; links mailed to the old address stop working, and the old address is told.
 */
export async function confirmEmailChange(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const { token } = parseWith(EmailChangeLinkInput, rawInput);
  let confirmed: { oldEmail: string; applied: () => Promise<void> };
  try {
    confirmed = await ctx.db.transaction(async (tx) => {
      const request = await takeRequest(tx, token, "confirm", now);
      if (!request) throw badInput(EMAIL_CHANGE_LINK_INVALID, [{ field: "token", message: EMAIL_CHANGE_LINK_INVALID }]);
      const [account] = await tx.select({ email: users.email, organisationId: users.organisationId }).from(users).where(eq(users.id, request.userId)).for("update");
      await refuseTakenEmail(tx, request.newEmail, request.userId);
      await tx.update(users).set({ email: request.newEmail, verified: true }).where(eq(users.id, request.userId));
      await voidSignInLinks(tx, request.userId);
      await tx.delete(authTokens).where(and(eq(authTokens.userId, request.userId), eq(authTokens.purpose, "VerifyEmail")));
      await recordActivity(tx, { userId: request.userId }, { organisationId: account!.organisationId, objectType: "Self", objectId: request.userId, action: "EmailChangeConfirmed" });
      // Sessions carry the address: every instance reads them again before this answers.
      return { oldEmail: account!.email, applied: await ctx.services.invalidator.announce(tx, { userIds: [request.userId] }) };
    });
  } catch (error) {
    // Another account took the address between the request and the link: the unique index says so.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  await confirmed.applied();
  const oldEmail = confirmed.oldEmail;
  await ctx.services.mailer.send(emailChangedMail(oldEmail)).catch((error: unknown) => logError("Could not tell an old address of its change", undefined, { reason: mailFailureReason(error) }));
  return true;
}

/**
 * cancelEmailChange(token): the old address's owner refused the change. Whoever asked held a signed-in
 * session, so every session of the account ends too: if it was not the owner, that was the thief's.
 */
export async function cancelEmailChange(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const { token } = parseWith(EmailChangeLinkInput, rawInput);
  const cancelled = await ctx.db.transaction(async (tx) => {
    const request = await takeRequest(tx, token, "cancel", now);
    if (!request) throw badInput(EMAIL_CHANGE_LINK_INVALID, [{ field: "token", message: EMAIL_CHANGE_LINK_INVALID }]);
    const [account] = await tx.select({ email: users.email, organisationId: users.organisationId }).from(users).where(eq(users.id, request.userId));
    await tx.delete(sessions).where(eq(sessions.userId, request.userId));
    await recordActivity(tx, { userId: request.userId }, { organisationId: account!.organisationId, objectType: "Self", objectId: request.userId, action: "EmailChangeCancelled" });
    return { userId: request.userId, email: account!.email, applied: await ctx.services.invalidator.announce(tx, { userIds: [request.userId] }) };
  });
  await cancelled.applied();
  await ctx.services.pubsub
    .publish(userDisconnectTopic(cancelled.userId), {} satisfies UserDisconnectEvent)
    .catch((error: unknown) => logError("Could not announce the end of a user's sessions", error));
  await ctx.services.mailer.send(emailChangeCancelledMail(cancelled.email)).catch((error: unknown) => logError("Could not confirm a cancelled email change", undefined, { reason: mailFailureReason(error) }));
  return true;
}

/** An expired request changes nothing and its links open nothing; the housekeeping round removes it. */
export async function forgetExpiredEmailChanges(db: Database, now: Date): Promise<void> {
  await db.delete(emailChanges).where(lt(emailChanges.expiresAt, now));
}
