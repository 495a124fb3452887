import * as v from "valibot";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, roles, users } from "../../../db/schema/index.ts";
import type { Actor } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { recordActivity } from "../audit/service.ts";
import { loginDelaySeconds } from "./session-policy.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { createStaffSession, deleteStaffSession } from "./sessions.ts";

const required = v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(500, "Too long"));

export const LoginInput = v.object({
  email: v.pipe(required, v.toLowerCase()),
  password: v.pipe(v.string("Required"), v.nonEmpty("Required"), v.maxLength(1000, "Too long")),
  verifyToken: v.optional(v.nullable(v.string()), ""),
});

export const INVALID_CREDENTIALS = "Invalid email or password.";
export const ACCOUNT_SUSPENDED = "Your account has been suspended. Contact admin to unsuspend.";

export interface LoginResult {
  token: string;
  userId: string;
}

/**
 * Verifies a staff member's email and password and opens a session. Failed attempts are counted
 * per account; past a few, the account must wait (at most five minutes) before the next try, and
 * a waiting account is refused before any hashing, so guessing is slow and cheap to refuse, while
 * the owner is never locked out for good.
 */
export async function login(db: Database, input: v.InferOutput<typeof LoginInput>, now = new Date()): Promise<LoginResult> {
  const [account] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      suspended: users.suspended,
      failedLoginCount: users.failedLoginCount,
      lastFailedLoginAt: users.lastFailedLoginAt,
      organisationId: users.organisationId,
      organisationArchived: organisations.archived,
      role: roles.name,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(sql`lower(${users.email}) = ${input.email}`)
    .limit(1);

  if (account) {
    const wait = loginDelaySeconds(account.failedLoginCount);
    const since = account.lastFailedLoginAt ? (now.getTime() - account.lastFailedLoginAt.getTime()) / 1000 : Infinity;
    if (wait > 0 && since < wait) {
      const retryAfterSeconds = Math.ceil(wait - since);
      throw new UserError("TOO_MANY_REQUESTS", `Too many failed login attempts. Please try again in ${retryAfterSeconds} seconds.`, {
        retryAfterSeconds,
      });
    }
  }

  const passwordOk = await verifyPassword(account?.passwordHash ?? null, input.password);
  if (!account || !passwordOk) {
    if (account) {
      await db
        .update(users)
        .set({ failedLoginCount: sql`${users.failedLoginCount} + 1`, lastFailedLoginAt: now })
        .where(eq(users.id, account.id));
    }
    throw new UserError("UNAUTHENTICATED", INVALID_CREDENTIALS);
  }
  if (account.suspended) throw new UserError("FORBIDDEN", ACCOUNT_SUSPENDED);
  if (account.organisationId && account.organisationArchived && account.role !== "SUPER_ADMIN") {
    throw new UserError("FORBIDDEN", ORGANISATION_UNAVAILABLE);
  }

  return db.transaction(async (tx) => {
    await tx.update(users).set({ failedLoginCount: 0, lastFailedLoginAt: null, lastLoginAt: now }).where(eq(users.id, account.id));
    const token = await createStaffSession(tx, account.id, now);
    await recordActivity(tx, { userId: account.id }, { organisationId: account.organisationId, objectType: "Self", objectId: account.id, action: "Login" });
    return { token, userId: account.id };
  });
}

export async function logout(db: Database, actor: Actor): Promise<void> {
  if (actor.kind !== "staff") return;
  await db.transaction(async (tx) => {
    await deleteStaffSession(tx, actor.sessionTokenHash);
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "Self", objectId: actor.userId, action: "Logout" });
  });
}
