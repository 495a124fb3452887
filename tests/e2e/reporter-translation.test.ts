import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { derivePages, visibleWidgetIds, type FormWidget } from "../../api/shared/form-definition.ts";
import { organisations, reportForms, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { seriousAxeViolations } from "../helpers/axe.ts";
import { launchBrowser, recordRequests, screenshot } from "../helpers/browser.ts";
import { credentialTraces } from "../helpers/credential-traces.ts";
import { openedAnswers } from "../helpers/opened-answers.ts";
import { answerFor, demoForm } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startTranslationServer, type TestTranslationServer } from "../helpers/translation-server.ts";
import { widgetBox } from "./reporter-walk.ts";

// A reporter reads the demo form in German (docs/decisions/044-reporter-language-menu.md): the test
// provider marks every translation '[de] …', so what is translated and what is not shows on the page.

let translations: TestTranslationServer;
let server: TestServer;
let browser: Browser;
let main: Awaited<ReturnType<typeof demoForm>>;
let origin: string;

beforeAll(async () => {
  translations = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: translations.url } });
  await seedDemo(server.db);
  await server.db.update(organisations).set({ enableFormTranslations: true }).where(eq(organisations.slug, "demo"));
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  browser = await launchBrowser();
  origin = `http://demo.localhost:${server.port}`;
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await translations?.stop();
});

const UNAVAILABLE = "Translation is unavailable right now; showing the original text.";
const QUESTION_TYPES = new Set(["Section", "Note"]);
const german = (text: string) => `[de] ${text}`;
const FORM_NAME = "Workplace Misconduct Report";
const BEING_HANDLED = "A case officer is handling your report.";

/** Answers one widget as a reporter reading German would: by the translated option labels they see. */
async function answerInGerman(page: Page, widget: FormWidget, values: string[]) {
  const box = widgetBox(page, widget.id);
  if (widget.type === "Radio") await box.getByRole("radio", { name: german(values[0]!), exact: true }).check();
  else if (widget.type === "Checkbox") for (const value of values) await box.getByRole("checkbox", { name: german(value), exact: true }).check();
  // The option's value is the organisation's text; the reporter picks it by its German label.
  else if (widget.type === "Select") await box.locator("select").selectOption({ label: german(values[0]!) });
  else if (widget.type === "Date") await box.locator('input[type="date"]').fill(values[0]!);
  else await box.locator("input, textarea").first().fill(values[0]!);
}

async function openOrganisationPage(page: Page) {
  await page.goto(`${origin}/`);
  // The demo organisation greets with a note; it is the organisation's text, so it is translated too.
  const note = page.getByRole("dialog");
  await note.waitFor();
  await note.getByRole("button", { name: "Close" }).click();
}

/**
 * The report login on the organisation's host, then the follow-up area: the language chosen on the form
 * is still chosen, and the organisation's texts there (the form's name, its message for where the report
 * stands) read in it; the reporter's own answers and the product's words do not change.
 */
