import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean } from "../helpers/console-browser.ts";
import { giveTwoFactor } from "../helpers/two-factor.ts";
import * as files from "../fixtures/files.ts";

/**
 * Users in Chromium (spec §2 Users): an owner creates a member, edits them, suspends them (the
 * member's open console is signed out), unsuspends and deletes them; a super admin turns another
 * user's two-factor off after confirming. Each screen is checked with axe at 1440 and 390 px.
 */
const suite = demoInBrowser();
const NEW_EMAIL = "casey.new@demo.test";
const FIRST_PASSWORD = "first-lantern-4";
const SECOND_PASSWORD = "second-lantern-5";

async function signIn(page: import("playwright-core").Page, email: string, password: string) {
  await page.goto(`${suite.consoleOrigin}/admin`);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.locator(".user-menu__name").waitFor();
}

async function confirmYes(page: import("playwright-core").Page, question: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByText(question).waitFor();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await dialog.waitFor({ state: "detached" });
}

/** The acting user's own proof, asked before a password or two-factor change of another (decision 061). */
async function proveWithPassword(page: import("playwright-core").Page, question: string, submit: string) {
  const dialog = page.getByRole("dialog");
  await dialog.getByText(question).waitFor();
  await dialog.getByLabel("Current Password").fill(DEMO_PASSWORD);
  await dialog.getByRole("button", { name: submit }).click();
  await dialog.waitFor({ state: "detached" });
}

