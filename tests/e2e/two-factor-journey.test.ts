import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { createOrganisation, createUser } from "../factories/users.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { expectAxeClean } from "../helpers/console-browser.ts";
import { linkIn, mailsTo } from "../helpers/mail-links.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { authenticator } from "../helpers/two-factor.ts";

let server: TestServer;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  origin = `http://localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${origin}/admin`);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

async function signOutFromConsole(page: Page) {
  await page.locator(".user-menu__toggle").click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
}

/** The screen fits a phone's width: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, screen: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect({ screen, width, overflow }).toEqual({ screen, width, overflow: 0 });
  }
}

describe("two-factor authentication in a real browser", () => {
  test("setup with the QR code → recovery download → sign out → passcode → recovery code", async () => {
    const organisation = await createOrganisation(server.db, { name: "Two Factor Org" });
    const owner = await createUser(server.db, { role: "ORGANISATION_OWNER", organisationId: organisation.id, password: "browser-pass-1" });
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const requests = recordRequests(page);
    const problems = recordProblems(page);

    await signIn(page, owner.email, "browser-pass-1");
    await page.getByText("Reports Received").waitFor();
    // The top bar warns until 2FA is on, and links to Settings.
    await page.getByRole("link", { name: "Two-Factor Authentication Not Activated" }).click();
    await page.getByRole("button", { name: "Enable Two-Factor Authentication" }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByText("Are you sure you want to enable this account's Two-Factor Authentication?").waitFor();
    // Switching it asks for the password (decision 061).
    await confirm.getByLabel("Current Password").fill("browser-pass-1");
    await confirm.getByRole("button", { name: "Enable" }).click();

    // Setup: the QR code is drawn in the page, and the secret is shown to type instead.
    await page.getByRole("heading", { name: "Set Up Two-Factor Authentication" }).waitFor();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = (await page.locator(".two-factor__secret").textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectAxeClean(page, "two-factor setup");
    await expectNoSidewaysScroll(page, "two-factor setup");
    await screenshot(page, "two-factor-1-setup");

    // The back arrow undoes setup: the console again, 2FA off.
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Enable Two-Factor Authentication" }).waitFor();
    await page.getByRole("button", { name: "Enable Two-Factor Authentication" }).click();
    await page.getByRole("dialog").getByLabel("Current Password").fill("browser-pass-1");
    await page.getByRole("dialog").getByRole("button", { name: "Enable" }).click();
    await page.getByRole("heading", { name: "Set Up Two-Factor Authentication" }).waitFor();
    const newSecret = (await page.locator(".two-factor__secret").textContent())!.trim();
    const phone = authenticator(newSecret);

    await page.getByLabel("Passcode").fill("000000");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("The passcode is incorrect or has already been used. Please try again.").waitFor();
    await page.getByLabel("Passcode").fill(phone.nextPasscode());
    await page.getByRole("button", { name: "Submit" }).click();

    // The recovery code must be downloaded before Next enables.
    await page.getByRole("heading", { name: "Download Recovery Code" }).waitFor();
    const next = page.getByRole("button", { name: "Next" });
    expect(await next.isDisabled()).toBe(true);
    await expectAxeClean(page, "recovery code download");
    await expectNoSidewaysScroll(page, "recovery code download");
    const shownCode = (await page.locator(".two-factor__code").textContent())!.trim();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("recovery_code.txt");
    expect(readFileSync((await download.path())!, "utf8")).toContain(shownCode);
    expect(await next.isEnabled()).toBe(true);
    await next.click();
    await page.getByRole("button", { name: "Disable Two-Factor Authentication" }).waitFor();
    expect(await page.locator(".settings-two-factor p").textContent()).toBe("Two-Factor Authentication: Activated");
    expect(await page.getByRole("link", { name: "Two-Factor Authentication Not Activated" }).count()).toBe(0);
    await signOutFromConsole(page);

    // Next sign-in: the password, then the passcode.
    await signIn(page, owner.email, "browser-pass-1");
    await page.getByRole("heading", { name: "Two-Factor Authentication" }).waitFor();
    await expectAxeClean(page, "passcode");
    await expectNoSidewaysScroll(page, "passcode");
    await screenshot(page, "two-factor-2-passcode");
    await page.getByLabel("Passcode").fill(phone.nextPasscode());
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByText("Reports Received").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await signOutFromConsole(page);

    // Lost device: the recovery code signs in once, then a new authenticator is set up.
    await signIn(page, owner.email, "browser-pass-1");
    await page.getByRole("button", { name: "Lost your device? Use your recovery code" }).click();
    await page.getByRole("heading", { name: "Use Your Recovery Code" }).waitFor();
    await expectAxeClean(page, "recovery code sign-in");
    await page.getByLabel("Recovery Code").fill(shownCode);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.getByRole("heading", { name: "Set Up Two-Factor Authentication" }).waitFor();
    const replacement = authenticator((await page.locator(".two-factor__secret").textContent())!.trim());
    await page.getByLabel("Passcode").fill(replacement.nextPasscode());
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Download Recovery Code" }).waitFor();
    // A reload does not skip the download; a code now exists, so replacing it asks for proof (decision 061).
    await page.reload();
    await page.getByRole("heading", { name: "Download Recovery Code" }).waitFor();
    const proof = page.getByRole("dialog", { name: "New Recovery Code" });
    await proof.getByLabel("Current Password").fill("browser-pass-1");
    await proof.getByLabel("Passcode from your authenticator app").fill(replacement.nextPasscode());
    await proof.getByRole("button", { name: "Get Code" }).click();
    await proof.waitFor({ state: "detached" });
    const [again] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download" }).click()]);
    expect(again.suggestedFilename()).toBe("recovery_code.txt");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Reports Received").waitFor();

    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  test("magic link: the password mails a link, the link signs in once", async () => {
    const organisation = await createOrganisation(server.db, { name: "Magic Link Org", enableEmailAuth2FA: true });
    const member = await createUser(server.db, { role: "MEMBER", organisationId: organisation.id, password: "browser-pass-1" });
    const page = await browser.newPage();
    const problems = recordProblems(page);

    await signIn(page, member.email, "browser-pass-1");
    await page.getByRole("heading", { name: "Email Verification Required" }).waitFor();
    await page.getByText("Please check your email to complete your login.").waitFor();
    await expectAxeClean(page, "email verification required");
    await page.getByRole("button", { name: "Return back to Login" }).waitFor();

    const link = linkIn(mailsTo(server.dataDir, member.email).at(-1)!, "/admin/login-verify");
    await page.goto(`${origin}${link.pathname}${link.search}`);
    await page.getByText("Reports Received").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await screenshot(page, "magic-link-1-signed-in");

    // Opened again in another browser: spent.
    const other = await browser.newPage();
    await other.goto(`${origin}${link.pathname}${link.search}`);
    await other.getByRole("heading", { name: "Login Failed" }).waitFor();
    await other.getByText("Login link has expired or is invalid, please try again.").waitFor();
    await expectAxeClean(other, "login failed");
    await expectNoSidewaysScroll(other, "login failed");
    await other.getByRole("button", { name: "Return back to Login" }).click();
    await other.getByRole("heading", { name: "Admin Control Panel" }).waitFor();

    // Without both values the page goes to the login.
    await other.goto(`${origin}/admin/login-verify?email=${encodeURIComponent(member.email)}`);
    await other.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    expect(new URL(other.url()).pathname).toBe("/admin");

    expect(problems).toEqual([]);
    await other.close();
    await page.close();
  });
});
