import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { confirmSend, demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { readableMail } from "../helpers/smtp-server.ts";
import { demoForm, ReporterClient, submitReport } from "../helpers/reporter.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";
import { parseCsv, readZip } from "../helpers/zip-reader.ts";

// Issue 4's journey: the demo owner triages a report that arrives while they watch, and talks
// with its reporter, who is in a second browser context on the organisation's own host.

const suite = demoInBrowser();

const tile = (page: Page, label: string) => page.locator(".stat-tile").filter({ hasText: label }).locator(".stat-tile__value");
/** Waits for the header's status to read `status`: the screen refetches the report after a change. */
const statusShows = (page: Page, status: string) => page.locator(".report-header__facts .badge", { hasText: new RegExp(`^${status}$`) }).waitFor({ timeout: 5_000 });

async function closeReport(page: Page, outcome: string, note?: string) {
  await page.getByRole("button", { name: "Close Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Close Report" });
  await dialog.getByRole("radio", { name: outcome, exact: true }).check();
  if (note) await dialog.getByLabel("Note (optional)").fill(note);
  await expectAxeClean(page, "close report dialog");
  await dialog.getByRole("button", { name: "Close Report" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByText(`Successfully marked Report as ${outcome}`).last().waitFor();
}

describe("the owner's console journey in Chromium", () => {
  test("a new report arrives live, is assigned, tagged, noted, discussed live with its reporter, closed, re-opened, closed and archived", async () => {
    const { server, browser, consoleOrigin, reporterOrigin } = suite;
    const owner = await browser.newContext({ acceptDownloads: true });
    const page = await owner.newPage();
    const requests = recordRequests(page);
    const problems = recordProblems(page);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.locator(".stat-tile__value").first().filter({ hasText: /\d/ }).waitFor();
    const receivedBefore = Number(await tile(page, "Reports Received").textContent());
    await screenshot(page, "console-1-dashboard");
    await expectAxeClean(page, "dashboard");

    // A reporter submits on the organisation's host; the open dashboard counts it and lists it, no reload.
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const { reportID, generatedPassword } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    await tile(page, "Reports Received").filter({ hasText: String(receivedBefore + 1) }).waitFor({ timeout: 5_000 });
    const latest = page.locator("section", { has: page.getByRole("heading", { name: "Latest Reports" }) });
    await latest.getByRole("link", { name: reportID }).waitFor({ timeout: 5_000 });
    await screenshot(page, "console-2-new-report-live");
    await expectAxeClean(page, "dashboard with a new report");

    // Nobody is on its team yet: the owner joins, then assigns the demo member.
    await latest.getByRole("link", { name: reportID }).click();
    await page.getByRole("heading", { name: `Report ${reportID}` }).waitFor();
    await expectAxeClean(page, "report before joining its team");
    await page.getByRole("button", { name: "Join Team" }).click();
    await page.getByRole("link", { name: "Team" }).click();
    await page.getByRole("heading", { name: "Assigned Users" }).waitFor();
    await expectAxeClean(page, "report team");
    await page.getByRole("button", { name: "Assign Users" }).click();
    const assign = page.getByRole("dialog", { name: "Assign Users" });
    await assign.getByLabel("Search").fill("Priya");
    await assign.locator(".assign-list__item", { hasText: "Priya Raman" }).waitFor();
    await expectAxeClean(page, "assign users dialog");
    await assign.locator(".assign-list__item", { hasText: "Priya Raman" }).getByRole("button", { name: "Assign" }).click();
    const team = page.locator("section", { has: page.getByRole("heading", { name: "Assigned Users" }) });
    await team.getByRole("cell", { name: /Priya Raman/ }).waitFor();
    await assign.getByRole("button", { name: "Close" }).click().catch(() => undefined);
    await screenshot(page, "console-3-team");

    // A tag and a note.
    await page.getByRole("link", { name: "Report", exact: true }).click();
    const identifiers = page.locator("section", { has: page.getByRole("heading", { name: "Report Identifiers" }) });
    await expectAxeClean(page, "report overview");
    await identifiers.getByRole("checkbox", { name: "Finance" }).check();
    await identifiers.getByRole("button", { name: "Save" }).click();
    await page.getByText(/successfully/i).first().waitFor();
    await page.getByRole("link", { name: "Notes" }).click();
    await page.getByLabel("New Note").fill("Spoke to the site manager; evidence requested.");
    await page.getByRole("button", { name: "Post Note" }).click();
    await page.getByText("Spoke to the site manager; evidence requested.").waitFor();
    await screenshot(page, "console-4-tag-and-note");
    await expectAxeClean(page, "report notes");

    // The reporter signs in to the follow-up area in a second context and opens Messages.
    const reporterContext = await browser.newContext();
    const reporter = await reporterContext.newPage();
    const reporterRequests = recordRequests(reporter);
    await reporter.goto(`${reporterOrigin}/report/login`);
    await reporter.getByLabel("Report ID").fill(reportID);
    await reporter.getByLabel("Password").fill(generatedPassword);
    await reporter.getByRole("button", { name: "Login" }).click();
    await reporter.waitForURL("**/report/dashboard");
    await reporter.getByRole("tab", { name: /Messages/ }).click();
    await reporter.getByPlaceholder("Write a message").waitFor();

    // Staff reply; the reporter sees it without reloading and answers; staff see that live too.
    await page.getByRole("link", { name: /Messages/ }).click();
    await page.getByText("The reporter is online").waitFor({ timeout: 5_000 });
    await page.getByPlaceholder("Write a message to the reporter").fill("Thank you for reporting. Could you tell us which shift this was?");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await confirmSend(page);
    await reporter.getByText("Thank you for reporting. Could you tell us which shift this was?").waitFor({ timeout: 5_000 });
    await screenshot(reporter, "console-5-reporter-sees-reply");
    await reporter.getByPlaceholder("Write a message").pressSequentially("The night ");
    await page.getByText("The reporter is typing…").waitFor({ timeout: 5_000 });
    await reporter.getByPlaceholder("Write a message").fill("The night shift on the 14th.");
    await reporter.getByRole("button", { name: "Send", exact: true }).click();
    await page.getByText("The night shift on the 14th.").waitFor({ timeout: 5_000 });
    await page.getByText("The reporter is online").waitFor({ timeout: 5_000 });
    // The owner has the chat open, so the reporter's message is read and says so on their side.
    await reporter.locator(".chat__meta", { hasText: "Seen" }).waitFor({ timeout: 5_000 });
    await screenshot(page, "console-6-chat-live");
    await expectAxeClean(page, "report messages");
    // The reporter goes away: the open console says so.
    const reporterRequestsSeen = reporterRequests.filter((url) => !url.startsWith(reporterOrigin));
    await reporterContext.close();
    await page.getByText(/The reporter is offline/).waitFor({ timeout: 5_000 });

    // Closed as Substantiated with a note; re-opened; closed again; archived from the list.
    await closeReport(page, "Substantiated", "The account is supported by the rota and two witnesses.");
    await statusShows(page, "Substantiated");
    await page.getByRole("link", { name: "Notes" }).click();
    await page.getByText("Report Marked as Substantiated").first().waitFor();
    await screenshot(page, "console-7-closed");
    await page.getByRole("button", { name: "Re-open Report" }).click();
    await page.getByText("Successfully re-opened report").waitFor();
    await page.getByRole("button", { name: "Close Report" }).waitFor();
    // Archiving needs Closed or Completed (spec §4), so the second close is Completed.
    await closeReport(page, "Completed");
    await statusShows(page, "Completed");
    await page.getByRole("link", { name: "Reports", exact: true }).click();
    const row = page.getByRole("row", { name: new RegExp(reportID) });
    await row.waitFor();
    await expectAxeClean(page, "reports list");

    // Both exports download under the server's file names and hold the report.
    const [zip] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export Reports" }).click()]);
    expect(zip.suggestedFilename()).toMatch(/^reports-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const exported = readZip(readFileSync((await zip.path())!));
    expect(new TextDecoder().decode(exported.get(`Report ${reportID}.html`))).toContain("Spoke to the site manager; evidence requested.");
    const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Reporting CSV" }).click()]);
    expect(csv.suggestedFilename()).toMatch(/^reports-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(readFileSync((await csv.path())!, "utf8").replace(/^\uFEFF/, ""));
    expect(rows.some((cells) => cells[0] === reportID)).toBe(true);
    await row.getByRole("button", { name: "Archive" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).waitFor();
    await expectAxeClean(page, "archive confirmation");
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await page.getByText("Successfully archived report").waitFor();
    await row.waitFor({ state: "detached" });
    await page.goto(`${consoleOrigin}/admin/manage/reports?filter=Archived`);
    const archivedRow = page.getByRole("row", { name: new RegExp(reportID) });
    await archivedRow.waitFor();
    await screenshot(page, "console-8-archived");
    // Hard Delete is the owner's, offered on archived reports only (spec §4): afterwards the report is gone from every list.
    await archivedRow.getByRole("button", { name: "Hard Delete" }).click();
    await page.getByRole("dialog").getByText("Are you sure you want to hard delete this report?").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Yes" }).click();
    await page.getByText("Successfully hard deleted report").waitFor();
    await archivedRow.waitFor({ state: "detached" });
    await page.goto(`${consoleOrigin}/admin/manage/reports?filter=All&search=${reportID}`);
    await page.getByText("No reports found").waitFor();

    expect(requests.filter((url) => !url.startsWith(consoleOrigin))).toEqual([]);
    expect(reporterRequestsSeen).toEqual([]);
    expect(problems).toEqual([]);
    await owner.close();
  }, 120_000);

  test("the owner emails a report and invites a guest from its screen; both mails leave with a link and nothing of the report", async () => {
    const { server, browser, consoleOrigin } = suite;
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const ownerApi = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    const list = await ownerApi.gql<{ reportSubmissions: { list: { id: string; reportID: string }[] } }>(
      `query ($text: String) { reportSubmissions(search: { text: $text }) { list { id reportID } } }`,
      { text: reportID },
    );
    const id = list.data!.reportSubmissions.list.find((row) => row.reportID === reportID)!.id;
    await joinTeam(ownerApi, id);
    const outbox = join(server.dataDir, "outbox");
    const mails = () => readdirSync(outbox).filter((name) => name.endsWith(".eml")).map((name) => readFileSync(join(outbox, name), "utf8"));

    const page = await browser.newPage();
    const problems = recordProblems(page);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}/admin/manage/reports/overview/${form.id}/${id}`);
    await page.getByRole("heading", { name: `Report ${reportID}` }).waitFor();

    await page.getByRole("button", { name: "Email Report" }).click();
    const emailDialog = page.getByRole("dialog", { name: "Email Report" });
    await emailDialog.getByRole("button", { name: "Send" }).click();
    await emailDialog.getByText("Required").waitFor();
    await expectAxeClean(page, "email report dialog with an error");
    await emailDialog.getByLabel("Email Address").fill("case-lawyer@example.test");
    await emailDialog.getByRole("button", { name: "Send" }).click();
    await page.getByText("Successfully emailed report to case-lawyer@example.test").waitFor();

    await page.getByRole("link", { name: "Team" }).click();
    await page.getByRole("button", { name: /Invite Guest/ }).click();
    const inviteDialog = page.getByRole("dialog", { name: "Invite Guest User" });
    await inviteDialog.getByLabel("Email Address").fill("auditor@example.test");
    await expectAxeClean(page, "invite guest dialog");
    await inviteDialog.getByRole("button", { name: "Invite" }).click();
    await page.getByText("auditor@example.test has been invited to this report").waitFor();
    await page.getByRole("cell", { name: "auditor@example.test" }).waitFor();
    await screenshot(page, "console-9-invited");

    // Each mail carries a link into the console and nothing the reporter wrote.
    const answer = widgets.find((widget) => widget.type === "LongText" || widget.type === "ShortText")!;
    for (const recipient of ["case-lawyer@example.test", "auditor@example.test"]) {
      const mail = mails().map(readableMail).find((text) => text.includes(`To: ${recipient}`));
      expect(mail).toBeDefined();
      expect(mail).toMatch(/https?:\/\/\S+\/admin\S*/);
      expect(mail).not.toContain(`Answer to ${answer.title}`);
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