describe("users in the console", () => {
  test("an owner creates, edits, suspends, unsuspends and deletes a member", async () => {
    const ownerContext = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ownerContext.newPage();
    const problems = recordProblems(page);
    await signIn(page, "owner@demo.test", DEMO_PASSWORD);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }).click();
    await page.getByRole("heading", { name: "Users" }).waitFor();
    await page.getByTestId("seats").waitFor();
    await page.getByRole("cell", { name: "member@demo.test" }).waitFor();
    await screenshot(page, "users-0-list-1440");
    await expectAxeClean(page, "users list");

    await page.getByRole("link", { name: "Create User" }).click();
    await page.getByRole("heading", { name: "Create User" }).waitFor();
    await page.getByRole("button", { name: "Create User" }).click();
    expect(await page.getByText("Required").count()).toBeGreaterThanOrEqual(4);
    await page.getByLabel("First Name").fill("Casey");
    await page.getByLabel("Last Name").fill("Nguyen");
    await page.getByLabel("Email").fill(NEW_EMAIL);
    await page.getByLabel("Password", { exact: true }).fill(FIRST_PASSWORD);
    // The owner may give only lower roles, and no super admin or guest role on their organisation's page.
    const roles = await page.getByLabel("Role").locator("option").allTextContents();
    expect(roles).toEqual(["Select a role", "Admin", "Member"]);
    await page.getByLabel("Role").selectOption({ label: "Member" });
    await screenshot(page, "users-1-create-1440");
    await expectAxeClean(page, "create user");
    await page.getByRole("button", { name: "Create User" }).click();
    await page.getByRole("heading", { name: "Edit User" }).waitFor();
    const [created] = await suite.server.db.select({ id: users.id, verified: users.verified }).from(users).where(eq(users.email, NEW_EMAIL));
    expect(created?.verified).toBe(false);
    expect(new URL(page.url()).pathname).toBe(`/admin/manage/users/edit/${created!.id}`);

    // Edit Profile: a new name, and a picture the server refuses.
    await page.getByLabel("First Name").fill("Casey-Jo");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("User has been updated successfully").first().waitFor();
    await page.getByLabel("Profile picture file").setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("not a picture") });
    await page.getByText(/^Upload Failed/).waitFor();
    await page.getByLabel("Profile picture file").setInputFiles({ name: "face.png", mimeType: "image/png", buffer: Buffer.from(files.pngWithText()) });
    await page.getByRole("img", { name: "Profile picture of Casey-Jo Nguyen" }).waitFor();
    await screenshot(page, "users-2-edit-1440");
    await expectAxeClean(page, "edit user");

    // Change Password: the member will sign in with the new one.
    await page.getByRole("button", { name: "Change Password" }).first().click();
    await page.getByLabel("New Password").fill(SECOND_PASSWORD);
    await page.getByRole("button", { name: "Change Password" }).last().click();
    await proveWithPassword(page, "The user will be signed out everywhere", "Change Password");
    await page.getByText("User's password has been changed").waitFor();
    await expectAxeClean(page, "change user's password");

    // The member signs in elsewhere and keeps their console open.
    const memberContext = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const memberPage = await memberContext.newPage();
    await signIn(memberPage, NEW_EMAIL, SECOND_PASSWORD);
    // Members are sent away from the users list.
    await memberPage.goto(`${suite.consoleOrigin}/admin/manage/users`);
    await memberPage.waitForURL((url) => url.pathname !== "/admin/manage/users");

    await page.getByRole("link", { name: "Users" }).first().click();
    await page.getByLabel("Search").fill("Casey");
    const row = page.getByRole("row", { name: /Casey-Jo Nguyen/ });
    await row.waitFor();
    await row.getByRole("button", { name: "Suspend" }).click();
    await confirmYes(page, "Are you sure you want to suspend this user?");
    await page.getByText("Successfully suspended user").waitFor();
    // The member's open console is signed out without any action of theirs.
    await memberPage.getByLabel("Email Address").waitFor({ timeout: 15_000 });

    // A suspended user cannot be edited.
    await page.goto(`${suite.consoleOrigin}/admin/manage/users/edit/${created!.id}`);
    await page.getByText("Contact admin to unsuspend.").waitFor();
    await page.goBack();
    await row.getByRole("button", { name: "Unsuspend" }).click();
    await confirmYes(page, "Are you sure you want to unsuspend this user?");
    await page.getByText("Successfully unsuspended user").waitFor();

    await row.getByRole("button", { name: "Delete" }).click();
    await confirmYes(page, "Are you sure you want to permanently delete this user?");
    await page.getByText("Successfully deleted user").waitFor();
    await row.waitFor({ state: "detached" });
    expect((await suite.server.db.select().from(users).where(eq(users.email, NEW_EMAIL))).length).toBe(0);

    // Narrow screens: the list and the edit page.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Search").fill("");
    await page.getByRole("cell", { name: "member@demo.test" }).waitFor();
    await screenshot(page, "users-3-list-390");
    await expectAxeClean(page, "users list at 390 px");
    const [member] = await suite.server.db.select({ id: users.id }).from(users).where(eq(users.email, "member@demo.test"));
    await page.goto(`${suite.consoleOrigin}/admin/manage/users/edit/${member!.id}`);
    await page.getByRole("heading", { name: "Edit User" }).waitFor();
    await page.getByLabel("First Name").waitFor();
    await screenshot(page, "users-4-edit-390");
    await expectAxeClean(page, "edit user at 390 px");
    expect(problems).toEqual([]);
    await memberContext.close();
    await ownerContext.close();
  }, 120_000);

  test("a super admin turns off a user's two-factor authentication after confirming", async () => {
    const [admin] = await suite.server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@demo.test"));
    await giveTwoFactor(suite.server.db, admin!.id);
    const context = await suite.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, "admin@lantern.test", DEMO_PASSWORD);
    await page.goto(`${suite.consoleOrigin}/admin/manage/users/edit/${admin!.id}`);
    await page.getByText("Two-Factor Authentication: Activated").waitFor();
    await page.getByRole("button", { name: "Disable Two-Factor Authentication" }).click();
    await proveWithPassword(page, "Are you sure you want to disable this user's Two-Factor Authentication?", "Disable");
    await page.getByText("Two-Factor Authentication: Not Activated").waitFor();
    await page.getByText("Super Admins cannot enable Two-Factor Authentication.").waitFor();
    expect((await suite.server.db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.id, admin!.id)))[0]!.on).toBe(false);
    await screenshot(page, "users-5-two-factor-off-1440");
    await expectAxeClean(page, "two-factor turned off");
    // The super admin's lists by role.
    await page.getByRole("link", { name: "Guest Members" }).click();
    await page.getByRole("heading", { name: "Guest Members" }).waitFor();
    await page.getByRole("cell", { name: "guest@demo.test" }).waitFor();
    await expectAxeClean(page, "guest members list");
    await context.close();
  }, 60_000);
});
