import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { organisations, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { checkConsoleScreen, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { demoForm, ReporterClient, submitReport } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";
import { startTranslationServer, type TestTranslationServer } from "../helpers/translation-server.ts";

// Issue 14, item 5: the demo owner opens a report, translates the reporter's answers and a chat
// message through the organisation's own translation server, and reads each translation beside its
// original. Checked with axe at laptop and phone widths; not offered once translations are off.

const REPORTER_MESSAGE = "Mein Vorgesetzter hat mich bedroht.";
let provider: TestTranslationServer;
let server: TestServer;
let browser: Browser;
let consoleOrigin: string;
let demoId: string;
let reportPath: (tab: string) => string;
let firstFreeText: string;

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  demoId = main.form.organisationId;
  await server.db.update(organisations).set({ enableFormTranslations: true, formLanguage: "en" }).where(eq(organisations.id, demoId));
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const sent = await reporter.gql(`mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`, { text: REPORTER_MESSAGE });
  expect(sent.errors).toBeUndefined();
  const [report] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  await joinTeam(await loginAs(server, "owner@demo.test", DEMO_PASSWORD), report!.id);
  reportPath = (tab) => `${consoleOrigin}/admin/manage/reports/${tab}/${main.form.id}/${report!.id}`;
  firstFreeText = `Answer to ${main.widgets.find((widget) => widget.type === "ShortText" || widget.type === "LongText")!.title}`;
  browser = await launchBrowser();
  consoleOrigin = `http://localhost:${server.port}`;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

/** The answers' Translate section, once it is offered. */
async function answersTranslation(page: Page) {
  const section = page.getByRole("region", { name: "Translate the reporter's answers" });
  await section.getByLabel("Translate into").waitFor();
  return section;
}

test("the owner translates the reporter's answers and a chat message, each beside its original", async () => {
  const { page, problems } = await newConsolePage(browser);
  await signInToConsole(page, consoleOrigin, "owner@demo.test");
  await page.goto(reportPath("overview"));
  const section = await answersTranslation(page);
  // The organisation's form language is offered first.
  await expect(section.getByLabel("Translate into").inputValue()).resolves.toBe("en");
  await section.getByLabel("Translate into").selectOption("de");
  await section.getByRole("button", { name: "Translate" }).click();
  const result = section.getByRole("status");
  const translated = result.getByText(`[de] ${firstFreeText}`, { exact: true });
  await translated.waitFor();
  await expect(translated.getAttribute("lang")).resolves.toBe("de");
  await result.getByText(firstFreeText, { exact: true }).waitFor();
  await checkConsoleScreen(page, "staff-translate", "answers");

  await page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: /Messages/ }).click();
  await page.getByLabel("Translate into").selectOption("fr");
  const message = page.locator(".chat__message").filter({ hasText: REPORTER_MESSAGE });
  await message.getByRole("button", { name: "Translate" }).click();
  const translatedMessage = message.getByRole("status").getByText(`[fr] ${REPORTER_MESSAGE}`, { exact: true });
  await translatedMessage.waitFor();
  await expect(translatedMessage.getAttribute("lang")).resolves.toBe("fr");
  await message.getByText(REPORTER_MESSAGE, { exact: true }).waitFor();
  await checkConsoleScreen(page, "staff-translate", "message");
  expect(provider.texts()).toContain(REPORTER_MESSAGE);
  expect(problems).toEqual([]);
  await page.context().close();

  const phone = await newConsolePage(browser, 390);
  await signInToConsole(phone.page, consoleOrigin, "owner@demo.test");
  await phone.page.goto(reportPath("overview"));
  const narrow = await answersTranslation(phone.page);
  await narrow.getByRole("button", { name: "Translate" }).click();
  await narrow.getByRole("status").getByText(`[en] ${firstFreeText}`, { exact: true }).waitFor();
  await checkConsoleScreen(phone.page, "staff-translate", "answers");
  expect(phone.problems).toEqual([]);
  await phone.page.context().close();
}, 90_000);

test("a provider that is down shows the server's notice, and the action is gone once translations are off", async () => {
  const { page, problems } = await newConsolePage(browser);
  await signInToConsole(page, consoleOrigin, "owner@demo.test");
  await page.goto(reportPath("overview"));
  const section = await answersTranslation(page);
  provider.setMode("down");
  await section.getByRole("button", { name: "Translate" }).click();
  await section.getByRole("alert").getByText("The translation server did not answer. The original is shown; please try again later.").waitFor();
  provider.setMode("up");

  await server.db.update(organisations).set({ enableFormTranslations: false }).where(eq(organisations.id, demoId));
  await page.reload();
  await page.getByText("Submitted Answers").waitFor();
  await page.getByText(firstFreeText, { exact: true }).first().waitFor();
  // The availability check has been answered once nothing is in flight.
  await page.waitForLoadState("networkidle");
  await expect(page.getByLabel("Translate into").count()).resolves.toBe(0);
  await page.goto(reportPath("messages"));
  await page.getByText(REPORTER_MESSAGE, { exact: true }).waitFor();
  await page.waitForLoadState("networkidle");
  await expect(page.getByRole("button", { name: "Translate" }).count()).resolves.toBe(0);
  expect(problems).toEqual([]);
  await page.context().close();
}, 60_000);
