import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissionAssignees, reportSubmissions, users } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { checkConsoleScreen, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { loginAs } from "../helpers/session.ts";

// The live report detail (spec §7, reportSubmission (admin view); decision 041): two staff on one
// report each see the other's change without reloading, and a member taken off the team sees the
// report go. Checked with axe at 390 and 1440 px.

const suite = demoInBrowser();

const priorityOf = (page: Page) => page.getByLabel("Priority").inputValue();

/** Sets a flag in the page that a reload would lose. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { stillThisPage: true }));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage === true);

async function waitForPriority(page: Page, priority: string) {
  await page.waitForFunction((want) => (document.getElementById("report-priority") as HTMLSelectElement | null)?.value === want, priority);
}

describe("the live report detail", () => {
  test("the owner sets the priority and the admin's page shows it, and back, without reloading; a member taken off the team sees the report go", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.status, "Assigned")));
    const staff = await server.db.select().from(users).where(inArray(users.email, ["owner@demo.test", "admin@demo.test", "member@demo.test"]));
    const idOf = (email: string) => staff.find((user) => user.email === email)!.id;
    await server.db.delete(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report!.id));
    await server.db.insert(reportSubmissionAssignees).values([
      { submissionId: report!.id, userId: idOf("owner@demo.test"), isOwner: true },
      { submissionId: report!.id, userId: idOf("admin@demo.test") },
      { submissionId: report!.id, userId: idOf("member@demo.test") },
    ]);
    await server.db.update(reportSubmissions).set({ priority: "Low" }).where(eq(reportSubmissions.id, report!.id));
    const path = `${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`;

    const owner = await newConsolePage(browser, 1440);
    const admin = await newConsolePage(browser, 390);
    const member = await newConsolePage(browser, 1440);
    for (const [{ page }, email] of [[owner, "owner@demo.test"], [admin, "admin@demo.test"], [member, "member@demo.test"]] as const) {
      await signInToConsole(page, consoleOrigin, email);
      await page.goto(path);
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByText(report!.reportId!).waitFor();
      await markPage(page);
    }
    expect(await priorityOf(owner.page)).toBe("Low");
    expect(await priorityOf(admin.page)).toBe("Low");

    await owner.page.getByLabel("Priority").selectOption("High");
    await owner.page.getByText("Priority has been set to High").waitFor();
    await waitForPriority(admin.page, "High");
    expect(await sameDocument(admin.page)).toBe(true);
    await checkConsoleScreen(admin.page, "report-live-detail", "admin-sees-owner-priority");

    await admin.page.getByLabel("Priority").selectOption("Medium");
    await admin.page.getByText("Priority has been set to Medium").waitFor();
    await waitForPriority(owner.page, "Medium");
    expect(await sameDocument(owner.page)).toBe(true);
    await checkConsoleScreen(owner.page, "report-live-detail", "owner-sees-admin-priority");

    // Another user takes the member off the team: their open page says the report is not found.
    const ownerApi = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    const removed = await ownerApi.gql(`mutation ($id: ID!, $userID: ID!) { reportSubmissionUnassignUser(id: $id, userID: $userID) { id } }`, { id: report!.id, userID: idOf("member@demo.test") });
    expect(removed.errors).toBeUndefined();
    await member.page.getByText("Report Submission is not found").waitFor();
    expect(await sameDocument(member.page)).toBe(true);
    await checkConsoleScreen(member.page, "report-live-detail", "member-taken-off-team");

    // The report reached through an address naming another form: the admin-side wording for a form that is gone.
    await owner.page.goto(`${consoleOrigin}/admin/manage/reports/overview/${crypto.randomUUID()}/${report!.id}`);
    await owner.page.getByRole("heading", { name: "Report Form was not found or no longer exists." }).waitFor();
    await owner.page.getByRole("link", { name: "Return to Reports" }).waitFor();

    expect([...owner.problems, ...admin.problems, ...member.problems]).toEqual([]);
    for (const { page } of [owner, admin, member]) await page.context().close();
  }, 90_000);
});
