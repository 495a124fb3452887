import * as v from "valibot";
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { sessions, users } from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { constantTimeEqual } from "../../lib/tokens.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { hashForParty } from "../abuse/guard.ts";
import { recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { matchingStep, recoveryCodeHash } from "./two-factor/codes.ts";
import { SIGN_IN_REQUIRED, twoFactorState, wrongCode, WRONG_PASSCODE, WRONG_RECOVERY_CODE } from "./two-factor/attempts.ts";
import { FREE_LOGIN_FAILURES, loginDelaySeconds, MAX_LOGIN_DELAY_SECONDS } from "./session-policy.ts";

/**
 * Proof of the account, asked again before a change of how it signs in or where its mail goes
 * (docs/decisions/061): its password, and its passcode (or recovery code) when two-factor is on.
 * A session cookie alone proves only that someone holds the cookie.
 */

export const PASSWORD_REQUIRED = "Enter your current password to confirm it is you.";
export const PASSWORD_INCORRECT = "The password is incorrect.";
export const PASSCODE_REQUIRED = "Enter the passcode from your authenticator app, or your recovery code, to confirm it is you.";
export const SSO_SIGN_IN_AGAIN = "Sign in again with your Microsoft account to confirm it is you, then repeat the change.";
export const CHANGED_MEANWHILE = "This was changed in another window meanwhile. Please try again.";
/** The names an administrator's own proof goes by where `password` is something else (the new password userUpdate sets). */
export const OWN_PROOF_FIELDS = { password: "ownPassword", passcode: "ownPasscode", recoveryCode: "ownRecoveryCode" };
/** A single sign-on account proves itself by a provider sign-in this recent (it has no password to give). */
export const SSO_FRESH_SIGN_IN_MS = 5 * 60 * 1000;

const bounded = (max: number, tooLong: string) => v.optional(v.nullable(v.pipe(v.string(), v.maxLength(max, tooLong))));

/** The fields every such change accepts; each is optional, and which are needed depends on the account. */
export const ProofFields = {
  password: bounded(TEXT_LIMITS.password.max, TEXT_LIMITS.password.tooLong),
  passcode: bounded(20, WRONG_PASSCODE),
  recoveryCode: bounded(100, WRONG_RECOVERY_CODE),
};
export type AccountProof = { password?: string | null; passcode?: string | null; recoveryCode?: string | null };

/** A proof checked outside any transaction; `spendProof` uses up its one-time part inside the change's own. */
export interface CheckedProof {
  userId: string;
  passcodeStep: number | null;
  recoveryCodeHash: string | null;
}

/**
 * Checks the current password, counted and bounded like a sign-in. The attempt is counted before
 * the hash runs, in the statement that checks the account may try now: a burst of requests cannot
 * all pass the wait by reading the count at once. Five are free, then 2, 4, 8 … seconds apart (at
 * most five minutes); one hash per account at a time in the trusted lane (others wait in the open
 * one), so a session cannot fill the queue that paying sign-ins rely on.
 * A wrong password is also a failed sign-in of the email, so signing in asks for proof of work.
 */
export async function checkOwnPassword(ctx: Ctx, actor: StaffActor, password: string, problem: { field: string; message: string }, now = new Date()): Promise<string> {
  const delay = sql`least(${MAX_LOGIN_DELAY_SECONDS}, power(2, ${users.failedLoginCount} - ${FREE_LOGIN_FAILURES} + 1))`;
  const [reserved] = await ctx.db
    .update(users)
    .set({ failedLoginCount: sql`${users.failedLoginCount} + 1`, lastFailedLoginAt: now })
    .where(
      and(
        eq(users.id, actor.userId),
        or(
          lt(users.failedLoginCount, FREE_LOGIN_FAILURES),
          isNull(users.lastFailedLoginAt),
          sql`${users.lastFailedLoginAt} + make_interval(secs => ${delay}) <= ${now.toISOString()}::timestamptz`,
        ),
      ),
    )
    .returning({ passwordHash: users.passwordHash });
  if (!reserved) throw await tooSoon(ctx.db, actor.userId, now);
  if (!reserved.passwordHash) throw badInput(problem.message, [problem]);
  const right = await hashForParty(`reauthentication:${actor.userId}`, (lane) => verifyPassword(reserved.passwordHash, password, lane));
  if (!right) {
    await recordFailure(ctx.db, await subjectKey(ctx.db, "staff", actor.email.toLowerCase()), now);
    throw badInput(problem.message, [problem]);
  }
  await ctx.db.update(users).set({ failedLoginCount: 0, lastFailedLoginAt: null }).where(eq(users.id, actor.userId));
  return reserved.passwordHash;
}

async function tooSoon(db: Database, userId: string, now: Date): Promise<UserError> {
  const [row] = await db.select({ failures: users.failedLoginCount, last: users.lastFailedLoginAt }).from(users).where(eq(users.id, userId));
  if (!row) return new UserError("UNAUTHENTICATED", SIGN_IN_REQUIRED);
  const wait = loginDelaySeconds(row.failures);
  const since = row.last ? (now.getTime() - row.last.getTime()) / 1000 : wait;
  const retryAfterSeconds = Math.max(1, Math.ceil(wait - since));
  return new UserError("TOO_MANY_REQUESTS", `Too many failed password attempts. Please try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
}

/**
 * Checks the second factor of an account with two-factor on: a passcode not used before, or the
 * recovery code (nothing for an account without two-factor). A wrong one counts against this
 * session as at sign-in: five end it.
 */
export async function proveSecondFactor(ctx: Ctx, actor: StaffActor, proof: AccountProof, now = new Date()): Promise<CheckedProof> {
  const none = { userId: actor.userId, passcodeStep: null, recoveryCodeHash: null };
  const state = await twoFactorState(ctx.db, actor.userId);
  if (!state.activated || !state.isSet || !state.secret) return none;
  const passcode = proof.passcode?.trim();
  const recoveryCode = proof.recoveryCode?.trim();
  if (passcode) {
    const step = matchingStep(state.secret, passcode, now, state.lastStep);
    if (step === null) return wrongCode(ctx, actor, WRONG_PASSCODE, now);
    return { ...none, passcodeStep: step };
  }
  if (recoveryCode) {
    const given = recoveryCodeHash(recoveryCode);
    if (!state.recoveryCodeHash || !constantTimeEqual(given, state.recoveryCodeHash)) return wrongCode(ctx, actor, WRONG_RECOVERY_CODE, now);
    return { ...none, recoveryCodeHash: given };
  }
  throw badInput(PASSCODE_REQUIRED, [{ field: "passcode", message: PASSCODE_REQUIRED }]);
}

/** A single sign-on account has no password: the session must come from a provider sign-in moments ago. */
async function checkFreshSsoSignIn(ctx: Ctx, actor: StaffActor, now: Date): Promise<void> {
  const [session] = await ctx.db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.tokenHash, actor.sessionTokenHash));
  if (!session || now.getTime() - session.createdAt.getTime() > SSO_FRESH_SIGN_IN_MS) {
    throw new UserError("FORBIDDEN", SSO_SIGN_IN_AGAIN, { fields: [{ field: "signInAgain", message: SSO_SIGN_IN_AGAIN }] });
  }
}

/**
 * The whole proof for the signed-in user's own account, checked before the change's transaction so
 * that a refusal's count is never rolled back. Nothing is changed by a refusal but those counts.
 */
export async function proveOwnAccount(ctx: Ctx, actor: StaffActor, proof: AccountProof, now = new Date()): Promise<CheckedProof> {
  const [account] = await ctx.db.select({ isSSO: users.isSSO }).from(users).where(eq(users.id, actor.userId));
  if (!account) throw new UserError("UNAUTHENTICATED", SIGN_IN_REQUIRED);
  if (account.isSSO) await checkFreshSsoSignIn(ctx, actor, now);
  else {
    if (!proof.password) throw badInput(PASSWORD_REQUIRED, [{ field: "password", message: PASSWORD_REQUIRED }]);
    await checkOwnPassword(ctx, actor, proof.password, { field: "password", message: PASSWORD_INCORRECT }, now);
  }
  return proveSecondFactor(ctx, actor, proof, now);
}

/**
 * The same proof, given under other names: an administrator's own password is `ownPassword` in
 * userUpdate, where `password` is the new one they set. A refusal names the field that was sent.
 */
export async function proveOwnAccountUnder(ctx: Ctx, actor: StaffActor, proof: AccountProof, names: Record<keyof AccountProof, string>, now = new Date()): Promise<CheckedProof> {
  try {
    return await proveOwnAccount(ctx, actor, proof, now);
  } catch (error) {
    if (!(error instanceof UserError) || error.fields.length === 0) throw error;
    const fields = error.fields.map((problem) => ({ ...problem, field: names[problem.field as keyof AccountProof] ?? problem.field }));
    throw new UserError(error.code, error.message, { fields, ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }) });
  }
}

/**
 * Inside the change's transaction: the passcode's time step is recorded (or the recovery code
 * spent) by the statement that checks nobody used it meanwhile, so one code proves one change.
 */
export async function spendProof(tx: Database, proof: CheckedProof): Promise<void> {
  if (proof.passcodeStep !== null) {
    const step = proof.passcodeStep;
    const claimed = await tx
      .update(users)
      .set({ twoFactorLastStep: step })
      .where(and(eq(users.id, proof.userId), or(isNull(users.twoFactorLastStep), lt(users.twoFactorLastStep, step))))
      .returning({ id: users.id });
    if (claimed.length === 0) throw badInput(WRONG_PASSCODE, [{ field: "passcode", message: WRONG_PASSCODE }]);
  }
  if (proof.recoveryCodeHash !== null) {
    const spent = await tx
      .update(users)
      .set({ recoveryCodeHash: null })
      .where(and(eq(users.id, proof.userId), eq(users.recoveryCodeHash, proof.recoveryCodeHash)))
      .returning({ id: users.id });
    if (spent.length === 0) throw badInput(WRONG_RECOVERY_CODE, [{ field: "recoveryCode", message: WRONG_RECOVERY_CODE }]);
  }
}
