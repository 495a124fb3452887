import { describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissionAssignees, reportSubmissions, users } from "../../db/schema/index.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";

// Legal deadlines (decision 050): the team sees both clocks on the report, records feedback given
// another way, and the dashboard counts what is due soon and overdue. axe-clean at 390 and 1440 px.

const suite = demoInBrowser();
const DAY = 24 * 60 * 60 * 1000;

describe("legal deadlines in the console", () => {
  test("the dashboard counts a report due soon; its team sees both deadlines and records feedback given", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.status, "Assigned")));
    const staff = await server.db.select().from(users).where(inArray(users.email, ["member@demo.test"]));
    await server.db.delete(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report!.id));
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: staff[0]!.id, isOwner: true });
    // Received six days ago, nobody has answered: acknowledgement is due within a day.
    await server.db
      .update(reportSubmissions)
      .set({ completedAt: new Date(Date.now() - 6 * DAY), acknowledgedAt: null, feedbackAt: null })
      .where(eq(reportSubmissions.id, report!.id));
    const path = `${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`;

    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      const tile = page.locator(".legal-clock-counts .stat-tile", { hasText: "Acknowledgement due soon" });
      await tile.locator(".stat-tile__value", { hasNotText: "–" }).waitFor();
      expect(Number(await tile.locator(".stat-tile__value").textContent())).toBeGreaterThanOrEqual(1);
      await page.getByRole("heading", { name: "Legal deadlines" }).waitFor();
      await checkConsoleScreen(page, "legal-clocks", "dashboard");
      expect(problems).toEqual([]);
      await page.context().close();
    }

    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "member@demo.test");
      await page.goto(path);
      const panel = page.getByRole("region", { name: "Legal deadlines" });
      await panel.getByText("Acknowledge by").waitFor();
      await panel.getByText("Feedback by").waitFor();
      await panel.getByText("Due soon").waitFor();
      await panel.getByText("Not yet due").waitFor();
      await checkConsoleScreen(page, "legal-clocks", "report-due-soon");
      if (width === 390) {
        await panel.getByRole("button", { name: "Record feedback given" }).click();
        await confirmDialog(page, "Has the reporter been given feedback on this report?");
        await page.getByText("Feedback has been recorded").waitFor();
        await panel.getByText(/^Feedback given /).waitFor();
        await panel.getByText("Met", { exact: true }).waitFor();
        expect(await panel.getByRole("button", { name: "Record feedback given" }).count()).toBe(0);
        await checkConsoleScreen(page, "legal-clocks", "report-feedback-recorded");
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }
    const [after] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report!.id));
    expect(after!.feedbackAt).not.toBeNull();
  }, 120_000);
});

describe("an unassigned report", () => {
  test("shows an owner its deadlines beside Join Team, before anyone has joined", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.status, "New")));
    await server.db.delete(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report!.id));
    // Received eight days ago and never answered: acknowledgement is overdue while it waits for a team.
    await server.db
      .update(reportSubmissions)
      .set({ completedAt: new Date(Date.now() - 8 * DAY), acknowledgedAt: null, feedbackAt: null })
      .where(eq(reportSubmissions.id, report!.id));
    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      await page.goto(`${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`);
      await page.getByRole("button", { name: "Join Team" }).waitFor();
      const panel = page.getByRole("region", { name: "Legal deadlines" });
      await panel.getByText("Acknowledge by").waitFor();
      await panel.getByText("Overdue").waitFor();
      // Not on the team: nothing to record yet.
      expect(await panel.getByRole("button", { name: "Record feedback given" }).count()).toBe(0);
      await checkConsoleScreen(page, "legal-clocks", "join-team-gate");
      expect(problems).toEqual([]);
      await page.context().close();
    }
  }, 120_000);
});
