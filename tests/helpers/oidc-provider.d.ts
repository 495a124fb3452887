// The part of oidc-provider's interface the tests' local OpenID provider uses. The package ships
// no types; these are written from its documentation (configuration, Grant, callback).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  interface InteractionContext {
    oidc: {
      provider: { Grant: new (properties: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    pkce?: { required: () => boolean };
    ttl?: Record<string, number>;
    conformIdTokenClaims?: boolean;
    claims?: Record<string, string[]>;
    findAccount(context: unknown, subject: string): Account | undefined | Promise<Account | undefined>;
    loadExistingGrant?(context: InteractionContext): Promise<Grant | undefined>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;
  }
}
