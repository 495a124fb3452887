import * as v from "valibot";
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client, OAuth2RequestError } from "arctic";
import { jwtVerify } from "jose";
import type { SsoConfig } from "../../config.ts";
import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { constantTimeEqual, newToken } from "../../lib/tokens.ts";
import { SSO_REQUEST_TIMEOUT_MS, SSO_UNAVAILABLE, type SsoIssuer } from "./sso-issuer.ts";

/**
 * The OAuth 2.0 and OpenID Connect half of single sign-on: the authorization request (PKCE, state
 * and nonce), the code exchange and the ID token's checks. Who may then sign in is sso-sign-in.ts.
 */

/** `email` asks Entra ID for the address; `profile` gives `preferred_username` when it has none. */
export const SSO_SCOPES = ["openid", "profile", "email"];
/** Time to pick an account at the provider and come back; after it the flow must start again. */
export const SSO_FLOW_LIFETIME_MS = 10 * 60 * 1000;
/** Clocks of two machines differ a little; a token is not refused over a few seconds. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** Only asymmetric signatures: a token must be signed with a key the issuer publishes. */
const ID_TOKEN_ALGORITHMS = ["RS256", "PS256", "ES256"];

export const SSO_SIGN_IN_EXPIRED = "Your Microsoft sign-in has expired or was started in another window. Please try again.";
export const SSO_SIGN_IN_FAILED = "Your Microsoft sign-in could not be verified. Please try again.";

/** What the browser keeps between leaving for the provider and coming back (an httpOnly cookie). */
export interface SsoFlow {
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  expiresAt: number;
}

const FlowSchema = v.object({
  state: v.pipe(v.string(), v.maxLength(200)),
  codeVerifier: v.pipe(v.string(), v.maxLength(200)),
  nonce: v.pipe(v.string(), v.maxLength(200)),
  redirectUri: v.pipe(v.string(), v.maxLength(500)),
  expiresAt: v.number(),
});

export function encodeFlow(flow: SsoFlow): string {
  return Buffer.from(JSON.stringify(flow)).toString("base64url");
}

/** The flow in a cookie, or null for anything else: a missing, cut or edited cookie starts nothing. */
export function decodeFlow(cookie: string | undefined): SsoFlow | null {
  if (!cookie || cookie.length > 2000) return null;
  try {
    const parsed = v.safeParse(FlowSchema, JSON.parse(Buffer.from(cookie, "base64url").toString("utf8")));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * The address to send the browser to, and the secrets it must bring back. `reauthenticate` asks the
 * provider to ask for the credentials again (`prompt=login`) instead of answering from its own
 * session: the console's proof of an account before a sensitive change (decision 061).
 */
export function authorizationRequest(issuer: SsoIssuer, config: SsoConfig, redirectUri: string, now: Date, options: { reauthenticate?: boolean } = {}): { url: string; flow: SsoFlow } {
  const flow: SsoFlow = {
    state: generateState(),
    codeVerifier: generateCodeVerifier(),
    nonce: newToken(),
    redirectUri,
    expiresAt: now.getTime() + SSO_FLOW_LIFETIME_MS,
  };
  const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
  const url = client.createAuthorizationURLWithPKCE(issuer.authorizationEndpoint, flow.state, CodeChallengeMethod.S256, flow.codeVerifier, SSO_SCOPES);
  // The ID token must echo it: a token minted for another sign-in cannot be replayed into this one.
  url.searchParams.set("nonce", flow.nonce);
  url.searchParams.set("response_mode", "query");
  if (options.reauthenticate) url.searchParams.set("prompt", "login");
  return { url: url.toString(), flow };
}

/** The flow the callback belongs to, refused when it is missing, stale or another window's. */
export function checkFlow(flow: SsoFlow | null, state: string, now: Date): SsoFlow {
  if (!flow || flow.expiresAt <= now.getTime() || !constantTimeEqual(flow.state, state)) throw new UserError("UNAUTHENTICATED", SSO_SIGN_IN_EXPIRED);
  return flow;
}

/** Trades the authorization code for the ID token over the back channel, proving the PKCE verifier. */
export async function exchangeCode(issuer: SsoIssuer, config: SsoConfig, flow: SsoFlow, code: string): Promise<string> {
  const client = new OAuth2Client(config.clientId, config.clientSecret, flow.redirectUri);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("token request timed out")), SSO_REQUEST_TIMEOUT_MS);
  });
  try {
    const tokens = await Promise.race([client.validateAuthorizationCode(issuer.tokenEndpoint, code, flow.codeVerifier), timeout]);
    return tokens.idToken();
  } catch (error) {
    // The provider refused the code (used, expired, another client's, wrong verifier): the person's
    // sign-in failed. Anything else is the provider being unreachable or answering nonsense.
    if (error instanceof OAuth2RequestError) throw new UserError("UNAUTHENTICATED", SSO_SIGN_IN_FAILED);
    logError("Single sign-on code exchange failed", error);
    throw new UserError("UNAVAILABLE", SSO_UNAVAILABLE);
  } finally {
    clearTimeout(timer);
  }
}

export interface IdClaims {
  issuer: string;
  subject: string;
  /** Lower-cased; null when the token names no address, or says it is not verified. */
  email: string | null;
}

const ClaimText = v.pipe(v.string(), v.nonEmpty(), v.maxLength(320));
const EmailClaim = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email(), v.toLowerCase());

/**
 * Verifies an ID token against the issuer's published keys: signature, `iss`, `aud` (and `azp`
 * when there are several audiences), `exp`, `iat` (neither future nor old), and the flow's nonce. Any failure is one answer;
 * the reason goes to the log, the token never does.
 */
export async function verifyIdToken(idToken: string, issuer: Pick<SsoIssuer, "issuer" | "keys">, clientId: string, nonce: string, now: Date): Promise<IdClaims> {
  try {
    const { payload } = await jwtVerify(idToken, issuer.keys, {
      issuer: issuer.issuer,
      audience: clientId,
      algorithms: ID_TOKEN_ALGORITHMS,
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      // Minted by the token request a moment ago: one issued long before, or in the future, is not this flow's.
      maxTokenAge: SSO_FLOW_LIFETIME_MS / 1000,
      requiredClaims: ["sub", "exp", "iat", "nonce"],
    });
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) throw new Error("azp is not this client");
    if (typeof payload.nonce !== "string" || !constantTimeEqual(payload.nonce, nonce)) throw new Error("nonce does not match this sign-in");
    const subject = v.parse(ClaimText, payload.sub);
    return { issuer: issuer.issuer, subject, email: emailOf(payload) };
  } catch (error) {
    logError("Single sign-on ID token refused", undefined, { reason: error instanceof Error ? error.message : "unknown" });
    throw new UserError("UNAUTHENTICATED", SSO_SIGN_IN_FAILED);
  }
}

/** `email` where the issuer sends it, else Entra ID's `preferred_username` when it is an address. */
function emailOf(payload: Record<string, unknown>): string | null {
  if (payload.email_verified === false) return null;
  for (const claim of [payload.email, payload.preferred_username]) {
    const parsed = v.safeParse(EmailClaim, claim);
    if (parsed.success) return parsed.output;
  }
  return null;
}
