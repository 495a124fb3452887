import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { organisations, reportForms } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { checkConsoleScreen, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { startTranslationServer, type TestTranslationServer } from "../helpers/translation-server.ts";

// Issue 14, staff review: in the form editor's Translations tab the demo owner reads the machine's
// translation beside the original, writes their own, marks it reviewed, and finds it there again
// after a reload. Checked with axe at phone and laptop widths.

const MISCONDUCT = "Workplace Misconduct Report";
let provider: TestTranslationServer;
let server: TestServer;
let browser: Browser;
let consoleOrigin: string;
let formId: string;
let demoId: string;

beforeAll(async () => {
  provider = await startTranslationServer();
  server = await startTestServer({ env: { TRANSLATION_PROVIDER: "libretranslate", TRANSLATION_URL: provider.url } });
  await seedDemo(server.db);
  browser = await launchBrowser();
  consoleOrigin = `http://localhost:${server.port}`;
  const [form] = await server.db.select({ id: reportForms.id, organisationId: reportForms.organisationId }).from(reportForms).where(eq(reportForms.name, MISCONDUCT));
  formId = form!.id;
  demoId = form!.organisationId;
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

async function openTranslations(page: Page): Promise<void> {
  await page.goto(`${consoleOrigin}/admin/manage/report-forms/edit/${formId}`);
  await page.getByRole("navigation", { name: "Form sections" }).getByRole("button", { name: "Translations" }).click();
}

test("with translations off, the tab says so instead of showing texts", async () => {
  await server.db.update(organisations).set({ enableFormTranslations: false }).where(eq(organisations.id, demoId));
  const { page, problems } = await newConsolePage(browser);
  await signInToConsole(page, consoleOrigin, "owner@demo.test");
  await openTranslations(page);
  await page.getByRole("heading", { name: "Form translations are off for this organisation" }).waitFor();
  await expect(page.getByRole("article").count()).resolves.toBe(0);
  await checkConsoleScreen(page, "translation-review", "translations-off");
  expect(problems).toEqual([]);
  await page.context().close();
}, 60_000);

test("the owner overrides a machine translation, marks it reviewed, and finds it after a reload", async () => {
  await server.db.update(organisations).set({ enableFormTranslations: true, formLanguage: "en" }).where(eq(organisations.id, demoId));
  const { page, problems } = await newConsolePage(browser);
  await signInToConsole(page, consoleOrigin, "owner@demo.test");
  await openTranslations(page);
  const language = page.getByLabel("Language", { exact: true });
  await language.waitFor();
  // The form's own language is not offered.
  await expect(language.locator("option").allTextContents()).resolves.not.toContainEqual(expect.stringContaining("(en)"));
  await language.selectOption("de");
  const row = page.getByRole("article", { name: "Form name" });
  await row.getByText(`[de] ${MISCONDUCT}`).waitFor();
  await row.getByText(MISCONDUCT, { exact: true }).waitFor();
  await checkConsoleScreen(page, "translation-review", "translations");

  await row.getByLabel("Your translation").fill("Meldung über Fehlverhalten am Arbeitsplatz");
  await row.getByLabel("Mark reviewed").check();
  await row.getByRole("button", { name: "Save translation" }).click();
  await page.getByText("Translation has been saved", { exact: true }).last().waitFor();
  await row.getByText("Reviewed", { exact: true }).waitFor();

  await page.reload();
  await openTranslations(page);
  await page.getByLabel("Language", { exact: true }).selectOption("de");
  const again = page.getByRole("article", { name: "Form name" });
  await expect(again.getByLabel("Your translation").inputValue()).resolves.toBe("Meldung über Fehlverhalten am Arbeitsplatz");
  await expect(again.getByLabel("Mark reviewed").isChecked()).resolves.toBe(true);

  // The form is renamed: its translation was reviewed against the old name, and says so.
  await server.db.update(reportForms).set({ name: `${MISCONDUCT} 2026` }).where(eq(reportForms.id, formId));
  await openTranslations(page);
  await page.getByLabel("Language", { exact: true }).selectOption("de");
  const renamed = page.getByRole("article", { name: "Form name" });
  await renamed.getByText("Changed since review", { exact: true }).waitFor();
  await renamed.getByText(`${MISCONDUCT} 2026`, { exact: true }).waitFor();
  await renamed.getByText(MISCONDUCT, { exact: true }).waitFor();
  await renamed.getByText("Meldung über Fehlverhalten am Arbeitsplatz", { exact: true }).waitFor();
  await expect(renamed.getByLabel("Your translation").inputValue()).resolves.toBe("");
  await checkConsoleScreen(page, "translation-review", "translations-changed");
  expect(problems).toEqual([]);
  await page.context().close();

  const phone = await newConsolePage(browser, 390);
  await signInToConsole(phone.page, consoleOrigin, "owner@demo.test");
  await openTranslations(phone.page);
  await phone.page.getByLabel("Language", { exact: true }).selectOption("de");
  await phone.page.getByRole("article", { name: "Form name" }).getByText("Changed since review", { exact: true }).waitFor();
  await checkConsoleScreen(phone.page, "translation-review", "translations");
  expect(phone.problems).toEqual([]);
  await phone.page.context().close();
}, 90_000);

test("the owner chooses the organisation's form language from the provider's languages", async () => {
  const { page, problems } = await newConsolePage(browser);
  await signInToConsole(page, consoleOrigin, "owner@demo.test");
  await page.goto(`${consoleOrigin}/admin/manage/organisations/edit`);
  const field = page.getByLabel("Form language", { exact: true });
  await expect(field.inputValue()).resolves.toBe("en");
  await checkConsoleScreen(page, "translation-review", "organisation-form-language");
  await field.selectOption("fr");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await page.getByText("Organisation has been updated successfully", { exact: true }).last().waitFor();
  const row = page.locator(".organisation-facts__row", { hasText: "Form language" });
  await expect(row.locator("dd").textContent()).resolves.toBe("français (fr)");
  const [stored] = await server.db.select({ formLanguage: organisations.formLanguage }).from(organisations).where(eq(organisations.id, demoId));
  expect(stored!.formLanguage).toBe("fr");
  expect(problems).toEqual([]);
  await page.context().close();
}, 60_000);
