import * as v from "valibot";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, roles, users } from "../../../db/schema/index.ts";
import type { Actor } from "../../context.ts";
import { changeEverywhere, type Invalidator } from "../../lib/invalidation.ts";
import { UserError } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { recordActivity } from "../audit/service.ts";
import { admit, hashInLane, type Attempt } from "../abuse/guard.ts";
import { clearFailures, recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { createStaffSession, deleteStaffSession } from "./sessions.ts";
import { issueMagicLink, magicLinkMail, type MailLinkConfig } from "./magic-link.ts";
import type { Mailer } from "../../lib/mailer.ts";
import { logError } from "../../lib/log.ts";

const required = v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(500, "Too long"));

export const LoginInput = v.object({
  email: v.pipe(required, v.toLowerCase()),
  password: v.pipe(v.string("Required"), v.nonEmpty("Required"), v.maxLength(1000, "Too long")),
  // The bot check: a solved proof-of-work challenge when the server asked for one.
  verifyToken: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, "Too long"))), ""),
});

export const INVALID_CREDENTIALS = "Invalid email or password.";
export const ACCOUNT_SUSPENDED = "Your account has been suspended. Contact admin to unsuspend.";

/** A session was opened (it may still owe its two-factor step), or a magic link was mailed instead. */
export type LoginResult = { kind: "session"; token: string; userId: string } | { kind: "email-verify-required" };

/**
 * Verifies a staff member's email and password and opens a session. Failed attempts are counted
 * per email, the same way whether or not an account has it (docs/decisions/016-proof-of-work.md):
 * past a few, each further attempt must carry a solved proof-of-work challenge that grows harder
 * with the failures, and is answered with a challenge before any hashing when it does not. The
 * right password with a solved challenge always signs in: the owner is never locked out.
 */
/**
 * In an organisation with `enableEmailAuth2FA` the right password opens nothing: a magic link is
 * mailed (magic-link.ts) and the answer says so. Where the account has two-factor authentication
 * on, the session opened here owes its passcode before it reaches anything (decision 030).
 */
export async function login(db: Database, mailer: Pick<Mailer, "send">, config: MailLinkConfig, input: v.InferOutput<typeof LoginInput>, now = new Date()): Promise<LoginResult> {
  const attempt: Attempt = { action: "login_submit", subjectKey: await subjectKey(db, "staff", input.email), solution: input.verifyToken, now };
  const admission = await admit(db, attempt);
  const [account] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      suspended: users.suspended,
      organisationId: users.organisationId,
      organisationArchived: organisations.archived,
      emailAuth: organisations.enableEmailAuth2FA,
      email: users.email,
      role: roles.name,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(sql`lower(${users.email}) = ${input.email}`)
    .limit(1);

  // One hash either way (a dummy one for an unknown email), in the lane the attempt paid for.
  const passwordOk = await hashInLane(db, attempt, admission, (lane) => verifyPassword(account?.passwordHash ?? null, input.password, lane));
  if (!account || !passwordOk) {
    await recordFailure(db, attempt.subjectKey, now);
    throw new UserError("UNAUTHENTICATED", INVALID_CREDENTIALS);
  }
  await clearFailures(db, attempt.subjectKey);
  if (account.suspended) throw new UserError("FORBIDDEN", ACCOUNT_SUSPENDED);
  if (account.organisationId && account.organisationArchived && account.role !== "SUPER_ADMIN") {
    throw new UserError("FORBIDDEN", ORGANISATION_UNAVAILABLE);
  }

  if (account.emailAuth && account.organisationId) {
    const linkToken = await db.transaction(async (tx) => {
      const issued = await issueMagicLink(tx, account.id, now);
      await recordActivity(tx, { userId: account.id }, { organisationId: account.organisationId, objectType: "Self", objectId: account.id, action: "LoginLinkSent" });
      return issued;
    });
    // The answer is the same whether or not the mail went out: the page says to check the mailbox either way.
    await mailer.send(magicLinkMail(config, account.email, linkToken)).catch((error: unknown) => logError("Could not send a login link", error));
    return { kind: "email-verify-required" };
  }

  return db.transaction(async (tx) => {
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, account.id));
    const token = await createStaffSession(tx, account.id, now);
    await recordActivity(tx, { userId: account.id }, { organisationId: account.organisationId, objectType: "Self", objectId: account.id, action: "Login" });
    return { kind: "session" as const, token, userId: account.id };
  });
}

/** Ends the session; resolves once no instance would still accept it from its session cache. */
export async function logout(db: Database, invalidator: Invalidator, actor: Actor): Promise<void> {
  // A session that still owes its passcode can be ended too (Sign Out on the two-factor screens).
  if (actor.kind !== "staff" && actor.kind !== "two-factor-pending") return;
  await changeEverywhere(db, invalidator, { tokenHashes: [actor.sessionTokenHash] }, async (tx) => {
    await deleteStaffSession(tx, actor.sessionTokenHash);
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "Self", objectId: actor.userId, action: "Logout" });
  });
}
