import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { checkConsoleScreen, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { linkIn, mailsTo } from "../helpers/mail-links.ts";

// The console asks for the password before an email or two-factor change (decision 061): the
// dialog asks, says so when the password is wrong, and sends the change with the right one.

const suite = demoInBrowser();
const MEMBER = "member@demo.test";
const NEW_ADDRESS = "priya.new@example.test";

describe("proof of the account in the console", () => {
  test("a new email address: the dialog asks, refuses a wrong password, and sends the link with the right one", async () => {
    const { page, problems } = await newConsolePage(suite.browser, 1440);
    await signInToConsole(page, suite.consoleOrigin, MEMBER);
    await page.goto(`${suite.consoleOrigin}/admin/settings#profile`);
    await page.getByLabel("Email Address").fill(NEW_ADDRESS);
    await page.getByRole("button", { name: "Save", exact: true }).click();

    const dialog = page.getByRole("dialog", { name: "Change Email Address" });
    await dialog.getByText(`A confirmation link will be sent to ${NEW_ADDRESS}.`, { exact: false }).waitFor();
    await checkConsoleScreen(page, "reauthentication", "email-dialog");

    // Nothing typed: the field says so and nothing is sent.
    await dialog.getByRole("button", { name: "Send Link" }).click();
    await dialog.getByText("Required").waitFor();

    await dialog.getByLabel("Current Password").fill("not-my-password-1");
    await dialog.getByRole("button", { name: "Send Link" }).click();
    await dialog.getByText("The password is incorrect.").first().waitFor();
    await checkConsoleScreen(page, "reauthentication", "email-dialog-wrong-password");
    expect(mailsTo(suite.server.dataDir, NEW_ADDRESS)).toEqual([]);

    await dialog.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await dialog.getByRole("button", { name: "Send Link" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(`A confirmation link has been sent to ${NEW_ADDRESS}.`, { exact: false }).first().waitFor();
    await page.getByText(`Waiting for confirmation: ${NEW_ADDRESS}.`, { exact: false }).waitFor();
    const [row] = await suite.server.db.select({ email: users.email }).from(users).where(eq(users.email, MEMBER));
    expect(row?.email).toBe(MEMBER);

    // The link from the mail: nothing happens until the button is pressed.
    const link = linkIn(mailsTo(suite.server.dataDir, NEW_ADDRESS).at(-1)!, "/admin/confirm-email/");
    await page.goto(`${suite.consoleOrigin}${link.pathname}`);
    await page.getByRole("button", { name: "Confirm Email Address" }).waitFor();
    await checkConsoleScreen(page, "reauthentication", "confirm-email-page");
    expect((await suite.server.db.select({ id: users.id }).from(users).where(eq(users.email, NEW_ADDRESS))).length).toBe(0);
    await page.getByRole("button", { name: "Confirm Email Address" }).click();
    await page.getByText("Your email address has been changed.", { exact: false }).waitFor();
    expect((await suite.server.db.select({ id: users.id }).from(users).where(eq(users.email, NEW_ADDRESS))).length).toBe(1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("two-factor on a phone-sized screen: the same dialog, a wrong then a right password", async () => {
    const { page, problems } = await newConsolePage(suite.browser, 390);
    await signInToConsole(page, suite.consoleOrigin, "admin@demo.test");
    await page.goto(`${suite.consoleOrigin}/admin/settings#profile`);
    await page.getByRole("button", { name: "Enable Two-Factor Authentication" }).click();
    const dialog = page.getByRole("dialog", { name: "Two-Factor Authentication" });
    await dialog.getByLabel("Current Password").waitFor();
    await checkConsoleScreen(page, "reauthentication", "two-factor-dialog");

    await dialog.getByLabel("Current Password").fill("not-my-password-1");
    await dialog.getByRole("button", { name: "Enable" }).click();
    await dialog.getByText("The password is incorrect.").first().waitFor();
    const [before] = await suite.server.db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.email, "admin@demo.test"));
    expect(before?.on).toBe(false);

    await dialog.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await dialog.getByRole("button", { name: "Enable" }).click();
    // Turned on, the session owes its setup: the console shows the setup screen at once.
    await page.getByRole("heading", { name: "Set Up Two-Factor Authentication" }).waitFor();
    const [after] = await suite.server.db.select({ on: users.twoFactorAuthenticationActivated }).from(users).where(eq(users.email, "admin@demo.test"));
    expect(after?.on).toBe(true);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
