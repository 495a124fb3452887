import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { users } from "../../db/schema/index.ts";
import { RESET_PASSWORD_SUBJECT, VERIFY_ACCOUNT_SUBJECT } from "../../api/modules/account-access/mails.ts";
import { createUser } from "../factories/users.ts";
import { recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { demoOrganisationIds } from "../helpers/demo.ts";
import { readOutbox, tokenAfter, waitForMail } from "../helpers/outbox-mail.ts";

/** Forgot → the mail in the outbox → reset → sign in; and verifying an account from the banner (spec §2, decision 029). */
const suite = demoInBrowser();

const WIDTHS = [390, 1440] as const;

/** Fits the width without sideways scrolling, and axe finds nothing serious. */
async function checkScreen(page: Page, width: number, screen: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ screen, width, scrollWidth }).toEqual({ screen, width, scrollWidth: Math.min(scrollWidth, width) });
  await expectAxeClean(page, `${screen} at ${width}px`);
  await screenshot(page, `account-access-${width}-${screen}`);
}

async function demoMember(password: string) {
  const { demoId } = await demoOrganisationIds(suite.server);
  return createUser(suite.server.db, { role: "MEMBER", organisationId: demoId, password });
}

describe("a forgotten password in Chromium", () => {
  for (const width of WIDTHS) {
    test(`${width} px: forgot → mail from the outbox → reset → sign in with the new password`, async () => {
      const { browser, server, consoleOrigin } = suite;
      const member = await demoMember("old-pass-word-1");
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const requests = recordRequests(page);
      const problems = recordProblems(page);
      // Signed in elsewhere: that console must end when the password is reset.
      const elsewhere = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
      await signInToConsole(elsewhere, consoleOrigin, member.email, "old-pass-word-1");

      await page.goto(`${consoleOrigin}/admin`);
      await page.getByRole("link", { name: "Forgot Password" }).click();
      await page.getByRole("heading", { name: "Forgot Password" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/admin/forgot-password");
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await page.getByText("Required").waitFor();
      await checkScreen(page, width, "forgot-password");

      const seen = readOutbox(server.dataDir);
      await page.getByLabel("Email Address").fill(member.email);
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await page.getByText("If an account is associated with this email address, you’ll receive a password reset link shortly.").waitFor();
      await checkScreen(page, width, "forgot-password-sent");
      const mail = await waitForMail(server.dataDir, { to: member.email, subject: RESET_PASSWORD_SUBJECT, seen });
      const token = tokenAfter(mail, "/admin/reset-password/");

      await page.goto(`${consoleOrigin}/admin/reset-password/${token}`);
      await page.getByRole("heading", { name: "Reset Password" }).waitFor();
      await page.getByLabel("New Password").fill("short1");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page.getByText("Password must contain at least 8 characters").waitFor();
      await page.getByLabel("New Password").fill("New-Pass-word-2!");
      expect(await page.getByRole("meter", { name: "Password strength" }).getAttribute("aria-valuetext")).toBe("Strong");
      await checkScreen(page, width, "reset-password");
      await page.getByRole("button", { name: "Reset Password" }).click();
      await page.getByText("Your password has been updated. Press the button below to login.").waitFor();
      await checkScreen(page, width, "reset-password-done");

      // The other console learns at once that its session is over.
      await elsewhere.getByRole("heading", { name: "Admin Control Panel" }).waitFor();

      await page.getByRole("button", { name: "Go Back" }).click();
      await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
      await page.getByLabel("Email Address").fill(member.email);
      await page.getByLabel("Password").fill("old-pass-word-1");
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByText("Invalid email or password.").waitFor();
      await page.getByLabel("Password").fill("New-Pass-word-2!");
      await page.getByRole("button", { name: "Login" }).click();
      await page.getByText("Reports Received").waitFor();

      // The link worked once.
      await page.goto(`${consoleOrigin}/admin/reset-password/${token}`);
      await page.getByText("Invalid Password Reset Link provided.").waitFor();
      expect(await page.getByLabel("New Password").count()).toBe(0);
      await checkScreen(page, width, "reset-password-invalid");

      expect(requests.filter((url) => !url.startsWith(consoleOrigin))).toEqual([]);
      expect(problems).toEqual([]);
      await elsewhere.context().close();
      await context.close();
    });
  }
});

describe("the forgot-password bot check in Chromium", () => {
  test("an address asked for again and again costs proof of work; the page does it by itself and still answers the same", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await (await browser.newContext()).newPage();
    const solutions: string[] = [];
    page.on("request", (request) => {
      const body = request.postData() ?? "";
      if (request.url().endsWith("/api/gql/query") && body.includes("forgotPassword")) {
        const token = (JSON.parse(body) as { variables?: { verifyToken?: string } }).variables?.verifyToken;
        if (token) solutions.push(token);
      }
    });
    await page.goto(`${consoleOrigin}/admin/forgot-password`);
    await page.getByLabel("Email Address").fill("someone-who-forgets@example.test");
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await page.getByRole("button", { name: "Send Reset Link" }).and(page.locator(":enabled")).waitFor();
      await page.getByText("If an account is associated with this email address, you’ll receive a password reset link shortly.").waitFor();
    }
    // The fourth request was asked for work, solved it in the page and was sent again with the solution.
    expect(solutions).toHaveLength(1);
    expect(solutions[0]!.split(".")).toHaveLength(3);
    await page.context().close();
  });
});

