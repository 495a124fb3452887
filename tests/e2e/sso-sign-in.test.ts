import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { organisations } from "../../db/schema/index.ts";
import { eq } from "drizzle-orm";
import { SSO_NO_ACCOUNT } from "../../api/modules/auth/sso-sign-in.ts";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { expectAxeClean } from "../helpers/console-browser.ts";
import { listenOpenIdProvider, type LocalOpenIdProvider } from "../helpers/openid-provider.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { createSsoUser } from "../helpers/sso.ts";

/**
 * 'Sign in With Microsoft Account' in Chromium, against a real OpenID Connect provider on loopback:
 * the button, the provider's own sign-in page, /login-ms/callback, the console.
 */
let idp: LocalOpenIdProvider;
let server: TestServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  idp = await listenOpenIdProvider();
  server = await startTestServer({ env: idp.env });
  await idp.start([`http://localhost:${server.port}/login-ms/callback`]);
  browser = await launchBrowser();
  origin = `http://localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await idp?.stop();
});

/** Problems (CSP refusals, script errors) on Lantern's own pages; the provider's pages are not ours. */
function recordOwnProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => {
    if (page.url().startsWith(origin)) problems.push(`pageerror: ${error.message}`);
  });
  page.on("console", (message) => {
    if (message.location().url.startsWith(origin) && message.type() === "error" && /Content Security Policy|Refused to/.test(message.text())) problems.push(message.text());
  });
  return problems;
}

/** From the login page through the provider's sign-in form as `subject`. */
async function signInThroughProvider(page: Page, subject: string): Promise<void> {
  await page.goto(`${origin}/admin`);
  await page.getByRole("button", { name: "Sign in With Microsoft Account" }).click();
  await page.waitForURL((url) => url.href.startsWith(idp.authority));
  await page.locator('input[name="login"]').fill(subject);
  await page.locator('input[name="password"]').fill("the provider checks this, not Lantern");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

describe("Sign in With Microsoft Account", () => {
  test("a member of an SSO organisation signs in through the provider and lands on the dashboard, with no password to change", async () => {
    const user = await createSsoUser(server, "riley.sso@example.test");
    await server.db.update(organisations).set({ name: "Single Sign-On Org" }).where(eq(organisations.id, user.organisationId));
    idp.addAccount("riley-subject", { email: "riley.sso@example.test", name: "Riley" });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems = recordOwnProblems(page);

    await page.goto(`${origin}/admin`);
    await page.getByRole("button", { name: "Sign in With Microsoft Account" }).waitFor();
    await screenshot(page, "sso-1-login-1440");
    await expectAxeClean(page, "login with the Microsoft button");

    await signInThroughProvider(page, "riley-subject");
    await page.getByText("You are viewing organisation: Single Sign-On Org").waitFor();
    const landed = new URL(page.url());
    expect(landed.pathname).toBe("/admin/dashboard");
    // The single-use code is gone from the address and the history entry.
    expect(landed.search).toBe("");
    expect(await page.evaluate(() => fetch("/api/auth/check").then((r) => r.text()))).toBe("authorised");
    await screenshot(page, "sso-2-signed-in");

    await page.goto(`${origin}/admin/settings#change_password`);
    await page.getByText("Your email address comes from your Microsoft account.").waitFor();
    expect(await page.getByRole("link", { name: "Change Password" }).count()).toBe(0);
    expect(new URL(page.url()).hash).toBe("#profile");

    expect(problems).toEqual([]);
    await page.close();
  });

  test("an account the organisation has not set up for single sign-on is told so on 'Login Failed', at 390 px", async () => {
    await createSsoUser(server, "morgan.sso@example.test", { enableSSO: false });
    idp.addAccount("morgan-subject", { email: "morgan.sso@example.test" });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const problems = recordOwnProblems(page);

    await signInThroughProvider(page, "morgan-subject");
    await page.getByRole("heading", { name: "Login Failed" }).waitFor();
    await page.getByText(SSO_NO_ACCOUNT).waitFor();
    expect(new URL(page.url()).pathname).toBe("/login-ms/callback");
    expect(new URL(page.url()).search).toBe("");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, "sso-3-refused-390");
    await expectAxeClean(page, "single sign-on refused");
    expect(await page.evaluate(() => fetch("/api/auth/check").then((r) => r.text()))).toBe("unauthorised");

    await page.getByRole("button", { name: "Return back to Login" }).click();
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin");
    expect(problems).toEqual([]);
    await page.close();
  });

  test("cancelling at the provider comes back to 'Login Failed' with a way back to the login", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${origin}/admin`);
    await page.getByRole("button", { name: "Sign in With Microsoft Account" }).click();
    await page.waitForURL((url) => url.href.startsWith(idp.authority));
    await page.getByRole("link", { name: "[ Cancel ]" }).click();
    await page.getByRole("heading", { name: "Login Failed" }).waitFor();
    await page.getByText("The Microsoft sign-in was cancelled or refused. Please try again.").waitFor();
    await expectAxeClean(page, "single sign-on cancelled");
    await page.close();
  });
});
