import * as v from "valibot";
import type { Config } from "../../config.ts";
import { badInput, UserError } from "../../lib/errors.ts";
import { WRONG_SSO_ACCOUNT } from "../../shared/messages.ts";
import { loadIssuer } from "../auth/sso-issuer.ts";
import { checkFlow, exchangeCode, verifyIdToken, type SsoFlow } from "../auth/sso-tokens.ts";

/**
 * The onboarding leg of 'Sign in With Microsoft Account' (decision 036): an invite to a single-sign-on
 * organisation is accepted with the Microsoft account whose address is the invite's. The round trip is
 * sign-in's own (decision 031: state, PKCE, nonce, the ID token checked against the issuer's keys).
 */

export interface SsoProof {
  /** Issuer and subject, as decision 031 binds an account to them. */
  identity: string;
  email: string | null;
}

const SsoFields = v.object({
  ssoToken: v.pipe(v.string(WRONG_SSO_ACCOUNT), v.nonEmpty(WRONG_SSO_ACCOUNT), v.maxLength(4000, WRONG_SSO_ACCOUNT)),
  ssoState: v.pipe(v.string(WRONG_SSO_ACCOUNT), v.nonEmpty(WRONG_SSO_ACCOUNT), v.maxLength(200, WRONG_SSO_ACCOUNT)),
});

/** Trades the callback's code for a verified ID token; the flow cookie must be this browser's. */
export async function proveSsoAccount(config: Config, flow: SsoFlow | null, fields: { ssoToken?: string | null; ssoState?: string | null }, now: Date): Promise<SsoProof> {
  const parsed = v.safeParse(SsoFields, fields);
  if (!parsed.success) throw badInput(WRONG_SSO_ACCOUNT);
  const checked = checkFlow(flow, parsed.output.ssoState, now);
  const issuer = await loadIssuer(config.sso, config.production);
  const idToken = await exchangeCode(issuer, config.sso!, checked, parsed.output.ssoToken);
  const claims = await verifyIdToken(idToken, issuer, config.sso!.clientId, checked.nonce, now);
  return { identity: `${claims.issuer} ${claims.subject}`, email: claims.email };
}

/** The account proved must be the invite's address; anything else is the spec's one message. */
export function requireInvitedAccount(proof: SsoProof, inviteEmail: string): string {
  if (proof.email !== inviteEmail.toLowerCase()) throw new UserError("BAD_USER_INPUT", WRONG_SSO_ACCOUNT, { fields: [{ field: "ssoToken", message: WRONG_SSO_ACCOUNT }] });
  return proof.identity;
}
