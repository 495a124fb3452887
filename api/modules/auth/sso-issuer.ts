import * as v from "valibot";
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from "jose";
import type { SsoConfig } from "../../config.ts";
import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";

/**
 * The OpenID Connect issuer behind 'Sign in With Microsoft Account', read from its published
 * discovery document (docs/decisions/031-single-sign-on.md). Microsoft Entra ID publishes one per
 * tenant at `{authority}/{tenant}/v2.0/.well-known/openid-configuration`; any issuer that lays its
 * document out the same way serves too, which is how the tests run a real provider on loopback.
 */
export interface SsoIssuer {
  /** The `iss` every ID token must carry: the discovery document's, never one built from settings. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** The issuer's published signing keys, fetched again when a token names a key not seen yet. */
  keys: JWTVerifyGetKey;
}

export const SSO_UNAVAILABLE = "Sign in with a Microsoft account is not available right now. Please try again later.";
export const SSO_NOT_SET_UP = "Sign in with a Microsoft account is not set up on this server.";

/** No request to the issuer may hold a sign-in longer than this. */
export const SSO_REQUEST_TIMEOUT_MS = 10_000;
/** The document rarely changes; reading it again hourly follows a key or endpoint move without a restart. */
const DISCOVERY_LIFETIME_MS = 60 * 60 * 1000;

const endpoint = (production: boolean) =>
  v.pipe(
    v.string(),
    v.url(),
    v.check((value) => value.startsWith("https://") || (!production && value.startsWith("http://")), "must use https"),
  );

const discoverySchema = (production: boolean) =>
  v.object({
    issuer: endpoint(production),
    authorization_endpoint: endpoint(production),
    token_endpoint: endpoint(production),
    jwks_uri: endpoint(production),
  });

export function discoveryUrl(config: SsoConfig): string {
  return `${config.authority}/${encodeURIComponent(config.tenant)}/v2.0/.well-known/openid-configuration`;
}

const cache = new Map<string, { issuer: Promise<SsoIssuer>; loadedAt: number }>();

/** The configured issuer, or a 503 the sign-in page can show when its document cannot be read. */
export function loadIssuer(config: SsoConfig | null, production: boolean, now = Date.now()): Promise<SsoIssuer> {
  if (!config) return Promise.reject(new UserError("NOT_FOUND", SSO_NOT_SET_UP));
  const url = discoveryUrl(config);
  const cached = cache.get(url);
  if (cached && now - cached.loadedAt < DISCOVERY_LIFETIME_MS) return cached.issuer;
  const issuer = fetchIssuer(url, production);
  cache.set(url, { issuer, loadedAt: now });
  // A failure is not remembered: the next sign-in asks again.
  issuer.catch(() => cache.delete(url));
  return issuer;
}

/**
 * The keys' request, sent once more when its connection failed before any answer: a kept-alive
 * connection the issuer closed meanwhile must not turn a good sign-in away. An answer, even an
 * error status, and a timeout are final.
 */
const fetchKeys: FetchImplementation = async (url, options) => {
  try {
    return await fetch(url, options);
  } catch (error) {
    if (options.signal.aborted) throw error;
    return fetch(url, options);
  }
};

async function fetchIssuer(url: string, production: boolean): Promise<SsoIssuer> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(SSO_REQUEST_TIMEOUT_MS), headers: { Accept: "application/json" }, redirect: "error" });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const document = v.parse(discoverySchema(production), await response.json());
    return {
      issuer: document.issuer,
      authorizationEndpoint: document.authorization_endpoint,
      tokenEndpoint: document.token_endpoint,
      keys: createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: SSO_REQUEST_TIMEOUT_MS, [customFetch]: fetchKeys }),
    };
  } catch (error) {
    logError("Single sign-on issuer could not be read", error, { url });
    throw new UserError("UNAVAILABLE", SSO_UNAVAILABLE);
  }
}
