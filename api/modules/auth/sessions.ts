import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { roles, sessions, users } from "../../../db/schema/index.ts";
import type { StaffActor } from "../../context.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { ROLE_PERMISSIONS } from "../../shared/permissions.ts";
import { SESSION_TOUCH_INTERVAL_MS, STAFF_ABSOLUTE_TIMEOUT_MS, STAFF_IDLE_TIMEOUT_MS } from "./session-policy.ts";

export async function createStaffSession(tx: Database, userId: string, now = new Date()): Promise<string> {
  const token = newToken();
  await tx.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_TIMEOUT_MS),
  });
  return token;
}

/**
 * Resolves a session cookie to a staff actor, or null when it is unknown, idle for too long,
 * past its absolute lifetime, or its user is suspended. Expired rows are deleted on sight.
 */
export async function resolveStaffSession(db: Database, token: string, now = new Date()): Promise<StaffActor | null> {
  if (!token || token.length > 200) return null;
  return resolveStaffSessionByHash(db, hashToken(token), now);
}

export async function resolveStaffSessionByHash(db: Database, tokenHash: string, now = new Date()): Promise<StaffActor | null> {
  const [row] = await db
    .select({
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      suspended: users.suspended,
      organisationId: users.organisationId,
      role: roles.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  const idleExpired = now.getTime() - row.lastSeenAt.getTime() > STAFF_IDLE_TIMEOUT_MS;
  if (idleExpired || row.expiresAt <= now || row.suspended) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
  }
  return {
    kind: "staff",
    userId: row.userId,
    email: row.email,
    role: row.role,
    organisationId: row.organisationId,
    permissions: ROLE_PERMISSIONS[row.role],
    sessionTokenHash: tokenHash,
  };
}

export async function deleteStaffSession(tx: Database, tokenHash: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Housekeeping: removes sessions past either limit. */
export async function purgeExpiredSessions(db: Database, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - STAFF_IDLE_TIMEOUT_MS);
  await db.delete(sessions).where(sql`${sessions.expiresAt} <= ${now} or ${sessions.lastSeenAt} < ${idleCutoff}`);
}