async function followUpInGerman(page: Page, report: { reportID: string; password: string; typed: string }) {
  await page.goto(`${origin}/report/login`);
  const loginMenu = page.getByLabel("Language");
  await loginMenu.waitFor();
  expect(await loginMenu.inputValue()).toBe("de");
  expect(await seriousAxeViolations(page)).toEqual([]);
  await screenshot(page, "reporter-translation-3-login-1440");
  await page.getByLabel("Report ID").fill(report.reportID);
  await page.getByLabel("Password").fill(report.password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/report/dashboard");

  const formName = page.getByRole("heading", { name: german(FORM_NAME), exact: true });
  await formName.waitFor();
  expect(await formName.getAttribute("lang")).toBe("de");
  expect(await page.getByLabel("Language").inputValue()).toBe("de");
  const standing = page.locator(".report-standing__message", { hasText: german(BEING_HANDLED) });
  await standing.waitFor();
  expect(await standing.getAttribute("lang")).toBe("de");
  await page.getByText(report.typed, { exact: true }).first().waitFor();
  expect(await page.getByText(german(report.typed)).count()).toBe(0);
  await page.getByRole("tab", { name: /^Reports/ }).waitFor();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await screenshot(page, "reporter-translation-4-follow-up-1440");

  // Every tab carries the menu, with the choice.
  await page.getByRole("tab", { name: /^Uploads/ }).click();
  await page.waitForURL("**/report/uploads");
  expect(await page.getByLabel("Language").inputValue()).toBe("de");
  await page.getByRole("tab", { name: /^Settings/ }).click();
  await page.waitForURL("**/report/settings");
  expect(await page.getByLabel("Language").inputValue()).toBe("de");

  // Back to the organisation's own language: the originals, unmarked.
  await page.getByRole("tab", { name: /^Reports/ }).click();
  await page.getByLabel("Language").selectOption("en");
  const original = page.getByRole("heading", { name: FORM_NAME, exact: true });
  await original.waitFor();
  expect(await original.getAttribute("lang")).toBeNull();
  await page.locator(".report-standing__message", { hasText: BEING_HANDLED }).waitFor();
}

describe("a reporter reading the form in their language", () => {
  test("picks German on the organisation page, answers in German, and the report stores the original option texts", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const requests = recordRequests(page);
    await openOrganisationPage(page);
    const menu = page.getByLabel("Language");
    // The organisation's language first, each language named in itself.
    expect((await menu.locator("option").allTextContents())[0]).toBe("English");
    await menu.selectOption("de");
    // The list of forms reads in German too, each name marked with its language.
    const formRow = page.getByRole("row", { name: /Workplace Misconduct Report/ });
    await formRow.getByRole("cell", { name: german(FORM_NAME), exact: true }).waitFor();
    expect(await formRow.locator('td[lang="de"]').count()).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshot(page, "reporter-translation-0-organisation-1440");

    await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
    await page.waitForURL(`**/report/${main.form.id}`);
    // The choice came along; the form's own texts arrive in German, the product's words stay.
    await page.locator(".report-flow__form-name", { hasText: german("Workplace Misconduct Report") }).waitFor();
    expect(await page.getByLabel("Language").inputValue()).toBe("de");
    await page.getByRole("button", { name: "Next", exact: true }).click();

    const source = main.widgets.find((w) => w.condition?.matchType === "All")!.condition!.rules[0]!;
    const choices = { [source.conditionWidgetID]: [source.conditionAnswer] };
    const all: Record<string, string[]> = {};
    for (const w of main.widgets) if (!QUESTION_TYPES.has(w.type)) all[w.id] = answerFor(w, choices);
    const visible = visibleWidgetIds(main.widgets, all);
    let first = true;
    for (const formPage of derivePages(main.widgets)) {
      const questions = formPage.widgets.filter((w) => visible.has(w.id) && !QUESTION_TYPES.has(w.type));
      if (questions.length === 0) continue;
      const firstQuestion = widgetBox(page, questions[0]!.id);
      await firstQuestion.getByText(german(questions[0]!.title)).first().waitFor();
      expect(await firstQuestion.locator("[lang=de]").count()).toBeGreaterThan(0);
      if (first) {
        expect(await seriousAxeViolations(page)).toEqual([]);
        await screenshot(page, "reporter-translation-1-page-1440");
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, "reporter-translation-1-page-390");
        await page.setViewportSize({ width: 1440, height: 900 });
        first = false;
      }
      for (const question of questions) await answerInGerman(page, question, all[question.id]!);
      await page.getByRole("button", { name: "Next", exact: true }).click();
    }
    if (main.form.allowFileUploads) {
      await page.getByRole("heading", { name: "Attach files" }).waitFor();
      await page.getByRole("button", { name: "Next", exact: true }).click();
    }
    await page.getByRole("heading", { name: "Review" }).waitFor();
    // The review shows what the reporter picked, in the language they picked it in.
    const radio = main.widgets.find((w) => w.type === "Radio" && visible.has(w.id))!;
    await page.getByRole("definition").filter({ hasText: german(all[radio.id]![0]!) }).first().waitFor();
    await page.getByRole("button", { name: "Submit", exact: true }).click();
    await page.getByText("Your report details").waitFor();
    expect(await page.getByLabel("Language").inputValue()).toBe("de");
    await screenshot(page, "reporter-translation-2-finish-1440");

    const reportID = (await page.locator(".credentials__value").first().textContent())!.trim();
    const [submission] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    // Stored sealed, and as picked once opened: the option's own value, not its German label.
    expect((await openedAnswers(server, submission!.id))[radio.id]).toEqual(all[radio.id]!);

    // A reload of the finish page keeps the language, not the credentials: they were shown once
    // (decision 066), and the reload goes to the form's start.
    const password = (await page.locator(".credentials__value").nth(1).textContent())!.trim();
    await page.reload();
    await page.waitForURL(`**/report/${main.form.id}`);
    await page.getByRole("button", { name: "Next", exact: true }).waitFor();
    expect(await page.getByLabel("Language").inputValue()).toBe("de");
    expect(await credentialTraces(page, [reportID, password])).toEqual([]);

    // Someone takes the report on; the reporter comes back to follow it up, in the same tab.
    await server.db.update(reportForms).set({ assignedToSupportMessage: `<p>${BEING_HANDLED}</p>` }).where(eq(reportForms.id, main.form.id));
    await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, submission!.id));
    const shortText = main.widgets.find((w) => w.type === "ShortText" && visible.has(w.id))!;
    await followUpInGerman(page, { reportID, password, typed: all[shortText.id]![0]! });

    // Nothing left the page for another origin, and the provider never saw what the reporter typed.
    expect(requests.filter((url) => !url.startsWith(origin))).toEqual([]);
    for (const w of main.widgets.filter((w) => w.type === "ShortText" || w.type === "LongText")) expect(translations.texts()).not.toContain(all[w.id]![0]!);
    await context.close();
  }, 180_000);

  test("the report login on login.{APP_DOMAIN} has no organisation, so it offers no menu", async () => {
    const page = await browser.newPage();
    await page.goto(`http://login.localhost:${server.port}/`);
    // Once the page has come alive (the button works), everything it will show is there.
    await page.getByRole("button", { name: "Login" }).and(page.locator(":enabled")).waitFor();
    expect(await page.getByLabel("Language").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  test("with the provider down, the originals show with a short notice, never a broken page", async () => {
    translations.setMode("down");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/report/${main.form.id}`);
    const menu = page.getByLabel("Language");
    // French was never asked for, so nothing of it is cached.
    await menu.selectOption("fr");
    await page.getByRole("status").filter({ hasText: UNAVAILABLE }).waitFor();
    expect(await page.locator(".report-flow__form-name").textContent()).toBe("Workplace Misconduct Report");
    await context.close();
    translations.setMode("up");
  }, 60_000);
});
