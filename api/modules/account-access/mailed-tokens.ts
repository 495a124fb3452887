import { and, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { authTokens, users } from "../../../db/schema/index.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import type { AuthTokenPurpose } from "../../shared/enums.ts";

/**
 * Secrets sent by mail (reset links, verification codes): 256 random bits, only their SHA-256
 * stored, accepted once, short-lived, and voided by the next one of their kind for the same account.
 */

/** How long each kind stays valid: a reset link is used at once; a verification code may wait in a mailbox for a day. */
export const MAILED_TOKEN_LIFETIME_MS = {
  ResetPassword: 60 * 60 * 1000,
  VerifyEmail: 24 * 60 * 60 * 1000,
  MagicLogin: 15 * 60 * 1000,
} as const satisfies Record<AuthTokenPurpose, number>;

/** What newToken() makes: 32 bytes in base64url. Anything else cannot be a token, and is refused without a query. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function isTokenShaped(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

/** A new secret of this kind for the account; every earlier one of the kind stops working in the same transaction. */
export async function issueMailedToken(tx: Database, userId: string, purpose: AuthTokenPurpose, now: Date): Promise<string> {
  await tx.delete(authTokens).where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose)));
  const token = newToken();
  await tx.insert(authTokens).values({ tokenHash: hashToken(token), userId, purpose, createdAt: now, expiresAt: new Date(now.getTime() + MAILED_TOKEN_LIFETIME_MS[purpose]) });
  return token;
}

/**
 * Spends a token: the account it belongs to, or null when it is unknown, of another kind, spent or
 * expired. The row is marked in one statement, so two requests racing with one token cannot both win.
 */
export async function consumeMailedToken(tx: Database, token: string, purpose: AuthTokenPurpose, now: Date): Promise<string | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await tx
    .update(authTokens)
    .set({ usedAt: now })
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now)))
    .returning({ userId: authTokens.userId });
  return row?.userId ?? null;
}

/** The account an unspent, unexpired token would reach, without spending it; only accounts that may still use it (not suspended). */
export async function peekMailedToken(db: Database, token: string, purpose: AuthTokenPurpose, now: Date): Promise<{ userId: string; isSSO: boolean } | null> {
  if (!isTokenShaped(token)) return null;
  const [row] = await db
    .select({ userId: authTokens.userId, isSSO: users.isSSO })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .where(and(eq(authTokens.tokenHash, hashToken(token)), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), gt(authTokens.expiresAt, now), eq(users.suspended, false)))
    .limit(1);
  return row ?? null;
}

/** Links that sign in or set a password stop working (the password changed, or the address they went to is no longer the account's). */
export async function voidSignInLinks(tx: Database, userId: string): Promise<void> {
  await tx.delete(authTokens).where(and(eq(authTokens.userId, userId), inArray(authTokens.purpose, ["ResetPassword", "MagicLogin"])));
}

/** Expired tokens open nothing; the housekeeping round removes them, so the table holds live links only. */
export async function forgetExpiredMailedTokens(db: Database, now: Date): Promise<void> {
  await db.delete(authTokens).where(lt(authTokens.expiresAt, now));
}
