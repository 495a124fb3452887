import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, laid out as Microsoft
 * Entra ID lays out a tenant: issuer `{authority}/{tenant}/v2.0`, its discovery document under it.
 * Its own sign-in pages are the package's development interactions: any account name is accepted
 * (the password is ignored), and the claims are those given to `addAccount`.
 *
 * Two steps, because each side needs the other's address: `listenOpenIdProvider()` opens the port
 * and gives Lantern's settings; `start(redirectUris)` then registers Lantern as the client.
 */

export const SSO_TENANT = "lantern-tests.onmicrosoft.com";
export const SSO_CLIENT_ID = "lantern-console";
export const SSO_CLIENT_SECRET = "a-client-secret-known-to-the-tests-only-0123456789";

export type AccountClaims = { email?: string; email_verified?: boolean; preferred_username?: string; name?: string };

export interface LocalOpenIdProvider {
  authority: string;
  issuer: string;
  /** Lantern's settings pointing at this provider. */
  env: Record<string, string>;
  start(redirectUris: string[]): Promise<void>;
  addAccount(subject: string, claims: AccountClaims): void;
  /** The id of the one key the provider signs with, as its published key set names it. */
  signingKid: string;
  /** Walks the provider's pages as a browser would, answering as `subject`; returns the callback address. */
  signInHeadless(authorizeUrl: string, subject: string): Promise<URL>;
  stop(): Promise<void>;
}

export async function listenOpenIdProvider(): Promise<LocalOpenIdProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("the provider has no port");
  const authority = `http://127.0.0.1:${address.port}`;
  const mount = `/${SSO_TENANT}/v2.0`;
  const issuer = `${authority}${mount}`;
  const accounts = new Map<string, AccountClaims>();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKid = "lantern-tests-signing-key";
  const signingKey = { ...(await exportJWK(privateKey)), kid: signingKid, alg: "RS256", use: "sig" };
  let provider: Provider | undefined;

  server.on("request", (req, res) => {
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    // Mounted under the issuer's path, as the package's docs mount it behind a router: it reads the
    // full path from originalUrl to name its endpoints. Its sign-in pages sit at the root.
    if (req.url?.startsWith(`${mount}/`)) {
      Object.assign(req, { originalUrl: req.url });
      req.url = req.url.slice(mount.length);
    }
    void provider.callback()(req, res);
  });

  return {
    authority,
    issuer,
    signingKid,
    env: { SSO_AUTHORITY: authority, SSO_TENANT, SSO_CLIENT_ID, SSO_CLIENT_SECRET },
    addAccount: (subject, claims) => void accounts.set(subject, claims),
    async start(redirectUris) {
      provider = new Provider(issuer, {
        clients: [{ client_id: SSO_CLIENT_ID, client_secret: SSO_CLIENT_SECRET, redirect_uris: redirectUris, response_types: ["code"], grant_types: ["authorization_code"] }],
        jwks: { keys: [signingKey] },
        pkce: { required: () => true },
        // One hour for the ID token, as Entra ID issues them.
        ttl: { Interaction: 600, Session: 600, Grant: 600, AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600 },
        // Entra ID puts the address in the ID token itself, not only behind the userinfo endpoint.
        conformIdTokenClaims: false,
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
        findAccount: (_ctx, subject) => {
          const claims = accounts.get(subject);
          return claims ? { accountId: subject, claims: async () => ({ sub: subject, ...claims }) } : undefined;
        },
        // Lantern is this provider's first-party client: like an organisation's own tenant, it asks no consent.
        loadExistingGrant: async (ctx) => {
          const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
          grant.addOIDCScope("openid email profile");
          await grant.save();
          return grant;
        },
      });
    },
    async signInHeadless(authorizeUrl, subject) {
      const jar = new Map<string, string>();
      const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
      let next: { url: string; init: RequestInit } = { url: authorizeUrl, init: {} };
      for (let step = 0; step < 10; step++) {
        const response = await fetch(next.url, { ...next.init, redirect: "manual", headers: { ...(next.init.headers as Record<string, string>), Cookie: cookieHeader() } });
        for (const header of response.headers.getSetCookie()) {
          const [pair] = header.split(";");
          const at = pair!.indexOf("=");
          jar.set(pair!.slice(0, at), pair!.slice(at + 1));
        }
        const location = response.headers.get("location");
        if (location) {
          const target = new URL(location, next.url);
          if (!target.href.startsWith(authority)) return target;
          next = { url: target.href, init: {} };
          continue;
        }
        const page = await response.text();
        const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
        if (response.status !== 200 || !action) throw new Error(`the provider answered ${response.status}: ${page.slice(0, 300)}`);
        const prompt = /name="prompt" value="([a-z]+)"/.exec(page)?.[1] ?? "";
        const body = new URLSearchParams(prompt === "login" ? { prompt, login: subject, password: "ignored" } : { prompt });
        next = { url: new URL(action.replaceAll("&amp;", "&"), next.url).href, init: { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } } };
      }
      throw new Error("the provider never sent the browser back");
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
