import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DETAILS_KEPT_WARNING } from "../../site/src/islands/report-flow/attach-files-step.tsx";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { blobs, reporterSessions, reportSubmissionAttachments, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD, DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
import { checkScreen, fillEveryPage, focusedText, next, typedAnswers } from "./reporter-walk.ts";
import { answerFor, demoForm } from "../helpers/reporter.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";
import { pngWithText } from "../fixtures/files.ts";

let server: TestServer;
let browser: Browser;
let main: Awaited<ReturnType<typeof demoForm>>;
let origin: string;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  browser = await launchBrowser();
  origin = `http://demo.localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const TITLE_TAIL = " – Workplace Misconduct Report – Demo Organisation";

async function expectTitle(page: Page, expected: string) {
  expect(await page.title()).toBe(expected);
}

/** "Step 3 of 8: <page name> – <form> – <organisation>" */
async function expectStepTitle(page: Page, stepName: string) {
  const title = await page.title();
  expect(title).toMatch(/^Step \d+ of \d+: /);
  expect(title.replace(/^Step \d+ of \d+: /, "")).toBe(`${stepName}${TITLE_TAIL}`);
}

describe("a reporter in Chromium", () => {
  test("makes a report, downloads the credentials, logs back in, sees it and writes to the organisation", async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    const requests = recordRequests(page);
    const problems = recordProblems(page);

    await page.goto(`${origin}/`);
    await page.getByRole("dialog").getByRole("heading", { name: "Welcome" }).waitFor();
    await checkScreen(page, "reporter-0-welcome-note", { quickExit: false });
    await page.getByRole("button", { name: "Close" }).click();
    // Nothing on the page opened the note, so focus lands on the page's heading, not on nothing.
    expect(await focusedText(page, "Demo Organisation")).toBe("Demo Organisation");
    await expectTitle(page, "Report an incident – Demo Organisation");
    await checkScreen(page, "reporter-1-organisation-page");
    await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
    await page.waitForURL(`**/report/${main.form.id}`);
    await page.getByRole("heading", { name: "Welcome" }).waitFor();
    await expectStepTitle(page, "Welcome");
    expect(await page.title()).toStartWith("Step 1 of ");
    await checkScreen(page, "reporter-2-welcome");
    await next(page);

    const titles: string[] = [];
    await fillEveryPage(page, main.widgets, {
      flipCondition: true,
      onConditionShown: () => screenshot(page, "reporter-3-condition-shown"),
      onRequired: () => checkScreen(page, "reporter-3-required"),
      // Next moved focus to the new page's heading, so a screen reader reads where the reporter is.
      onPageShown: async (_index, name) => expect(await focusedText(page, name)).toBe(name),
      onPage: async (index, name) => {
        titles.push(await page.title());
        await expectStepTitle(page, name);
        await checkScreen(page, `reporter-4-page-${index}`);
      },
    });

    await page.getByRole("heading", { name: "Attach files" }).waitFor();
    expect(await focusedText(page, "Attach files")).toBe("Attach files");
    const file = join(server.dataDir, "evidence.png");
    writeFileSync(file, pngWithText());
    await page.locator('input[type="file"]').setInputFiles(file);
    // The row's name, not the Delete button's hidden "evidence.png" that joins it once a fast upload is done.
    await page.locator(".upload-list__name", { hasText: "evidence.png" }).waitFor();
    // The page's CSP forbids eval, so wait on what the user sees: the row marked done, with its Delete button.
    await page.locator(".upload-list__item--done").getByRole("button", { name: /Delete/ }).waitFor();
    // A picture loses its details and says nothing; an old Office file keeps them, and the reporter is told before sending.
    expect(await page.getByText(DETAILS_KEPT_WARNING).count()).toBe(0);
    const oldWord = join(server.dataDir, "statement.doc");
    writeFileSync(oldWord, Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Buffer.from("\0\0Author\0Jane Reporter\0")]));
    await page.locator('input[type="file"]').setInputFiles(oldWord);
    const oldRow = page.locator(".upload-list__item", { hasText: "statement.doc" });
    await oldRow.getByText(DETAILS_KEPT_WARNING).waitFor();
    await oldRow.getByRole("button", { name: /Delete/ }).waitFor();
    await checkScreen(page, "reporter-5-old-office-file");
    await oldRow.getByRole("button", { name: /Delete/ }).click();
    await expect(oldRow.count()).resolves.toBe(0);
    await expectStepTitle(page, "Attach files");
    await checkScreen(page, "reporter-5-attached");
    await next(page);

    await page.getByRole("heading", { name: "Review" }).waitFor();
    await page.getByText("evidence.png").waitFor();
    expect(await focusedText(page, "Review")).toBe("Review");
    await expectStepTitle(page, "Review");
    await checkScreen(page, "reporter-6-review");
    await page.getByRole("button", { name: "Submit" }).click();

    await page.getByRole("heading", { name: "Report Submitted" }).waitFor();
    expect(await focusedText(page, "Report Submitted")).toBe("Report Submitted");
    const values = await page.locator(".credentials__value").allTextContents();
    const [reportID, password] = values as [string, string];
    expect(reportID).toMatch(/^\w{5}-\w{5}$/);
    titles.push(await page.title());
    await checkScreen(page, "reporter-7-finish");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download details" }).click()]);
    expect(download.suggestedFilename()).toBe(`Report ${reportID} credentials.txt`);
    const saved = readFileSync((await download.path())!, "utf8");
    expect(saved).toContain(reportID);
    expect(saved).toContain(password);

    await page.getByRole("link", { name: "Follow up Report" }).click();
    await page.getByLabel("Report ID").waitFor();
    await expectTitle(page, "Log in – Follow up Report");
    await checkScreen(page, "reporter-8-login");
    await page.getByLabel("Report ID").fill(reportID);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/report/dashboard");
    await page.getByText(reportID).first().waitFor();
    await page.getByText(answerFor(main.widgets.find((w) => w.type === "ShortText")!)[0]!).first().waitFor();
    // Where the report stands, in the reporter's words, and nothing internal.
    await page.getByText("Received", { exact: true }).waitFor();
    await expectTitle(page, "Reports – Follow up Report – Demo Organisation");
    titles.push(await page.title());
    await checkScreen(page, "reporter-9-dashboard");
    await page.getByRole("tab", { name: /Uploads/ }).click();
    const downloadLink = page.getByRole("link", { name: "Download evidence.png" });
    await downloadLink.waitFor();
    const [upload] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
    expect(readFileSync((await upload.path())!).subarray(1, 4).toString()).toBe("PNG");
    await expectTitle(page, "Uploads – Follow up Report – Demo Organisation");
    await checkScreen(page, "reporter-10-uploads");
    // The tabs follow the ARIA tabs pattern: arrow keys move between them and open them.
    await page.getByRole("tab", { name: /Uploads/ }).focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL("**/report/messages");
    expect(await page.getByRole("tab", { name: /Messages/ }).getAttribute("aria-selected")).toBe("true");
    expect(await focusedText(page)).toMatch(/^Messages/);
    await page.getByPlaceholder("Write a message").fill("I have more documents if you need them.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.locator(".chat__text", { hasText: "I have more documents if you need them." }).waitFor();
    await checkScreen(page, "reporter-11-messages");
    await page.getByRole("tab", { name: /Messages/ }).focus();
    await page.keyboard.press("End");
    await page.waitForURL("**/report/settings");
    await page.getByRole("heading", { name: "Change Password" }).waitFor();
    await checkScreen(page, "reporter-12-settings");
    await page.getByRole("tab", { name: /Messages/ }).click();
    await page.getByPlaceholder("Write a message").waitFor();
    // No title carries the report ID or anything the reporter wrote.
    for (const title of titles) {
      expect(title).not.toContain(reportID);
      for (const typed of typedAnswers(main.widgets)) expect(title).not.toContain(typed);
    }

    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    const seen = await owner.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(`query ($id: ID) { reportConversationMessages(reportSubmissionID: $id) { messages { message } } }`, { id: row!.id });
    expect(seen.data?.reportConversationMessages.messages.map((m) => m.message)).toContain("I have more documents if you need them.");
    // The organisation takes the report on and answers; the reporter's open page shows it live, without a reload.
    await joinTeam(owner, row!.id);
    await owner.gql(`mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "Thank you, please upload them here." }) { id } }`, { id: row!.id });
    await page.getByText("Thank you, please upload them here.").waitFor({ timeout: 5_000 });
    await screenshot(page, "reporter-13-reply-live");

    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  test("a wrong report password and a wrong form password are told apart from success", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/report/login`);
    await page.getByLabel("Report ID").fill("AAAAA-BBBBB");
    await page.getByLabel("Password").fill("CCCCC-DDDDD-EEEEE-FFFFF");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Report ID or password is incorrect.").waitFor();
    await checkScreen(page, "reporter-wrong-report-password");

    const secured = await demoForm(server, "demo", "Confidential Finance Concern");
    await page.goto(`${origin}/report/${secured.form.id}`);
    await page.getByLabel("Form Password").fill("not-the-password");
    await next(page);
    await page.getByText("Form password is incorrect").waitFor();
    await checkScreen(page, "reporter-wrong-form-password");
    await page.getByLabel("Form Password").fill(DEMO_FORM_PASSWORD);
    await next(page);
    await page.locator("[data-widget-id]").first().waitFor();
    await page.close();
  }, 60_000);

  test("an oversize file is refused before it is sent", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/report/${main.form.id}`);
    await next(page);
    await fillEveryPage(page, main.widgets, { flipCondition: false });
    await page.getByRole("heading", { name: "Attach files" }).waitFor();
    const big = join(server.dataDir, "too-big.pdf");
    writeFileSync(big, new Uint8Array(25_000_001));
    await page.locator('input[type="file"]').setInputFiles(big);
    await page.getByText(/too large|exceeds total allowed attachment size/i).first().waitFor();
    await checkScreen(page, "reporter-oversize-file");
    await page.close();
  }, 60_000);

  test("with many files waiting in unfinished reports, an upload pays its proof of work and is attached (decision 060)", async () => {
    const [waiting] = await server.db.insert(reportSubmissions).values({ organisationId: main.form.organisationId, formId: main.form.id, buildId: main.form.deployedBuildId, status: "Draft" }).returning();
    const size = 1_500_000_000;
    const [blob] = await server.db.insert(blobs).values({ organisationId: main.form.organisationId, purpose: "Attachment", storageKey: "attachment/waiting", fileName: "waiting.bin", mimeType: "application/octet-stream", sizeBytes: size, sha256: "0" }).returning();
    await server.db.insert(reportSubmissionAttachments).values({ submissionId: waiting!.id, blobId: blob!.id, fileName: "waiting.bin", fileSizeBytes: size, mimeType: "application/octet-stream" });
    const page = await browser.newPage();
    const uploads: number[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith("/api/files/report-attachments")) uploads.push(response.status());
    });
    await page.goto(`${origin}/report/${main.form.id}`);
    await next(page);
    await fillEveryPage(page, main.widgets, { flipCondition: false });
    await page.getByRole("heading", { name: "Attach files" }).waitFor();
    const file = join(server.dataDir, "paid.png");
    writeFileSync(file, pngWithText());
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.locator(".upload-list__item--done").getByRole("button", { name: /Delete/ }).waitFor();
    // Asked (428), solved, sent again.
    expect(uploads).toEqual([428, 200]);
    await page.close();
    await server.db.delete(reportSubmissions).where(eq(reportSubmissions.id, waiting!.id));
  }, 60_000);

  test("an unknown organisation's page says so, and passes the same checks", async () => {
    const page = await browser.newPage();
    await page.goto(`http://no-such-organisation.localhost:${server.port}/`);
    await page.getByText("Organisation was not found or is currently suspended.").waitFor();
    await checkScreen(page, "reporter-unknown-organisation");
    await page.close();
  }, 60_000);

  test("quick exit ends the session and leaves for a web search; Escape does the same", async () => {
    for (const how of ["button", "escape"] as const) {
      const page = await browser.newPage();
      await page.route("https://duckduckgo.com/**", (route) => route.fulfill({ status: 200, body: "search" }));
      await page.goto(`${origin}/report/${main.form.id}`);
      await next(page);
      await page.locator("[data-widget-id]").first().waitFor();
      const sessionsBefore = (await server.db.select().from(reporterSessions)).length;
      if (how === "button") await page.getByRole("button", { name: "Quick Exit" }).first().click();
      else await page.keyboard.press("Escape");
      await page.waitForURL("https://duckduckgo.com/**");
      await Bun.sleep(200);
      expect((await server.db.select().from(reporterSessions)).length).toBe(sessionsBefore - 1);
      await page.close();
    }
  }, 60_000);

  test("sends an enquiry and is told how to follow it up; closing gives focus back to the button that opened it", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Ask a Question" }).click();
    await page.getByRole("dialog").locator("textarea").waitFor();
    await checkScreen(page, "reporter-enquiry-open", { quickExit: false });
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Required").waitFor();
    await page.getByRole("dialog").locator("textarea").fill("Can I report something that happened last year?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Message Sent").waitFor();
    expect(await focusedText(page, "Message Sent")).toBe("Message Sent");
    await checkScreen(page, "reporter-enquiry-sent", { quickExit: false });
    const text = await page.getByRole("dialog").textContent();
    expect(text).toMatch(/\w{5}-\w{5}/);
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(await focusedText(page, "Ask a Question")).toBe("Ask a Question");
    await page.close();
  }, 60_000);

  test("Escape closes the welcome note, the enquiry dialog or a tip first, and leaves only when nothing is open", async () => {
    const page = await browser.newPage();
    let left = false;
    await page.route("https://duckduckgo.com/**", (route) => {
      left = true;
      return route.fulfill({ status: 200, body: "search" });
    });
    await page.goto(`${origin}/`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Welcome" }).waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focusedText(page, "Demo Organisation")).toBe("Demo Organisation");

    await page.getByRole("button", { name: "Ask a Question" }).click();
    await dialog.locator("textarea").fill("Half a question");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await focusedText(page, "Ask a Question")).toBe("Ask a Question");
    expect(left).toBe(false);

    await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
    await next(page);
    const tip = page.getByRole("button", { name: /^More information:/ }).first();
    await tip.click();
    const bubble = page.locator(".toggletip__bubble");
    await bubble.waitFor();
    await page.keyboard.press("Escape");
    await bubble.waitFor({ state: "detached" });
    expect(await tip.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(left).toBe(false);

    // Nothing is open any more: now Escape is Quick Exit.
    await page.keyboard.press("Escape");
    await page.waitForURL("https://duckduckgo.com/**");
    expect(left).toBe(true);
    await page.close();
  }, 60_000);

  test("Back and a completed step in the step bar move focus to that step's heading", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/report/${main.form.id}`);
    const heading = page.locator("#report-step-title");
    const welcome = (await heading.textContent())!;
    await next(page);
    await page.locator("[data-widget-id]").first().waitFor();
    const firstPage = (await heading.textContent())!;
    expect(await focusedText(page, firstPage)).toBe(firstPage);
    await page.getByRole("button", { name: "Back" }).click();
    await heading.filter({ hasText: welcome }).waitFor();
    expect(await focusedText(page, welcome)).toBe(welcome);
    await next(page);
    await heading.filter({ hasText: firstPage }).waitFor();
    await page.getByRole("navigation", { name: "Report steps" }).getByRole("button", { name: "Welcome" }).click();
    await heading.filter({ hasText: welcome }).waitFor();
    expect(await focusedText(page, welcome)).toBe(welcome);
    await page.close();
  }, 60_000);
});

describe("without scripts", () => {
  test("the organisation page shows its forms and the follow-up login", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole("heading", { name: "Demo Organisation" }).waitFor();
    expect(await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).getAttribute("href")).toBe(`/report/${main.form.id}`);
    await page.getByRole("link", { name: "Login to follow up" }).waitFor();
    await screenshot(page, "reporter-organisation-page-without-scripts");
    await context.close();
  });
});
