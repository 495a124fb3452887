import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { reporterSessions, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD, DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { derivePages, visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { launchBrowser, recordProblems, recordRequests, screenshot } from "../helpers/browser.ts";
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

const widgetBox = (page: Page, id: string) => page.locator(`[data-widget-id="${id}"]`);

/** Answers one widget the way a person would: typing, ticking, choosing. */
async function answer(page: Page, widget: FormWidget, values: string[]) {
  const box = widgetBox(page, widget.id);
  switch (widget.type) {
    case "Radio":
      await box.getByRole("radio", { name: values[0]!, exact: true }).check();
      break;
    case "Checkbox":
      for (const value of values) await box.getByRole("checkbox", { name: value, exact: true }).check();
      break;
    case "Select":
      await box.locator("select").selectOption(values[0]!);
      break;
    case "Date":
      await box.locator('input[type="date"]').fill(values[0]!);
      break;
    default:
      await box.locator("input, textarea").first().fill(values[0]!);
  }
}

async function next(page: Page) {
  await page.getByRole("button", { name: "Next", exact: true }).click();
}


/**
 * Walks the form's pages as a person would: on the page of the All-condition it first picks the
 * answer that hides the guarded question, then the one that shows it; on the first page it tries
 * Next empty and sees 'Required'.
 */
async function fillEveryPage(page: Page, options: { flipCondition: boolean; screenshots: boolean }) {
  const guarded = main.widgets.find((w) => w.condition?.matchType === "All")!;
  const rule = guarded.condition!.rules[0]!;
  const source = main.widgets.find((w) => w.id === rule.conditionWidgetID)!;
  const other = source.answers.find((a) => a !== rule.conditionAnswer)!;
  const choices: Record<string, string[]> = { [source.id]: [rule.conditionAnswer] };
  const all: Record<string, string[]> = {};
  for (const w of main.widgets) if (w.type !== "Section" && w.type !== "Note") all[w.id] = answerFor(w, choices);
  const visible = visibleWidgetIds(main.widgets, all);
  for (const formPage of derivePages(main.widgets)) {
    const questions = formPage.widgets.filter((w) => visible.has(w.id) && w.type !== "Section" && w.type !== "Note");
    if (questions.length === 0) continue;
    await widgetBox(page, questions[0]!.id).waitFor();
    if (options.flipCondition && formPage.widgets.some((w) => w.id === source.id) && formPage.widgets.some((w) => w.id === guarded.id)) {
      await answer(page, source, [other]);
      expect(await widgetBox(page, guarded.id).count()).toBe(0);
      await answer(page, source, [rule.conditionAnswer]);
      await widgetBox(page, guarded.id).waitFor();
      if (options.screenshots) await screenshot(page, "reporter-3-condition-shown");
    }
    if (formPage.index === 0 && options.flipCondition) {
      await next(page);
      await page.getByText("Required").first().waitFor();
      if (options.screenshots) await screenshot(page, "reporter-3-required");
    }
    for (const question of questions) await answer(page, question, all[question.id]!);
    if (options.screenshots) await screenshot(page, `reporter-4-page-${formPage.index}`);
    await next(page);
  }
}

describe("a reporter in Chromium", () => {
  test("makes a report, downloads the credentials, logs back in, sees it and writes to the organisation", async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    const requests = recordRequests(page);
    const problems = recordProblems(page);

    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await screenshot(page, "reporter-1-organisation-page");
    await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
    await page.waitForURL(`**/report/${main.form.id}`);
    await screenshot(page, "reporter-2-welcome");
    await next(page);

    await fillEveryPage(page, { flipCondition: true, screenshots: true });

    await page.getByRole("heading", { name: "Attach files" }).waitFor();
    const file = join(server.dataDir, "evidence.png");
    writeFileSync(file, pngWithText());
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByText("evidence.png").waitFor();
    // The page's CSP forbids eval, so wait on what the user sees: the row marked done, with its Delete button.
    await page.locator(".upload-list__item--done").getByRole("button", { name: /Delete/ }).waitFor();
    await screenshot(page, "reporter-5-attached");
    await next(page);

    await page.getByRole("heading", { name: "Review" }).waitFor();
    await page.getByText("evidence.png").waitFor();
    await screenshot(page, "reporter-6-review");
    await page.getByRole("button", { name: "Submit" }).click();

    await page.getByRole("heading", { name: "Report Submitted" }).waitFor();
    const values = await page.locator(".credentials__value").allTextContents();
    const [reportID, password] = values as [string, string];
    expect(reportID).toMatch(/^\w{5}-\w{5}$/);
    await screenshot(page, "reporter-7-finish");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download details" }).click()]);
    expect(download.suggestedFilename()).toBe(`Report ${reportID} credentials.txt`);
    const saved = readFileSync((await download.path())!, "utf8");
    expect(saved).toContain(reportID);
    expect(saved).toContain(password);

    await page.getByRole("link", { name: "Follow up Report" }).click();
    await page.getByLabel("Report ID").fill(reportID);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/report/dashboard");
    await page.getByText(reportID).first().waitFor();
    await page.getByText(answerFor(main.widgets.find((w) => w.type === "ShortText")!)[0]!).first().waitFor();
    await screenshot(page, "reporter-8-dashboard");
    await page.getByRole("link", { name: /Uploads/ }).click();
    const downloadLink = page.getByRole("link", { name: "Download evidence.png" });
    await downloadLink.waitFor();
    const [upload] = await Promise.all([page.waitForEvent("download"), downloadLink.click()]);
    expect(readFileSync((await upload.path())!).subarray(1, 4).toString()).toBe("PNG");
    await screenshot(page, "reporter-9-uploads");
    await page.getByRole("link", { name: /Messages/ }).click();
    await page.getByPlaceholder("Write a message").fill("I have more documents if you need them.");
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await page.locator(".chat__text", { hasText: "I have more documents if you need them." }).waitFor();
    await screenshot(page, "reporter-10-messages");

    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    const seen = await owner.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(`query ($id: ID) { reportConversationMessages(reportSubmissionID: $id) { messages { message } } }`, { id: row!.id });
    expect(seen.data?.reportConversationMessages.messages.map((m) => m.message)).toContain("I have more documents if you need them.");
    // The organisation takes the report on and answers; the reporter's open page shows it live, without a reload.
    await joinTeam(owner, row!.id);
    await owner.gql(`mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "Thank you, please upload them here." }) { id } }`, { id: row!.id });
    await page.getByText("Thank you, please upload them here.").waitFor({ timeout: 5_000 });
    await screenshot(page, "reporter-11-reply-live");

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
    await screenshot(page, "reporter-wrong-report-password");

    const secured = await demoForm(server, "demo", "Confidential Finance Concern");
    await page.goto(`${origin}/report/${secured.form.id}`);
    await page.getByLabel("Form Password").fill("not-the-password");
    await next(page);
    await page.getByText("Form password is incorrect").waitFor();
    await screenshot(page, "reporter-wrong-form-password");
    await page.getByLabel("Form Password").fill(DEMO_FORM_PASSWORD);
    await next(page);
    await page.locator("[data-widget-id]").first().waitFor();
    await page.close();
  }, 60_000);

  test("an oversize file is refused before it is sent", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/report/${main.form.id}`);
    await next(page);
    await fillEveryPage(page, { flipCondition: false, screenshots: false });
    await page.getByRole("heading", { name: "Attach files" }).waitFor();
    const big = join(server.dataDir, "too-big.pdf");
    writeFileSync(big, new Uint8Array(25_000_001));
    await page.locator('input[type="file"]').setInputFiles(big);
    await page.getByText(/too large|exceeds total allowed attachment size/i).first().waitFor();
    await screenshot(page, "reporter-oversize-file");
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

  test("sends an enquiry and is told how to follow it up", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Ask a Question" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Required").waitFor();
    await page.getByRole("dialog").locator("textarea").fill("Can I report something that happened last year?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Message Sent").waitFor();
    await screenshot(page, "reporter-enquiry-sent");
    const text = await page.getByRole("dialog").textContent();
    expect(text).toMatch(/\w{5}-\w{5}/);
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
