import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import * as files from "../fixtures/files.ts";

/**
 * The super admin's Organisations in a real browser (spec §2 Organisations): create one, enter it,
 * set its logo and welcome message, archive it and see its public page closed; then an owner
 * changes their own organisation's settings from 'Account Settings: Organisation'.
 */
const suite = demoInBrowser();

const SUSPENDED = "Organisation was not found or is currently suspended.";

async function atBothWidths(page: Page, name: string, screen: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await screenshot(page, `${name}-1440`);
  await expectAxeClean(page, `${screen} at 1440 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  // The menu slides away below 1367 px: the picture is taken once it has.
  await page.locator("#admin-sidebar").evaluate((menu) => Promise.all(menu.getAnimations().map((animation) => animation.finished)));
  await screenshot(page, `${name}-390`);
  await expectAxeClean(page, `${screen} at 390 px`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

describe("organisations in the console", () => {
  test("the super admin creates an organisation, opens it, edits its settings, and archives it", async () => {
    const { browser, consoleOrigin, server } = suite;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems = recordProblems(page);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organisations" }).click();
    await page.getByRole("heading", { name: "Organisations" }).waitFor();

    // Create: both fields are required, then the modal's success notice.
    await page.getByRole("button", { name: "Create" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create" }).click();
    expect(await dialog.getByText("Required").count()).toBe(2);
    await dialog.getByLabel("Organisation Name").fill("Harbour Health");
    await dialog.getByLabel("ABN").fill("51 824 753 556");
    await screenshot(page, "organisations-0-create");
    await expectAxeClean(page, "create organisation dialog");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByText('Successfully created/updated organisation "Harbour Health"').waitFor();

    // Search (debounced) finds it; the list at both widths.
    await page.getByLabel("Search").fill("harbour");
    await page.waitForURL(/search=harbour/);
    await page.getByRole("link", { name: "Harbour Health" }).waitFor();
    await atBothWidths(page, "organisations-1-list", "organisations list");

    // Its name leads into it: the dashboard, the banner and the way back.
    await page.getByRole("link", { name: "Harbour Health" }).click();
    await page.getByText("You are managing organisation: Harbour Health").waitFor();
    await page.getByText("Reports Received").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/admin\/manage\/organisations\/dashboard\/[0-9a-f-]{36}$/);
    const organisationID = new URL(page.url()).pathname.split("/").pop()!;
    await page.getByRole("link", { name: "Back to Organisations" }).waitFor();
    // Every screen of its menu stays inside it: the organisation's own addresses, the banner kept.
    const menu = page.getByRole("navigation", { name: "Main" });
    for (const [link, heading, address] of [
      ["Reports", "Reports", "reports"],
      ["Conversations", "Conversations", "report-conversations"],
      ["Forms", "Report Forms", "report-forms"],
    ] as const) {
      await menu.getByRole("link", { name: link }).click();
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/admin/manage/organisations/${address}/${organisationID}`);
      await page.getByText("You are managing organisation: Harbour Health").waitFor();
    }

    // The overview: public page link and seats; Details.
    await page.goto(`${consoleOrigin}/admin/manage/organisations/overview/${organisationID}`);
    await page.getByRole("heading", { name: "Harbour Health" }).waitFor();
    await page.getByRole("link", { name: /harbour-health\.localhost/ }).waitFor();
    await page.getByText("0/10").waitFor();
    await page.getByRole("button", { name: "Details" }).click();
    await page.getByText("Portal welcome message").waitFor();
    await atBothWidths(page, "organisations-2-overview", "organisation overview");

    // Edit: logo, width, interval errors, welcome message and the super admin's toggles.
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByRole("heading", { name: "Edit Harbour Health" }).waitFor();
    await page.getByLabel("Logo file").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("no") });
    await page.getByText(/^Upload Failed/).waitFor();
    await page.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(files.pngWithText()) });
    await page.getByRole("img", { name: "Harbour Health logo" }).waitFor();
    await page.getByLabel("Logo Width").fill("120");
    await page.getByLabel("Stale Message Interval").fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Interval Number must be greater than 0").waitFor();
    await page.getByLabel("Stale Message Interval").fill("two");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Invalid Interval Number given").waitFor();
    await page.getByLabel("Stale Message Interval").fill("3");
    await page.getByLabel("Show a welcome message on the organisation page").check();
    await page.locator("#organisation-portal-welcome").click();
    await page.keyboard.type("Welcome to Harbour Health. You can report safely here.");
    await page.getByLabel("Magic Link / OTP (email sign-in)").check();
    await atBothWidths(page, "organisations-3-edit", "organisation edit");
    await page.getByRole("button", { name: "Save" }).click();
    // Magic Link / OTP changes how the organisation's accounts sign in: the super admin's own password first (decision 061).
    const proof = page.getByRole("dialog", { name: "Sign-in Settings" });
    await proof.getByLabel("Current Password").fill(DEMO_PASSWORD);
    await proof.getByRole("button", { name: "Save" }).click();
    // The saved organisation's overview (not the edit screen, whose heading holds the name too), and the notice.
    await page.getByRole("heading", { name: "Harbour Health", exact: true }).waitFor();
    await page.getByText("Organisation has been updated successfully").first().waitFor();

    // The public page shows the welcome message.
    const publicPage = await browser.newPage();
    await publicPage.goto(`http://harbour-health.localhost:${server.port}/`);
    await publicPage.getByText("Welcome to Harbour Health. You can report safely here.").waitFor();
    await publicPage.close();

    // Archive from the list, with the spec's confirmation; the public page is closed.
    await page.getByRole("link", { name: "Back to Organisations" }).click();
    await page.getByLabel("Search").fill("harbour");
    await page.waitForURL(/search=harbour/);
    await page.getByRole("row", { name: /Harbour Health/ }).getByRole("button", { name: "Archive" }).click();
    await page.getByRole("dialog").getByText("Are you sure you want to archive this organisation?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await page.getByText("Successfully archived organisation").waitFor();
    const closed = await browser.newPage();
    await closed.goto(`http://harbour-health.localhost:${server.port}/`);
    await closed.getByText(SUSPENDED).waitFor();
    await closed.close();
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  test("an organisation-scoped address of an organisation that does not exist says so and leads back to the list", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    for (const screen of ["reports", "users", "report-forms", "dashboard"]) {
      await page.goto(`${consoleOrigin}/admin/manage/organisations/${screen}/00000000-0000-4000-8000-000000000000`);
      await page.getByRole("heading", { name: "Organisation is not found" }).waitFor();
    }
    await expectAxeClean(page, "organisation is not found");
    await page.getByRole("link", { name: "Return" }).click();
    await page.getByRole("heading", { name: "Organisations" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/admin/manage/organisations");
    await page.close();
  }, 60_000);

  test("an owner changes their organisation's settings; the super admin's settings are not offered", async () => {
    const { browser, consoleOrigin } = suite;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organisation", exact: true }).click();
    await page.getByText(/^\d+\/\d+$/).waitFor();
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Font").waitFor();
    expect(await page.getByLabel("Seats").count()).toBe(0);
    expect(await page.getByLabel("Magic Link / OTP (email sign-in)").count()).toBe(0);
    await page.getByLabel("Font").selectOption("Roboto");
    await page.getByLabel("Ask a Question button label").fill("Ask us");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Organisation has been updated successfully").waitFor();
    await page.getByRole("button", { name: "Details" }).click();
    await page.getByText("Roboto").waitFor();
    await expectAxeClean(page, "owner's organisation details");
    await page.close();
  }, 60_000);
});
