import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, roles, sessions, users } from "../../../db/schema/index.ts";
import type { SignedInActor } from "../../context.ts";
import type { SessionCache } from "../../lib/session-cache.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { ROLE_PERMISSIONS } from "../../shared/permissions.ts";
import { SESSION_TOUCH_INTERVAL_MS, STAFF_ABSOLUTE_TIMEOUT_MS, STAFF_IDLE_TIMEOUT_MS } from "./session-policy.ts";

/** `twoFactorPassed`: false while the account's two-factor step is still owed (it is ignored when 2FA is off). */
export async function createStaffSession(tx: Database, userId: string, now = new Date(), twoFactorPassed = false): Promise<string> {
  const token = newToken();
  await tx.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    twoFactorPassed,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + STAFF_ABSOLUTE_TIMEOUT_MS),
  });
  return token;
}

/**
 * Resolves a session cookie to a staff actor (or one that still owes its two-factor step), or null when it is unknown, idle for too long,
 * past its absolute lifetime, or its user is suspended or belongs to an archived organisation. Expired rows are deleted on sight.
 * With a cache, a session resolved before is served from it (session-cache.ts says when it may be).
 */
export async function resolveStaffSession(db: Database, token: string, cache?: SessionCache, now = new Date()): Promise<SignedInActor | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const cached = cache?.get<SignedInActor>(tokenHash);
  if (!cached) return resolveStaffSessionByHash(db, tokenHash, now, cache);
  if (sessionEnded(cached, now)) {
    cache!.forget(tokenHash);
    return resolveStaffSessionByHash(db, tokenHash, now, cache);
  }
  if (needsTouch(cached.lastSeenAt, now)) {
    await touch(db, tokenHash, now);
    cached.lastSeenAt = now;
  }
  return cached.value;
}

export async function resolveStaffSessionByHash(db: Database, tokenHash: string, now = new Date(), cache?: SessionCache): Promise<SignedInActor | null> {
  const markedAt = cache?.mark() ?? 0;
  const [row] = await db
    .select({
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      suspended: users.suspended,
      organisationId: users.organisationId,
      role: roles.name,
      twoFactorPassed: sessions.twoFactorPassed,
      twoFactorActivated: users.twoFactorAuthenticationActivated,
      twoFactorSet: users.twoFactorAuthenticationIsSet,
      organisationArchived: organisations.archived,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  if (!row) return null;
  // An archived organisation's staff are signed out (organisations/administration.ts ends their sessions; this covers a sign-in that raced it).
  if (sessionEnded(row, now) || row.suspended || (row.organisationArchived === true && row.role !== "SUPER_ADMIN")) {
    await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
    return null;
  }
  let lastSeenAt = row.lastSeenAt;
  if (needsTouch(lastSeenAt, now)) {
    await touch(db, tokenHash, now);
    lastSeenAt = now;
  }
  // 2FA on and not yet passed by this session, or passed but the authenticator is being set up again
  // (after a recovery code): only the two-factor calls accept it.
  const owesTwoFactor = row.twoFactorActivated && (!row.twoFactorPassed || !row.twoFactorSet);
  const identity = { userId: row.userId, email: row.email, role: row.role, organisationId: row.organisationId, sessionTokenHash: tokenHash };
  const actor: SignedInActor = owesTwoFactor
    ? { kind: "two-factor-pending", ...identity, twoFactorSet: row.twoFactorSet }
    : { kind: "staff", ...identity, permissions: ROLE_PERMISSIONS[row.role] };
  cache?.store(tokenHash, { value: actor, userId: row.userId, lastSeenAt, expiresAt: row.expiresAt }, markedAt);
  return actor;
}

function sessionEnded(session: { lastSeenAt: Date; expiresAt: Date }, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() > STAFF_IDLE_TIMEOUT_MS || session.expiresAt <= now;
}

function needsTouch(lastSeenAt: Date, now: Date): boolean {
  return now.getTime() - lastSeenAt.getTime() > SESSION_TOUCH_INTERVAL_MS;
}

async function touch(db: Database, tokenHash: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteStaffSession(tx: Database, tokenHash: string): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Housekeeping: removes sessions past either limit. */
export async function purgeExpiredSessions(db: Database, now = new Date()): Promise<void> {
  const idleCutoff = new Date(now.getTime() - STAFF_IDLE_TIMEOUT_MS);
  await db.delete(sessions).where(sql`${sessions.expiresAt} <= ${now} or ${sessions.lastSeenAt} < ${idleCutoff}`);
}
