import * as v from "valibot";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { authTokens, organisations, roles, users } from "../../../db/schema/index.ts";
import type { Config } from "../../config.ts";
import { UserError } from "../../lib/errors.ts";
import type { OutgoingMail } from "../../lib/mailer.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { recordActivity } from "../audit/service.ts";
import { createStaffSession } from "./sessions.ts";

/**
 * Magic-link sign-in (spec §2, /admin/login-verify): in an organisation with `enableEmailAuth2FA`,
 * the right password is not enough; the account's mailbox is the second factor. The link's token
 * is 256 random bits, stored only as its hash, usable once, for `MAGIC_LINK_TTL_MS`, and a new
 * link voids the one before.
 */
export const MAGIC_LINK_TTL_MS = 15 * 60 * 1000;
export const LOGIN_LINK_INVALID = "Login link has expired or is invalid, please try again.";
export const MAGIC_LINK_SUBJECT = "Complete your login";

export const LoginVerifyInput = v.object({
  email: v.pipe(v.string(LOGIN_LINK_INVALID), v.trim(), v.nonEmpty(LOGIN_LINK_INVALID), v.maxLength(500, LOGIN_LINK_INVALID), v.toLowerCase()),
  token: v.pipe(v.string(LOGIN_LINK_INVALID), v.trim(), v.nonEmpty(LOGIN_LINK_INVALID), v.maxLength(200, LOGIN_LINK_INVALID)),
});

export type MailLinkConfig = Pick<Config, "protocol" | "appDomain" | "port" | "production">;

/** The console's address for a path, as mail links need it (the product domain's app host). */
export function consoleUrl(config: MailLinkConfig, pathAndQuery: string): string {
  const defaultPort = config.port === 80 || config.port === 443;
  const port = config.production || defaultPort ? "" : `:${config.port}`;
  return `${config.protocol}://app.${config.appDomain}${port}${pathAndQuery}`;
}

export function magicLinkMail(config: MailLinkConfig, email: string, token: string): OutgoingMail {
  const url = consoleUrl(config, `/admin/login-verify?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`);
  return {
    to: email,
    subject: MAGIC_LINK_SUBJECT,
    text: [
      "Someone signed in to the admin console with your email address and password.",
      "If it was you, open this link within 15 minutes to complete your login:",
      url,
      "",
      "If it was not you, do not open the link, and change your password.",
      "",
    ].join("\n"),
  };
}

/** Inside the sign-in's transaction: voids the account's unused links and returns a new one's token. */
export async function issueMagicLink(tx: Database, userId: string, now: Date): Promise<string> {
  await tx.delete(authTokens).where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, "MagicLogin"), isNull(authTokens.usedAt)));
  const token = newToken();
  await tx.insert(authTokens).values({ tokenHash: hashToken(token), userId, purpose: "MagicLogin", createdAt: now, expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS) });
  return token;
}

/**
 * POST /api/auth/login_verify: opens a session for the link's account. Every failure (unknown
 * email, unknown, used, expired or someone else's token, an account suspended since) is the same
 * answer after the same one query, so the link page tells nobody which accounts exist. The token
 * is spent by the statement that checks it is unused, so a link opened twice at once signs in once.
 * Two-factor authentication, if the account has it, is still owed by the new session.
 */
export async function loginWithMagicLink(db: Database, input: v.InferOutput<typeof LoginVerifyInput>, now = new Date()): Promise<{ token: string; userId: string }> {
  const tokenHash = hashToken(input.token);
  const [link] = await db
    .select({
      userId: authTokens.userId,
      expiresAt: authTokens.expiresAt,
      usedAt: authTokens.usedAt,
      email: users.email,
      suspended: users.suspended,
      organisationId: users.organisationId,
      organisationArchived: organisations.archived,
      role: roles.name,
    })
    .from(authTokens)
    .innerJoin(users, eq(users.id, authTokens.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(and(eq(authTokens.tokenHash, tokenHash), eq(authTokens.purpose, "MagicLogin")))
    .limit(1);
  const usable =
    link &&
    link.email.toLowerCase() === input.email &&
    link.usedAt === null &&
    link.expiresAt > now &&
    !link.suspended &&
    !(link.organisationId && link.organisationArchived && link.role !== "SUPER_ADMIN");
  if (!usable) throw new UserError("UNAUTHENTICATED", LOGIN_LINK_INVALID);

  return db.transaction(async (tx) => {
    const spent = await tx
      .update(authTokens)
      .set({ usedAt: now })
      .where(and(eq(authTokens.tokenHash, tokenHash), isNull(authTokens.usedAt), sql`${authTokens.expiresAt} > ${now}`))
      .returning({ userId: authTokens.userId });
    if (spent.length === 0) throw new UserError("UNAUTHENTICATED", LOGIN_LINK_INVALID);
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, link.userId));
    const token = await createStaffSession(tx, link.userId, now);
    await recordActivity(tx, { userId: link.userId }, { organisationId: link.organisationId, objectType: "Self", objectId: link.userId, action: "Login", metadata: { magic_link: true } });
    return { token, userId: link.userId };
  });
}
