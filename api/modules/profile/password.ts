import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { authTokens, sessions, users } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { hashPassword, verifyPassword } from "../../lib/passwords.ts";
import { recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { parseWith } from "../../lib/validation.ts";
import { requireStaff } from "../access/policy.ts";
import { recordActivity } from "../audit/service.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../auth/events.ts";
import { loginDelaySeconds, STAFF_COOKIE } from "../auth/session-policy.ts";
import { ChangePasswordInput } from "./inputs.ts";

export const OLD_PASSWORD_INCORRECT = "The old password is incorrect.";
export const SSO_HAS_NO_PASSWORD = "Single sign-on accounts sign in with their Microsoft account and have no password to change.";
export const PASSWORD_CHANGED_MEANWHILE = "Your password was changed in the meantime. Please sign in again.";

/**
 * The signed-in user changes their own password (spec §7, changePassword). The old password is
 * checked like a sign-in: a wrong one counts toward the same per-account wait as failed logins
 * (docs/decisions/004), so a borrowed session cannot be used to guess it quickly. On success every
 * session of the user ends, this one included (spec §4: the user is logged out), and unused
 * reset and magic-login links stop working.
 */
export async function changePassword(ctx: Ctx, rawInput: unknown, now = new Date()): Promise<true> {
  const actor = requireStaff(ctx);
  const input = parseWith(ChangePasswordInput, rawInput);
  const [account] = await ctx.db
    .select({
      passwordHash: users.passwordHash,
      isSSO: users.isSSO,
      failedLoginCount: users.failedLoginCount,
      lastFailedLoginAt: users.lastFailedLoginAt,
      organisationId: users.organisationId,
    })
    .from(users)
    .where(eq(users.id, actor.userId))
    .limit(1);
  if (!account) throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  if (account.isSSO || !account.passwordHash) throw badInput(SSO_HAS_NO_PASSWORD);

  const wait = loginDelaySeconds(account.failedLoginCount);
  const since = account.lastFailedLoginAt ? (now.getTime() - account.lastFailedLoginAt.getTime()) / 1000 : Infinity;
  if (wait > 0 && since < wait) {
    const retryAfterSeconds = Math.ceil(wait - since);
    throw new UserError("TOO_MANY_REQUESTS", `Too many failed password attempts. Please try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
  }
  if (!(await verifyPassword(account.passwordHash, input.oldPassword))) {
    // Counted outside any transaction: the refusal below must not roll the count back.
    await ctx.db
      .update(users)
      .set({ failedLoginCount: sql`${users.failedLoginCount} + 1`, lastFailedLoginAt: now })
      .where(eq(users.id, actor.userId));
    // And as a failed sign-in of this email, so signing in asks for proof of work (decision 016).
    await recordFailure(ctx.db, await subjectKey(ctx.db, "staff", actor.email.toLowerCase()), now);
    throw badInput(OLD_PASSWORD_INCORRECT, [{ field: "oldPassword", message: OLD_PASSWORD_INCORRECT }]);
  }

  const passwordHash = await hashPassword(input.newPassword);
  const ended = await ctx.db.transaction(async (tx) => {
    // Only over the hash that was checked: a change from another tab in between wins, and this one says so.
    const changed = await tx
      .update(users)
      .set({ passwordHash, failedLoginCount: 0, lastFailedLoginAt: null })
      .where(and(eq(users.id, actor.userId), eq(users.passwordHash, account.passwordHash!)))
      .returning({ id: users.id });
    if (changed.length === 0) throw new UserError("CONFLICT", PASSWORD_CHANGED_MEANWHILE);
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
