import { describe, expect, test } from "bun:test";
import type { Locator } from "playwright-core";
import { eq } from "drizzle-orm";
import { reportSubmissionAssignees, reportSubmissions, users } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { DAY_ONLY_NOTE } from "../../site/src/admin/ui/activity-labels.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { demoForm, ReporterClient, submitReport } from "../helpers/reporter.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";

// The report's Activity Logs tab: the owner reads who did what, newest first, twenty to a page;
// a member (who may not read audit logs) is not offered the tab and its address shows the report.

const suite = demoInBrowser();
const dateOf = (row: Locator) => row.locator('td[data-label="Date"]').textContent();

describe("Activity Logs in Chromium", () => {
  test("the owner pages through a report's activity; a member is not offered it", async () => {
    const { server, browser, consoleOrigin } = suite;
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    await joinTeam(owner, report!.id);
    // Enough changes for a second page.
    for (let round = 0; round < 8; round += 1) {
      for (const priority of ["High", "Medium", "Low"]) {
        const result = await owner.gql(`mutation ($id: ID!, $p: Priority!) { reportSubmissionSetPriority(id: $id, priority: $p) { id } }`, { id: report!.id, p: priority });
        expect(result.errors).toBeUndefined();
      }
    }
    const closed = await owner.gql(`mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed, note: "Resolved with HR") { id } }`, { id: report!.id });
    expect(closed.errors).toBeUndefined();
    const path = `/admin/manage/reports/activities/${form.id}/${report!.id}`;

    const page = await browser.newPage();
    const problems = recordProblems(page);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}${path}`);
    await page.getByRole("heading", { name: "Activity Logs" }).waitFor();
    const rows = page.locator("section", { has: page.getByRole("heading", { name: "Activity Logs" }) }).locator("tbody tr");
    await rows.first().waitFor();
    expect(await page.getByRole("link", { name: "Activity Logs" }).getAttribute("aria-current")).toBe("page");
    expect(await rows.count()).toBe(20);
    // Newest first: the close, by the owner, with the outcome.
    await expect(rows.first().textContent()).resolves.toContain("Report closed · Assigned → Completed");
    await expect(rows.first().textContent()).resolves.toContain("Olivia Bennett · Owner");
    await expect(rows.nth(1).textContent()).resolves.toContain("Priority changed · Medium → Low");
    // Staff entries keep their time of day.
    expect((await dateOf(rows.first()))?.trim()).toMatch(/^\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2}\. \d{4} - \d{1,2}:\d{2}(am|pm)$/);
    await page.getByText(/Showing 1–20 of \d+/).waitFor();
    await screenshot(page, "activity-logs");
    await expectAxeClean(page, "activity logs");

    // The last page holds the reporter's entries, with nothing about who they are.
    await page.getByRole("button", { name: "Next" }).click();
    await rows.filter({ hasText: "Report submitted" }).waitFor();
    await expect(rows.filter({ hasText: "Report submitted" }).textContent()).resolves.toContain("Reporter");
    await expect(rows.last().textContent()).resolves.toContain("Report started");
    // The reporter's keep only their day, and say why (decision 064).
    for (const action of ["Report started", "Report submitted"]) {
      const row = rows.filter({ hasText: action });
      expect((await dateOf(row))?.trim()).toMatch(/^\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2}\. \d{4}$/);
      expect(await row.locator('td[data-label="Date"]').getAttribute("title")).toBe(DAY_ONLY_NOTE);
    }
    expect(await rows.filter({ hasText: "Report draft saved" }).count()).toBe(0);
    await screenshot(page, "activity-logs-reporter");
    expect(problems).toEqual([]);
    await page.close();

    // A member on the team does not read audit logs: no tab, and the address shows the report.
    const memberId = (await server.db.select({ id: users.id }).from(users).where(eq(users.email, "member@demo.test")))[0]!.id;
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: memberId, isOwner: false });
    const memberPage = await browser.newPage();
    await signInToConsole(memberPage, consoleOrigin, "member@demo.test");
    await memberPage.goto(`${consoleOrigin}${path}`);
    await memberPage.waitForURL(`**/admin/manage/reports/overview/${form.id}/${report!.id}`);
    await memberPage.getByRole("link", { name: "Notes" }).waitFor();
    expect(await memberPage.getByRole("link", { name: "Activity Logs" }).count()).toBe(0);
    await memberPage.close();
  }, 60_000);
});
