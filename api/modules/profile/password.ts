import { and, eq, inArray, isNull } from "drizzle-orm";
import { authTokens, sessions, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { hashPassword } from "../../lib/passwords.ts";
import { parseWith } from "../../lib/validation.ts";
import { requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../auth/events.ts";
import { checkOwnPassword, proveSecondFactor, spendProof } from "../auth/reauthentication.ts";
import { STAFF_COOKIE } from "../auth/session-policy.ts";
import { ChangePasswordInput } from "./inputs.ts";

export const OLD_PASSWORD_INCORRECT = "The old password is incorrect.";
export const SSO_HAS_NO_PASSWORD = "Single sign-on accounts sign in with their Microsoft account and have no password to change.";
export const PASSWORD_CHANGED_MEANWHILE = "Your password was changed in the meantime. Please sign in again.";

/**
 * The signed-in user changes their own password (spec §7, changePassword). The old password is
 * checked like a sign-in: a wrong one counts toward the same per-account wait as failed logins
 * (docs/decisions/004, 061), so a borrowed session cannot be used to guess it quickly; with
 * two-factor on, the passcode (or recovery code) is asked too. On success every
 * session of the user ends, this one included (spec §4: the user is logged out), and unused
 * reset and magic-login links stop working.
 */
export async function changePassword(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangePasswordInput, rawInput);
  const [account] = await ctx.db.select({ isSSO: users.isSSO, organisationId: users.organisationId }).from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!account) throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  if (account.isSSO) throw badInput(SSO_HAS_NO_PASSWORD);
  const checkedHash = await checkOwnPassword(ctx, actor, input.oldPassword, { field: "oldPassword", message: OLD_PASSWORD_INCORRECT }, now);
  // With two-factor on, the password alone is not the account (decision 061).
  const secondFactor = await proveSecondFactor(ctx, actor, input, now);

  const passwordHash = await hashPassword(input.newPassword);
  const ended = await ctx.db.transaction(async (tx) => {
    // Only over the hash that was checked: a change from another tab in between wins, and this one says so.
    const changed = await tx
      .update(users)
      .set({ passwordHash, failedLoginCount: 0, lastFailedLoginAt: null })
      .where(and(eq(users.id, actor.userId), eq(users.passwordHash, checkedHash)))
      .returning({ id: users.id });
    if (changed.length === 0) throw new UserError("CONFLICT", PASSWORD_CHANGED_MEANWHILE);
    await spendProof(tx, secondFactor);
    await tx.delete(sessions).where(eq(sessions.userId, actor.userId));
    await tx
      .delete(authTokens)
      .where(and(eq(authTokens.userId, actor.userId), inArray(authTokens.purpose, ["ResetPassword", "MagicLogin"]), isNull(authTokens.usedAt)));
    await recordActivity(tx, actor, { organisationId: account.organisationId, objectType: "Self", objectId: actor.userId, action: "ChangePassword" });
    return ctx.services.invalidator.announce(tx, { userIds: [actor.userId] });
  });
  // The sessions are gone from the database; once this resolves, no instance's cache holds one either.
  await ended();

  // Every open console of this user (other tabs, other devices) is told at once; without a session hash the event concerns them all.
  await ctx.services.pubsub
    .publish(userDisconnectTopic(actor.userId), {} satisfies UserDisconnectEvent)
    .catch((error: unknown) => logError("Could not announce the end of a user's sessions", error));
  try {
    ctx.cookies.clear(STAFF_COOKIE);
  } catch {
    // Over a WebSocket no cookie can be cleared; the session row is gone, so the cookie opens nothing.
  }
  return true;
}