describe("verifying an account in Chromium", () => {
  test("the banner leads to Verify Account; a resent code verifies it and the console returns to where the user was", async () => {
    const { browser, server, consoleOrigin } = suite;
    const member = await demoMember("verify-pass-1");
    await server.db.update(users).set({ verified: false }).where(eq(users.id, member.id));
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = recordProblems(page);
    await signInToConsole(page, consoleOrigin, member.email, "verify-pass-1");
    await page.goto(`${consoleOrigin}/admin/settings`);
    await page.getByRole("heading", { name: "Settings" }).waitFor();

    await page.getByRole("link", { name: "Your account needs to be be verified, click here to verify now" }).click();
    await page.getByRole("heading", { name: "Verify Account" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/verify");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByText("Verify Token is required").waitFor();
    await checkScreen(page, 390, "verify-account");

    const seen = readOutbox(server.dataDir);
    await page.getByRole("button", { name: "Click here to resend" }).click();
    await page.getByText("A new verification email has been sent. Please check your inbox.").waitFor();
    const code = tokenAfter(await waitForMail(server.dataDir, { to: member.email, subject: VERIFY_ACCOUNT_SUBJECT, seen }), "/admin/verify/");

    await page.getByLabel("Verification Code").fill("not-the-code");
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByText("Verification code has expired or is invalid, please request a new one.").waitFor();
    await page.getByLabel("Verification Code").fill(code);
    await page.getByRole("button", { name: "Verify", exact: true }).click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    expect(await page.getByText("Your account needs to be be verified").count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("the mailed link verifies the account when opened signed out", async () => {
    const { browser, server, consoleOrigin } = suite;
    const member = await demoMember("verify-pass-2");
    await server.db.update(users).set({ verified: false }).where(eq(users.id, member.id));
    const signedIn = await (await browser.newContext()).newPage();
    await signInToConsole(signedIn, consoleOrigin, member.email, "verify-pass-2");
    await signedIn.goto(`${consoleOrigin}/admin/verify`);
    const seen = readOutbox(server.dataDir);
    await signedIn.getByRole("button", { name: "Click here to resend" }).click();
    const code = tokenAfter(await waitForMail(server.dataDir, { to: member.email, subject: VERIFY_ACCOUNT_SUBJECT, seen }), "/admin/verify/");
    await signedIn.context().close();

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${consoleOrigin}/admin/verify/${code}`);
    await page.getByText("Your account has been verified.").waitFor();
    await checkScreen(page, 1440, "verify-account-signed-out");
    expect((await server.db.select({ verified: users.verified }).from(users).where(eq(users.id, member.id)))[0]?.verified).toBe(true);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    await context.close();
  });
});
