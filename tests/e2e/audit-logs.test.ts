import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { and, eq } from "drizzle-orm";
import { organisations, reportSubmissions, tags } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { loginAs } from "../helpers/session.ts";

// The Audit Logs screens (spec §2 Audit logs, §3 User activity; decision 040): the demo owner
// archives a form and finds it in the log, narrows the log by object type and by person, opens the
// logs of a grouped entry (one tag assignment, its tags beneath), and a bad group id is 'Audit log
// not found'. A super admin inside Northwind sees only Northwind's entries; a member is sent home.

const suite = demoInBrowser();
const FINANCE = "Confidential Finance Concern";
const checkScreen = (page: Page, name: string) => checkConsoleScreen(page, "audit-logs", name);
const entries = (page: Page) => page.getByRole("region", { name: "Audit log entries" });

/** The owner tags a Demo report with two tags at once, over the API: the grouped entry the journey opens. */
async function tagAReport() {
  const { server } = suite;
  const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  const [demo] = await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "demo"));
  const [report] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, demo!.id)).limit(1);
  const twoTags = await server.db.select({ id: tags.id, name: tags.name }).from(tags).where(and(eq(tags.organisationId, demo!.id), eq(tags.archived, false))).limit(2);
  await owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: report!.id });
  const ASSIGN = `mutation ($id: ID!, $t: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $t) { id } }`;
  await owner.gql(ASSIGN, { id: report!.id, t: [] });
  const assigned = await owner.gql(ASSIGN, { id: report!.id, t: twoTags.map((tag) => tag.id) });
  expect(assigned.errors).toBeUndefined();
  return twoTags.map((tag) => tag.name);
}

describe("audit logs in the console", () => {
  test("the owner finds their archive, filters the log, opens a group's logs, and a bad group id is not found", async () => {
    const { browser, consoleOrigin } = suite;
    const tagNames = await tagAReport();
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");

    // Something of record: the owner archives a form.
    await page.goto(`${consoleOrigin}/admin/manage/report-forms`);
    await page.locator("tbody tr", { hasText: FINANCE }).getByRole("button", { name: "Archive" }).click();
    await confirmDialog(page, "Are you sure you want to archive this report form?");
    await page.getByText("Successfully archived report form", { exact: true }).last().waitFor();

    // Audit Logs is the last item of Manage.
    const manage = page.getByRole("navigation", { name: "Main" });
    await manage.getByRole("link", { name: "Audit Logs" }).click();
    await page.getByRole("heading", { name: "Audit Logs", level: 1 }).waitFor();
    const archived = `Olivia B. archived the form "${FINANCE}"`;
    await entries(page).getByText(archived, { exact: true }).waitFor();
    await checkScreen(page, "audit-logs");

    // Object type: only forms' entries; then only one person's.
    await page.getByLabel("Object Type").selectOption("ReportForm");
    await page.waitForURL(/type=ReportForm/);
    await entries(page).getByText(archived, { exact: true }).waitFor();
    const types = await entries(page).locator('td[data-label="Object Type"]').allTextContents();
    expect(new Set(types)).toEqual(new Set(["Report Form"]));
    // The member changed no form; the owner did.
    await page.getByLabel("User").selectOption({ label: "Priya Raman" });
    await page.waitForURL(/user=/);
    await page.getByText("No audit logs found").waitFor();
    await page.getByLabel("User").selectOption({ label: "Olivia Bennett" });
    await entries(page).getByText(archived, { exact: true }).waitFor();
    await page.getByLabel("User").selectOption({ index: 0 });
    await page.getByLabel("Object Type").selectOption("");

    // A future date is refused before anything is asked of the server.
    await page.getByLabel("From", { exact: true }).fill("01/01/2999");
    await page.getByText("Date cannot be in the future").waitFor();
    await page.getByRole("button", { name: "Clear" }).click();

    // The grouped entry: View Logs lists the tags the assignment added.
    const group = entries(page).locator("tbody tr", { hasText: "changed the tags of a report" }).first();
    await group.getByRole("link", { name: "View Logs" }).click();
    await page.waitForURL(/\/admin\/manage\/audit-logs\/[0-9a-f-]{36}$/);
    for (const name of tagNames) await entries(page).getByText(`added the tag "${name}"`).waitFor();
    expect(await entries(page).locator("tbody tr").count()).toBe(tagNames.length);
    await checkScreen(page, "audit-log-group");

    // Someone else's or a made-up group: not found, with the way back.
    await page.goto(`${consoleOrigin}/admin/manage/audit-logs/${crypto.randomUUID()}`);
    await page.getByRole("heading", { name: "Audit log not found" }).waitFor();
    await checkScreen(page, "audit-log-not-found");
    await page.getByRole("link", { name: "Return to Audit Logs" }).click();
    await page.getByRole("heading", { name: "Audit Logs", level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("at 390 px the log reads as cards", async () => {
    const { browser, consoleOrigin } = suite;
    const { page, problems } = await newConsolePage(browser, 390);
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}/admin/manage/audit-logs`);
    await entries(page).locator("tbody tr").first().waitFor();
    await checkScreen(page, "audit-logs");
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test("a super admin inside Northwind sees only Northwind's entries; a member is sent home", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [northwind] = await server.db.select({ id: organisations.id }).from(organisations).where(eq(organisations.slug, "northwind"));
    // The super admin does something inside Northwind: their entry carries the branded admin name.
    const superAdmin = await loginAs(server, "admin@lantern.test", DEMO_PASSWORD);
    const made = await superAdmin.gql(`mutation ($o: ID) { tagCreate(name: "Northwind review", organisationID: $o) { id } }`, { o: northwind!.id });
    expect(made.errors).toBeUndefined();
    const { page, problems } = await newConsolePage(browser);
    await signInToConsole(page, consoleOrigin, "admin@lantern.test");
    await page.goto(`${consoleOrigin}/admin/manage/organisations/audit-logs/${northwind!.id}`);
    await page.getByRole("heading", { name: "Audit Logs", level: 1 }).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit Logs", exact: true }).waitFor();
    const theirs = entries(page).locator("tbody tr", { hasText: 'Alex M. created the tag "Northwind review"' });
    await theirs.getByText("Lantern Admin").waitFor();
    const text = await entries(page).textContent();
    expect(text).not.toContain(FINANCE);
    expect(text).not.toContain("changed the tags of a report");
    await checkScreen(page, "audit-logs-organisation");
    expect(problems).toEqual([]);
    await page.context().close();

    const member = await newConsolePage(browser);
    await signInToConsole(member.page, consoleOrigin, "member@demo.test");
    expect(await member.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit Logs" }).count()).toBe(0);
    await member.page.goto(`${consoleOrigin}/admin/manage/audit-logs`);
    await member.page.waitForURL(/\/admin\/dashboard$/);
    await member.page.context().close();
  });
});
