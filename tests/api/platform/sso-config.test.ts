import { describe, expect, test } from "bun:test";
import { ConfigError, parseConfig } from "../../../api/config.ts";

const SSO = { SSO_CLIENT_ID: "0b7c-app", SSO_CLIENT_SECRET: "a secret", SSO_TENANT: "contoso.onmicrosoft.com" };

describe("single sign-on settings", () => {
  test("unset, there is no single sign-on", () => {
    expect(parseConfig({}).sso).toBeNull();
  });

  test("client id, secret and tenant give Microsoft's authority by default; another authority may be named", () => {
    expect(parseConfig(SSO).sso).toEqual({ clientId: "0b7c-app", clientSecret: "a secret", tenant: "contoso.onmicrosoft.com", authority: "https://login.microsoftonline.com" });
    expect(parseConfig({ ...SSO, SSO_AUTHORITY: "https://login.example.test/" }).sso?.authority).toBe("https://login.example.test");
  });

  test("a partial set, a tenant that is no tenant, or a plain-HTTP authority in production stops the start with one line", () => {
    expect(() => parseConfig({ SSO_CLIENT_ID: "0b7c-app" })).toThrow("SSO_CLIENT_ID, SSO_CLIENT_SECRET and SSO_TENANT are all required");
    expect(() => parseConfig({ ...SSO, SSO_TENANT: "../../evil" })).toThrow(ConfigError);
    expect(() => parseConfig({ ...SSO, SSO_AUTHORITY: "ftp://login.example.test" })).toThrow("SSO_AUTHORITY");
    expect(() => parseConfig({ ...SSO, SSO_AUTHORITY: "http://login.example.test", NODE_ENV: "production" })).toThrow("SSO_AUTHORITY must start with https://");
    expect(parseConfig({ ...SSO, SSO_AUTHORITY: "http://127.0.0.1:4000" }).sso?.authority).toBe("http://127.0.0.1:4000");
  });
});
