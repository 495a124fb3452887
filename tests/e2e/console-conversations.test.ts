import { beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { organisations, reportForms, reportSubmissions } from "../../db/schema/index.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { confirmSend, demoInBrowser, expectAxeClean } from "../helpers/console-browser.ts";
import { ReporterClient } from "../helpers/reporter.ts";
import { loginAs, type StaffClient } from "../helpers/session.ts";
import { pngWithText } from "../fixtures/files.ts";

// The Conversations page and image replies from the console: the demo owner finds a chat, searches,
// sorts, sets a priority, opens it, takes the report on and sends the reporter an image.

const suite = demoInBrowser();
let owner: StaffClient;

beforeAll(async () => {
  owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
});

const LIST = `query ($search: String, $priority: Priority, $sortBy: ConversationSortKey, $sortDir: SortDirection) {
  reportConversations(search: $search, priority: $priority, sortBy: $sortBy, sortDir: $sortDir) { total list { submission { reportID priority } } } }`;
type ListAnswer = { reportConversations: { total: number; list: { submission: { reportID: string; priority: string } }[] } };

/** What the server answers the owner for the same question the page asks. */
async function serverList(variables: Record<string, unknown> = {}) {
  const result = await owner.gql<ListAnswer>(LIST, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.reportConversations;
}

const reportIDs = (page: Page) => page.locator(".conversation-table__id a").allTextContents();
const rowOf = (page: Page, reportID: string) => page.locator(".conversation-table tbody tr").filter({ has: page.getByRole("link", { name: reportID, exact: true }) });

/** The table once its first row is the expected report (the list is fetched again after each change). */
async function firstRowIs(page: Page, reportID: string) {
  await page.locator(".conversation-table tbody tr").first().getByRole("link", { name: reportID, exact: true }).waitFor();
}

async function rowCountIs(page: Page, count: number) {
  await page.locator(`.conversation-table tbody tr:nth-child(${count})`).waitFor();
  await page.locator(`.conversation-table tbody tr:nth-child(${count + 1})`).waitFor({ state: "detached" });
}

const renderedHeight = async (image: Locator) => (await image.boundingBox())?.height;

describe("the Conversations page in Chromium", () => {
  test("the owner lists, searches and sorts the demo chats, sets a priority, and sends an image the reporter receives", async () => {
    const { server, browser, consoleOrigin, reporterOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [fresh] = await server.db
      .select({ id: reportSubmissions.id, reportId: reportSubmissions.reportId })
      .from(reportSubmissions)
      .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
      .where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.status, "New"), eq(reportForms.type, "Custom")));
    const reportID = fresh!.reportId!;

    // Wide enough for the sidebar to stay open (spec: from 1367 px).
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const requests = recordRequests(page);
    const problems = recordProblems(page);
    await page.goto(`${consoleOrigin}/admin`);
    await page.getByLabel("Email Address").fill("owner@demo.test");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Reports Received").waitFor();

    // The sidebar's Conversations item carries the unread reporters' messages.
    const stats = await owner.gql<{ organisationUserStats: { unreadMessages: number } }>(`{ organisationUserStats { unreadMessages } }`);
    const unread = stats.data!.organisationUserStats.unreadMessages;
    expect(unread).toBeGreaterThan(0);
    const menuItem = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Conversations/ });
    await menuItem.getByText(`${unread} unread`).waitFor();
    await menuItem.click();
    await page.waitForURL("**/admin/manage/report-conversations");
    await page.getByRole("heading", { name: "Conversations" }).waitFor();

    // Every demo chat, newest last message first (the spec's default).
    const all = await serverList();
    expect(all.total).toBeGreaterThan(2);
    await firstRowIs(page, all.list[0]!.submission.reportID);
    await rowCountIs(page, all.list.length);
    expect(await reportIDs(page)).toEqual(all.list.map((item) => item.submission.reportID));
    expect(await page.getByLabel("Sort by").inputValue()).toBe("DateLastMessage");
    expect(await page.getByLabel("Direction").inputValue()).toBe("Descending");
    await page.getByText(`Showing 1–${all.total} of ${all.total}`).waitFor();
    await screenshot(page, "conversations-1-list");
    await expectAxeClean(page, "conversations");

    // Search by part of a report ID: after typing settles the list holds only what matches.
    const fragment = reportID.slice(0, 5);
    await page.getByLabel("Search").fill(fragment.toLowerCase());
    await page.waitForURL(`**/report-conversations?search=${fragment.toLowerCase()}`);
    const found = await serverList({ search: fragment });
    await rowCountIs(page, found.list.length);
    expect(await reportIDs(page)).toEqual(found.list.map((item) => item.submission.reportID));
    expect(await reportIDs(page)).toContain(reportID);
    await screenshot(page, "conversations-2-search");
    await page.getByLabel("Search").fill("ZZZZZZZZ");
    await page.getByText("No conversations found").waitFor();
    await screenshot(page, "conversations-3-empty");
    await expectAxeClean(page, "conversations with no match");
    await page.getByLabel("Search").fill("");
    await page.waitForURL("**/admin/manage/report-conversations");
    await rowCountIs(page, all.list.length);

    // Sort by priority, High first; then the other way round.
    await page.getByLabel("Sort by").selectOption("Priority");
    const byPriority = await serverList({ sortBy: "Priority" });
    await page.waitForURL("**/report-conversations?sortBy=Priority");
    await firstRowIs(page, byPriority.list[0]!.submission.reportID);
    expect(await reportIDs(page)).toEqual(byPriority.list.map((item) => item.submission.reportID));
    expect(await rowOf(page, byPriority.list[0]!.submission.reportID).getByRole("combobox").inputValue()).toBe("High");
    await page.getByLabel("Direction").selectOption("Ascending");
    const lowFirst = await serverList({ sortBy: "Priority", sortDir: "Ascending" });
    await firstRowIs(page, lowFirst.list[0]!.submission.reportID);
    expect(lowFirst.list[0]!.submission.priority).toBe("Low");
    await screenshot(page, "conversations-4-sorted");

    // The priority filter keeps only that priority's chats.
    await page.getByLabel("Priority", { exact: true }).selectOption("High");
    await page.waitForURL("**/report-conversations?priority=High&sortBy=Priority&sortDir=Ascending");
    const high = await serverList({ priority: "High", sortBy: "Priority", sortDir: "Ascending" });
    expect(high.total).toBeLessThan(all.total);
    await rowCountIs(page, high.list.length);
    expect(await reportIDs(page)).toEqual(high.list.map((item) => item.submission.reportID));
    await page.getByLabel("Priority", { exact: true }).selectOption("");
    await rowCountIs(page, all.list.length);

    // The urgency selector changes the report's own priority.
    await page.getByLabel(`Priority of report ${reportID}`).selectOption("Medium");
    await page.getByText("Priority has been set to Medium").waitFor();
    const [saved] = await server.db.select({ priority: reportSubmissions.priority }).from(reportSubmissions).where(eq(reportSubmissions.id, fresh!.id));
    expect(saved!.priority).toBe("Medium");

    // Into the report's Messages tab; nobody is on its team yet, so the owner joins it first.
    await rowOf(page, reportID).getByRole("link", { name: /View Messages/ }).click();
    await page.waitForURL(`**/admin/manage/reports/messages/**/${fresh!.id}`);
    await page.getByRole("button", { name: "Join Team" }).click();
    await page.getByRole("heading", { name: "Messages" }).waitFor();

    // A file that is no image by its name is refused before it is sent.
    const notes = join(server.dataDir, "notes.txt");
    writeFileSync(notes, "not an image");
    await page.locator("#chat-image").setInputFiles(notes);
    await page.getByText("Invalid file").waitFor();

    // One that only claims to be a picture fails on the server: 'Upload Failed'.
    const fake = join(server.dataDir, "fake.png");
    writeFileSync(fake, "this is text dressed up as a picture");
    await page.locator("#chat-image").setInputFiles(fake);
    await page.getByRole("img", { name: "Preview of the image to send" }).waitFor();
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await confirmSend(page);
    await page.getByText("Upload Failed").waitFor();
    await screenshot(page, "conversations-5-upload-failed");
    await expectAxeClean(page, "report messages, upload failed");

    // A real picture: chosen, previewed 200 px high, sent with a caption, shown in the thread.
    const picture = join(server.dataDir, "site-photo.png");
    writeFileSync(picture, pngWithText());
    await page.locator("#chat-image").setInputFiles(picture);
    const preview = page.getByRole("img", { name: "Preview of the image to send" });
    await preview.waitFor();
    expect(await renderedHeight(preview)).toBe(200);
    await page.getByText("site-photo.png").waitFor();
    await page.getByPlaceholder("Add a caption (optional)").fill("The photo of the blocked exit you mentioned");
    await screenshot(page, "conversations-6-preview");
    await expectAxeClean(page, "report messages, image preview");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await confirmSend(page);
    const sent = page.locator(".chat__message--mine").filter({ hasText: "The photo of the blocked exit you mentioned" }).getByRole("img", { name: "Image sent in the conversation" });
    await sent.waitFor();
    await preview.waitFor({ state: "detached" });
    expect(await page.getByText("Upload Failed").count()).toBe(0);
    expect(await renderedHeight(sent)).toBe(200);
    expect(await sent.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await screenshot(page, "conversations-7-sent");

    // It is still there after a reload: it was stored, not only drawn.
    await page.reload();
    await page.locator(".chat__message--mine").getByRole("img", { name: "Image sent in the conversation" }).waitFor();

    // The reporter, on the organisation's host, finds the picture in their Messages.
    const reporterContext = await browser.newContext();
    const reporter = await reporterContext.newPage();
    const reporterProblems = recordProblems(reporter);
    await reporter.goto(`${reporterOrigin}/report/login`);
    await reporter.getByLabel("Report ID").fill(reportID);
    await reporter.getByLabel("Password").fill(DEMO_REPORT_PASSWORD);
    await reporter.getByRole("button", { name: "Login" }).click();
    await reporter.waitForURL("**/report/dashboard");
    await reporter.getByRole("tab", { name: /Messages/ }).click();
    const received = reporter.locator(".chat__message").filter({ hasText: "The photo of the blocked exit you mentioned" }).getByRole("img", { name: "Image sent in the conversation" });
    await received.waitFor();
    expect(await received.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await screenshot(reporter, "conversations-8-reporter-receives");
    await reporterContext.close();

    // Back on the list: the chat's last message reads 'Image', from the owner.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Conversations/ }).click();
    const row = rowOf(page, reportID);
    await row.locator(".conversation-table__preview").filter({ hasText: /^Image$/ }).waitFor();
    await row.getByText("Olivia B.").waitFor();

    // A reporter's message arrives while the page is open: the row changes without a reload.
    const api = new ReporterClient(server, "demo.localhost");
    await api.post("/api/auth/report_login", { reportID, password: DEMO_REPORT_PASSWORD });
    const reply = await api.gql(`mutation { reportConversationSendMessage(input: { type: Text, message: "Thanks, that is the door.\\nIt is still blocked." }) { id } }`);
    expect(reply.errors).toBeUndefined();
    const live = row.locator(".conversation-table__preview").filter({ hasText: "Thanks, that is the door. It is still blocked." });
    await live.waitFor();
    await row.getByText("Reporter", { exact: true }).waitFor();
    expect(await row.locator(".conversation-table__unread").textContent()).toBe("1 unread");
    // One line, however long or multi-line the message.
    const lineHeight = Number.parseFloat(await live.evaluate((element: HTMLElement) => getComputedStyle(element).lineHeight));
    expect(await renderedHeight(live)).toBeLessThanOrEqual(lineHeight + 1);
    await screenshot(page, "conversations-9-live");
    await expectAxeClean(page, "conversations, live row");

    // The previews are local blob: addresses of this origin; nothing else leaves it.
    expect(requests.filter((url) => !url.startsWith(consoleOrigin) && !url.startsWith(`blob:${consoleOrigin}/`))).toEqual([]);
    expect(problems).toEqual([]);
    expect(reporterProblems).toEqual([]);
    await context.close();
  }, 120_000);
});
