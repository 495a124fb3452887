import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { screenshot } from "../helpers/browser.ts";
import { lowContrastTexts } from "../helpers/contrast.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";

// Every text a user has to read reaches WCAG AA contrast: on each console screen (count badges,
// disabled buttons that still say something, placeholders and status badges included) and on the
// reporter's pages, which share the console's colours.

const suite = demoInBrowser();
/** A demo report with an unread message from its reporter, so its Messages tab carries a count. */
let report: { id: string; reportID: string; formID: string };

beforeAll(async () => {
  const owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
  const chats = await owner.gql<{ reportConversations: { list: { unreadMessages: number; submission: { id: string; reportID: string; submissionForm: { id: string } } }[] } }>(
    `{ reportConversations { list { unreadMessages submission { id reportID submissionForm { id } } } } }`,
  );
  const unread = chats.data!.reportConversations.list.find((row) => row.unreadMessages > 0)!.submission;
  report = { id: unread.id, reportID: unread.reportID, formID: unread.submissionForm.id };
  await joinTeam(owner, report.id).catch(() => undefined);
});

async function expectReadable(page: Page, screen: string, within?: string) {
  expect({ screen, lowContrast: await lowContrastTexts(page, within) }).toEqual({ screen, lowContrast: [] });
  await expectAxeClean(page, screen);
}

describe("contrast of every text", () => {
  test("each console screen, with its count badges, disabled buttons, placeholders and status badges, reaches 4.5:1", async () => {
    const { browser, consoleOrigin } = suite;
    // Wide enough for the sidebar, and so its count badges, to show.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${consoleOrigin}/admin`);
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    await expectReadable(page, "login");

    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.locator(".sidebar__badge").first().waitFor();
    await page.locator(".stat-tile__value").first().filter({ hasText: /\d/ }).waitFor();
    await expectReadable(page, "dashboard");

    // The list: a search placeholder, status and priority badges, and Archive offered but unavailable.
    await page.goto(`${consoleOrigin}/admin/manage/reports`);
    await page.locator(".report-table tbody tr").first().waitFor();
    await page.locator("button[aria-disabled='true']", { hasText: "Archive" }).first().waitFor();
    await expectReadable(page, "reports");

    // The report with its Messages count; a button disabled while it works still reads.
    await page.goto(`${consoleOrigin}/admin/manage/reports/overview/${report.formID}/${report.id}`);
    await page.locator(".tabs__badge").first().waitFor();
    await expectReadable(page, "report");
    await page.getByRole("button", { name: "Close Report" }).click();
    const dialog = page.getByRole("dialog", { name: "Close Report" });
    await dialog.getByRole("button", { name: "Close Report" }).evaluate((button) => button.setAttribute("disabled", ""));
    await expectReadable(page, "close report dialog", "dialog[open]");
    await screenshot(page, "contrast-close-dialog");
    await page.keyboard.press("Escape");

    await page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: /Messages/ }).click();
    await page.getByPlaceholder("Write a message to the reporter").waitFor();
    await expectReadable(page, "report messages");

    await page.goto(`${consoleOrigin}/admin/manage/report-conversations`);
    await page.locator(".conversation-table tbody tr").first().waitFor();
    await expectReadable(page, "conversations");

    await page.goto(`${consoleOrigin}/admin/settings`);
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    await expectReadable(page, "settings");
    await screenshot(page, "contrast-settings");
    await context.close();
  }, 90_000);

  test("the reporter's pages, in the colours they share with the console, reach 4.5:1", async () => {
    const { browser, reporterOrigin } = suite;
    const page = await browser.newPage();
    await page.goto(`${reporterOrigin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
    await page.getByRole("button", { name: /Next/ }).first().waitFor();
    await expectReadable(page, "report form");
    await page.goto(`${reporterOrigin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await expectReadable(page, "organisation page");
    await page.goto(`${reporterOrigin}/report/login`);
    await page.getByLabel("Report ID").fill(report.reportID);
    await expectReadable(page, "report login");
    await page.getByLabel("Password").fill(DEMO_REPORT_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/report/dashboard");
    await page.getByRole("tab", { name: /Messages/ }).click();
    await page.getByPlaceholder("Write a message").waitFor();
    await expectReadable(page, "reporter's messages");
    await screenshot(page, "contrast-reporter-messages");
    await page.close();
  }, 60_000);
});
