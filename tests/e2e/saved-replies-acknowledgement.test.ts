import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { reportForms, reportSubmissionAssignees, reportSubmissions, users } from "../../db/schema/index.ts";
import { checkConsoleScreen, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";
import { demoForm, ReporterClient, submitReport } from "../helpers/reporter.ts";
import { checkScreen } from "./reporter-walk.ts";

// Decision 051 in Chromium: the owner writes a saved reply under Manage; a member on a report's team
// finds the form's automatic acknowledgement in the chat, inserts the saved reply, edits it and sends
// it; the reporter's Messages show both. axe-clean at 1440 and 390 px, with screenshots.

const suite = demoInBrowser();
const ACKNOWLEDGEMENT = "Thank you for your report. We have received it and will look at it within 7 days.";
const REPLY_BODY = "Thank you for the details. We are looking into this now.";

describe("saved replies and the automatic acknowledgement", () => {
  test("the owner creates a saved reply; a member inserts it in the chat and sends it; the reporter sees the acknowledgement and the reply", async () => {
    const { server, browser, consoleOrigin, reporterOrigin } = suite;
    const main = await demoForm(server, "demo", "Workplace Misconduct Report");
    await server.db.update(reportForms).set({ acknowledgementMessage: ACKNOWLEDGEMENT }).where(eq(reportForms.id, main.form.id));
    const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
    const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
    const [member] = await server.db.select().from(users).where(eq(users.email, "member@demo.test"));
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: member!.id, isOwner: true });
    await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, report!.id));

    // The owner writes the reply under Manage → Saved Replies.
    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      if (width === 1440) {
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Saved Replies" }).click();
        await page.getByRole("heading", { name: "Saved Replies", level: 1 }).waitFor();
        await page.getByText("No saved replies yet").waitFor();
        await page.getByRole("button", { name: "Create Saved Reply" }).click();
        const dialog = page.getByRole("dialog", { name: "Create Saved Reply" });
        await dialog.getByRole("button", { name: "Save" }).click();
        expect(await dialog.getByText("Required", { exact: true }).count()).toBe(2);
        await checkConsoleScreen(page, "saved-replies", "create-dialog");
        await dialog.getByLabel("Title").fill("We are on it");
        await dialog.getByLabel("Reply").fill(REPLY_BODY);
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByText('Successfully created saved reply "We are on it"').waitFor();
      } else {
        await page.goto(`${consoleOrigin}/admin/manage/saved-replies`);
      }
      await page.locator("tbody tr", { hasText: "We are on it" }).getByRole("cell", { name: REPLY_BODY }).waitFor();
      await checkConsoleScreen(page, "saved-replies", "list");
      expect(problems).toEqual([]);
      await page.context().close();
    }

    // The member sees the acknowledgement, labelled as automatic, inserts the reply, edits it and sends it.
    const path = `${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`;
    for (const width of [390, 1440]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "member@demo.test");
      await page.goto(path);
      await page.getByRole("link", { name: /Messages/ }).click();
      const automatic = page.locator(".chat__message--system", { hasText: ACKNOWLEDGEMENT });
      await automatic.getByText(/^Automatic message · /).waitFor();
      const menu = page.getByLabel("Insert saved reply");
      await menu.waitFor();
      await checkConsoleScreen(page, "saved-replies", "report-chat");
      if (width === 1440) {
        const box = page.getByLabel("Reply", { exact: true });
        await box.fill("Hello,");
        await menu.selectOption({ label: "We are on it" });
        expect(await box.inputValue()).toBe(`Hello,\n\n${REPLY_BODY}`);
        // The menu returns to its prompt, and the text stays editable before it is sent.
        expect(await menu.inputValue()).toBe("");
        await box.fill(`${await box.inputValue()} Kind regards.`);
        await page.getByRole("button", { name: "Send", exact: true }).click();
        await page.locator(".chat__message--team .chat__text", { hasText: "Kind regards." }).waitFor();
        // The live event can show the message a moment before the send's own answer empties the box.
        for (let tries = 0; tries < 50 && (await box.inputValue()) !== ""; tries += 1) await Bun.sleep(100);
        expect(await box.inputValue()).toBe("");
      }
      expect(problems).toEqual([]);
      await page.context().close();
    }

    // The reporter follows up: the acknowledgement first, then the member's reply.
    for (const width of [390, 1440]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const reporter = await context.newPage();
      await reporter.goto(`${reporterOrigin}/report/login`);
      await reporter.getByLabel("Report ID").fill(credentials.reportID);
      await reporter.getByLabel("Password").fill(credentials.generatedPassword);
      await reporter.getByRole("button", { name: "Login" }).click();
      await reporter.waitForURL("**/report/dashboard");
      await reporter.getByRole("tab", { name: /Messages/ }).click();
      await reporter.locator(".chat__message--system .chat__text", { hasText: ACKNOWLEDGEMENT }).waitFor();
      await reporter.locator(".chat__message--theirs .chat__text", { hasText: "Kind regards." }).waitFor();
      const texts = await reporter.locator(".chat__text").allTextContents();
      expect(texts).toEqual([ACKNOWLEDGEMENT, `Hello,\n\n${REPLY_BODY} Kind regards.`]);
      await checkScreen(reporter, `saved-replies-reporter-messages-${width}`);
      await context.close();
    }
  }, 180_000);
});
