import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import * as files from "../fixtures/files.ts";
import { expectAxeClean } from "../helpers/console-browser.ts";

let server: TestServer;
let browser: Browser;

// This file's server has its own database cloned from the template, seeded here: the demo member's
// new name and password stay in it and reach no other test file.
const MEMBER_EMAIL = "member@demo.test";
const NEW_PASSWORD = "brighter-lantern-7";

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the console's settings in a real browser", () => {
  test("a demo member renames themselves, changes their password, is signed out, and signs in with the new one", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const requests = recordRequests(page);
    const problems = recordProblems(page);
    const origin = `http://localhost:${server.port}`;

    await page.goto(`${origin}/admin`);
    await page.getByLabel("Email Address").fill(MEMBER_EMAIL);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.locator(".user-menu__name", { hasText: "Priya Raman" }).waitFor();

    // The user menu's Edit Profile opens the Profile tab.
    await page.locator(".user-menu__toggle").click();
    await screenshot(page, "settings-0-user-menu");
    await expectAxeClean(page, "user menu open");
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe("/admin/settings#profile");
    await expect(page.getByLabel("First Name").inputValue()).resolves.toBe("Priya");

    // Required fields say so, and nothing is saved.
    await page.getByLabel("First Name").fill("  ");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Required").waitFor();

    await page.getByLabel("First Name").fill("Priyanka");
    await page.getByLabel("Last Name").fill("Raman-Shah");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Profile has been updated successfully").waitFor();
    // The top bar shows the new name at once, without a reload.
    await page.locator(".user-menu__name", { hasText: "Priyanka Raman-Shah" }).waitFor();

    // A profile picture: a file the picker refuses, then a photo.
    await page.locator("#avatar-file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a picture") });
    await page.getByText("Invalid file").waitFor();
    await page.locator("#avatar-file").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from(files.pngWithText()) });
    await page.getByRole("img", { name: "Your profile picture" }).waitFor();
    await screenshot(page, "settings-1-profile-saved");
    await expectAxeClean(page, "settings profile");

    // Change Password, by its hash; the strength bar follows the typing.
    await page.getByRole("link", { name: "Change Password" }).click();
    await page.getByLabel("Old Password").waitFor();
    expect(new URL(page.url()).hash).toBe("#change_password");
    await page.getByLabel("Old Password").fill("not-my-password-1");
    await page.getByLabel("New Password").fill(NEW_PASSWORD);
    await expect(page.getByRole("meter", { name: "Password strength" }).getAttribute("aria-valuenow")).resolves.toBe("3");
    await page.getByRole("button", { name: "Change Password" }).click();
    await page.getByText("The old password is incorrect.").first().waitFor();
    await screenshot(page, "settings-2-wrong-old-password");
    await expectAxeClean(page, "settings password with an error");

    await page.getByLabel("Old Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Change Password" }).click();
    // Every session ended with the change: the console shows the login page and says why.
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    await page.getByText("Password has been updated successfully").waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin");
    expect(await page.evaluate(() => fetch("/api/auth/check").then((r) => r.text()))).toBe("unauthorised");
    await screenshot(page, "settings-3-signed-out");
    await expectAxeClean(page, "login after a password change");

    // The old password no longer opens the account; the new one does.
    await page.getByLabel("Email Address").fill(MEMBER_EMAIL);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Invalid email or password.").waitFor();
    await page.getByLabel("Password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.locator(".user-menu__name", { hasText: "Priyanka Raman-Shah" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
    await screenshot(page, "settings-4-signed-in-again");

    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("the two-factor warning leads to the settings screen; a single-sign-on user is kept on the Profile tab", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const origin = `http://localhost:${server.port}`;
    await page.goto(`${origin}/admin`);
    await page.getByLabel("Email Address").fill("owner@demo.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("link", { name: "Two-Factor Authentication Not Activated" }).click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/settings");
    // The profile arrives after the screen's heading: wait for it as a user would.
    await page.getByText("Two-Factor Authentication:").waitFor();

    // A fresh load (not a hash change in the open page), as a single-sign-on user arrives by a link.
    await server.db.update(users).set({ isSSO: true }).where(eq(users.email, "owner@demo.test"));
    await page.goto(`${origin}/admin/dashboard`);
    await page.goto(`${origin}/admin/settings#change_password`);
    await page.getByLabel("First Name").waitFor();
    expect(await page.getByRole("link", { name: "Change Password" }).count()).toBe(0);
    expect(await page.getByLabel("Old Password").count()).toBe(0);
    await page.waitForURL((url) => url.hash === "#profile");
    await page.getByText("Your email address comes from your Microsoft account.").waitFor();
    await screenshot(page, "settings-5-single-sign-on");
    await expectAxeClean(page, "settings of a single-sign-on user");
    await page.close();
  });
});
