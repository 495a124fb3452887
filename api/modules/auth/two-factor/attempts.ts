import { and, eq, ne, sql } from "drizzle-orm";
import type { Database } from "../../../../db/client.ts";
import { sessions, users } from "../../../../db/schema/index.ts";
import type { Ctx, SignedInActor, TwoFactorPendingActor } from "../../../context.ts";
import { changeEverywhere } from "../../../lib/invalidation.ts";
import { KeyRing } from "../../../lib/key-ring.ts";
import { UserError } from "../../../lib/errors.ts";
import { logError } from "../../../lib/log.ts";
import { recordFailure } from "../../abuse/failures.ts";
import { subjectKey } from "../../abuse/secret.ts";
import { userDisconnectTopic, type UserDisconnectEvent } from "../events.ts";
import { openTwoFactorSecret } from "./sealed-secret.ts";

/**
 * What the two-factor calls share: who may make them, and what a wrong code costs.
 *
 * A six-digit passcode has a million values and three are valid at a time, so guesses must be few:
 * a session that gives `MAX_WRONG_CODES` wrong passcodes or recovery codes is ended, and the account's
 * email counts a failed sign-in, so each new session costs the password again and, after a few, a
 * growing proof of work (decision 016). A stolen password therefore buys a handful of guesses per
 * solved challenge, never a free run at the code.
 */
export const MAX_WRONG_CODES = 5;

export const SIGN_IN_REQUIRED = "You must login to view this page";
export const WRONG_PASSCODE = "The passcode is incorrect or has already been used. Please try again.";
export const WRONG_RECOVERY_CODE = "The recovery code is incorrect. Please try again.";
export const TOO_MANY_WRONG_CODES = "Too many incorrect codes. Please sign in again.";
export const NOTHING_OWED = "Two-Factor Authentication is not waiting for a passcode.";

/** The session that owes its two-factor step; anyone else is told to sign in (or that nothing is owed). */
export function requirePending(ctx: Ctx): TwoFactorPendingActor {
  if (ctx.actor.kind === "two-factor-pending") return ctx.actor;
  if (ctx.actor.kind === "staff") throw new UserError("CONFLICT", NOTHING_OWED);
  throw new UserError("UNAUTHENTICATED", SIGN_IN_REQUIRED);
}

/**
 * Counts a wrong code against the session (one owing its step, or one proving itself again
 * before a sensitive change) and answers with `message`; the last allowed one ends the session on every instance and tells its console. Runs outside the caller's transaction, so
 * the refusal cannot roll the count back.
 */
export async function wrongCode(ctx: Ctx, actor: SignedInActor, message: string, now = new Date()): Promise<never> {
  const db = ctx.db;
  const [counted] = await db
    .update(sessions)
    .set({ twoFactorFailures: sql`${sessions.twoFactorFailures} + 1` })
    .where(eq(sessions.tokenHash, actor.sessionTokenHash))
    .returning({ failures: sessions.twoFactorFailures });
  await recordFailure(db, await subjectKey(db, "staff", actor.email.toLowerCase()), now);
  if (!counted || counted.failures >= MAX_WRONG_CODES) {
    await changeEverywhere(db, ctx.services.invalidator, { tokenHashes: [actor.sessionTokenHash] }, (tx) =>
      tx.delete(sessions).where(eq(sessions.tokenHash, actor.sessionTokenHash)),
    );
    await announceEnded(ctx, actor.userId, [actor.sessionTokenHash]);
    throw new UserError("UNAUTHENTICATED", TOO_MANY_WRONG_CODES);
  }
  throw new UserError("BAD_USER_INPUT", message, { fields: [{ field: message === WRONG_PASSCODE ? "passcode" : "recoveryCode", message }] });
}

/** Deletes the user's other sessions inside `tx`; returns their hashes for `announceEnded`. */
export async function endOtherSessions(tx: Database, actor: SignedInActor): Promise<string[]> {
  const ended = await tx
    .delete(sessions)
    .where(and(eq(sessions.userId, actor.userId), ne(sessions.tokenHash, actor.sessionTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return ended.map((row) => row.tokenHash);
}

/** Tells the consoles of these sessions (only these) that they have ended, so they clear at once. */
export async function announceEnded(ctx: Ctx, userId: string, tokenHashes: string[]): Promise<void> {
  for (const sessionTokenHash of tokenHashes) {
    await ctx.services.pubsub
      .publish(userDisconnectTopic(userId), { sessionTokenHash } satisfies UserDisconnectEvent)
      .catch((error: unknown) => logError("Could not announce the end of a session", error));
  }
}

/**
 * The account's two-factor columns, read for a check: `secret` is the authenticator's key, opened
 * (null when there is none, or it does not open); `storedSecret` is the column as stored, for a
 * statement that must change the row only while the key is still the one checked.
 */
export async function twoFactorState(db: Database, userId: string, keyRing: KeyRing = KeyRing.of(db)) {
  const [row] = await db
    .select({
      secret: users.twoFactorSecret,
      activated: users.twoFactorAuthenticationActivated,
      isSet: users.twoFactorAuthenticationIsSet,
      lastStep: users.twoFactorLastStep,
      recoveryCodeHash: users.recoveryCodeHash,
      organisationId: users.organisationId,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new UserError("UNAUTHENTICATED", SIGN_IN_REQUIRED);
  return { ...row, storedSecret: row.secret, secret: await openTwoFactorSecret(keyRing, db, userId, row.secret) };
}
