import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { REDACTION_MARKER } from "../../api/shared/redaction.ts";
import { organisations, reportConversationMessages, reportConversations, reportSubmissions } from "../../db/schema/index.ts";
import { checkConsoleScreen, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";

// Redaction (decision 053): the owner redacts a span of an answer and of the reporter's message
// with the keyboard, confirming each in a dialog that shows the words; the marker shows in place.
// axe-clean at 1440 and 390 px.

const suite = demoInBrowser();

/** Opens the Redact dialog, selects the first `length` characters with Shift and the arrow keys, and confirms. */
async function redactStart(page: Page, button: ReturnType<Page["getByRole"]>, length: number, shotName?: string): Promise<string> {
  await button.click();
  const dialog = page.getByRole("dialog");
  const field = dialog.getByLabel("Select the words to redact");
  await field.focus();
  await page.keyboard.press("Control+Home");
  for (let step = 0; step < length; step += 1) await page.keyboard.press("Shift+ArrowRight");
  const selected = await field.evaluate((area: HTMLTextAreaElement) => area.value.slice(area.selectionStart, area.selectionEnd));
  expect(selected.length).toBe(length);
  if (shotName) await checkConsoleScreen(page, "redaction", shotName);
  await dialog.getByRole("button", { name: "Redact selection" }).click();
  await dialog.getByText(selected, { exact: true }).waitFor();
  await dialog.getByRole("button", { name: "Redact", exact: true }).click();
  await dialog.waitFor({ state: "detached" });
  return selected;
}

describe("redaction in the console", () => {
  test("the owner redacts a span of an answer and of a message", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [report] = await server.db
      .select({ id: reportSubmissions.id, formId: reportSubmissions.formId, messageId: reportConversationMessages.id })
      .from(reportConversationMessages)
      .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
      .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
      .where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.completed, true), eq(reportConversationMessages.type, "Text"), eq(reportConversationMessages.from, "Guest")))
      .limit(1);
    expect(report).toBeDefined();
    const path = `${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`;

    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      await page.goto(path);
      const answerButton = page.getByRole("button", { name: /^Redact: / }).first();
      await answerButton.waitFor();
      if (width === 1440) {
        await redactStart(page, answerButton, 4, "answer-dialog");
        await page.getByText("The selection is redacted").waitFor();
      }
      const answers = page.getByRole("region", { name: "Report Details" });
      await answers.locator(".redacted").first().waitFor();
      expect(await answers.locator(".redacted").first().textContent()).toBe(REDACTION_MARKER);
      await checkConsoleScreen(page, "redaction", "answer-redacted");

      await page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: /Messages/ }).click();
      const messageButton = page.getByRole("button", { name: /^Redact: message/ }).first();
      await messageButton.waitFor();
      if (width === 1440) await redactStart(page, messageButton, 3);
      await page.locator(".chat .redacted").first().waitFor();
      await checkConsoleScreen(page, "redaction", "message-redacted");
      expect(problems).toEqual([]);
      await page.context().close();
    }
  }, 180_000);
});
