import * as v from "valibot";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, users } from "../../../db/schema/index.ts";
import type { Config } from "../../config.ts";
import { UserError } from "../../lib/errors.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { recordActivity } from "../audit/service.ts";
import { admit } from "../abuse/guard.ts";
import { recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { ACCOUNT_SUSPENDED, type LoginResult } from "./login.ts";

type SsoSession = Extract<LoginResult, { kind: "session" }>;
import { createStaffSession } from "./sessions.ts";
import { loadIssuer } from "./sso-issuer.ts";
import { checkFlow, exchangeCode, verifyIdToken, type IdClaims, type SsoFlow } from "./sso-tokens.ts";

const bounded = (max: number) => v.pipe(v.string("Required"), v.nonEmpty("Required"), v.maxLength(max, "Too long"));

/** POST /api/auth/login_sso: the authorization code the provider handed back, and the state it carried. */
export const SsoLoginInput = v.object({
  token: bounded(4000),
  state: bounded(200),
  // The bot check: a solved proof-of-work challenge once failed callbacks pile up (decision 031).
  verifyToken: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(1000, "Too long"))), ""),
});

export const SSO_NO_ACCOUNT = "This Microsoft account cannot sign in here. Ask your organisation's admin to check that single sign-on is enabled for your account.";

/**
 * Failed callbacks are counted together, as the failures of one sign-in subject: nothing in them can
 * be guessed (the code is the provider's, single-use and bound to the browser's PKCE verifier), but
 * each costs a request to the provider, which throttles the whole client. Past a few, every callback
 * must carry solved proof of work (decision 016), which the console's pages solve without a word.
 * The name is no email address, so it never shares a count with an account's password sign-ins.
 */
const SSO_SUBJECT = "single-sign-on callback";

/**
 * Finishes 'Sign in With Microsoft Account': checks the flow, trades the code, verifies the ID token,
 * finds the one account bound to that identity and opens a session, as `login` does for a password.
 */
export async function loginWithSso(db: Database, config: Config, input: v.InferOutput<typeof SsoLoginInput>, flow: SsoFlow | null, now = new Date()): Promise<SsoSession> {
  const attempt = { action: "login_submit", subjectKey: await subjectKey(db, "staff", SSO_SUBJECT), solution: input.verifyToken, now } as const;
  await admit(db, attempt);
  let claims: IdClaims;
  try {
    const checked = checkFlow(flow, input.state, now);
    const issuer = await loadIssuer(config.sso, config.production);
    const idToken = await exchangeCode(issuer, config.sso!, checked, input.token);
    claims = await verifyIdToken(idToken, issuer, config.sso!.clientId, checked.nonce, now);
  } catch (error) {
    if (error instanceof UserError && error.code === "UNAUTHENTICATED") await recordFailure(db, attempt.subjectKey, now);
    throw error;
  }
  return openSsoSession(db, claims, now);
}

const identityOf = (claims: IdClaims) => `${claims.issuer} ${claims.subject}`;

/**
 * Whose account a verified identity opens. An account bound before opens by its identity alone; an
 * unbound one is found once by its address, and only if it was made for single sign-on (it has no
 * password), and is bound from then on: a mailbox later renamed or given to someone else does not
 * carry the account with it. Either way its organisation must use single sign-on.
 */
export async function openSsoSession(db: Database, claims: IdClaims, now = new Date()): Promise<SsoSession> {
  const identity = identityOf(claims);
  const columns = {
    id: users.id,
    isSSO: users.isSSO,
    suspended: users.suspended,
    ssoIdentity: users.ssoIdentity,
    organisationId: users.organisationId,
    organisationArchived: organisations.archived,
    enableSSO: organisations.enableSSO,
  };
  const base = () => db.select(columns).from(users).leftJoin(organisations, eq(organisations.id, users.organisationId));
  let [account] = await base().where(eq(users.ssoIdentity, identity)).limit(1);
  if (!account && claims.email) {
    [account] = await base()
      .where(and(sql`lower(${users.email}) = ${claims.email}`, eq(users.isSSO, true), isNull(users.ssoIdentity)))
      .limit(1);
  }
  if (!account || !account.isSSO || !account.organisationId || !account.enableSSO) throw new UserError("UNAUTHENTICATED", SSO_NO_ACCOUNT);
  if (account.organisationArchived) throw new UserError("FORBIDDEN", ORGANISATION_UNAVAILABLE);
  if (account.suspended) throw new UserError("FORBIDDEN", ACCOUNT_SUSPENDED);

  const { id: userId, organisationId } = account;
  const firstSignIn = account.ssoIdentity === null;
  return db.transaction(async (tx) => {
    if (firstSignIn) {
      // Bound only if no one bound it in the meantime (another tab, another instance).
      const bound = await tx
        .update(users)
        .set({ ssoIdentity: identity })
        .where(and(eq(users.id, userId), isNull(users.ssoIdentity)))
        .returning({ id: users.id });
      if (bound.length === 0) throw new UserError("UNAUTHENTICATED", SSO_NO_ACCOUNT);
    }
    await tx.update(users).set({ lastLoginAt: now }).where(eq(users.id, userId));
    const token = await createStaffSession(tx, userId, now);
    await recordActivity(tx, { userId }, { organisationId, objectType: "Self", objectId: userId, action: "Login", metadata: { method: "SSO", firstSignIn } });
    return { kind: "session" as const, token, userId };
  });
}
