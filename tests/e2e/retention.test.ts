import { describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../db/schema/index.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../api/shared/enums.ts";
import { checkConsoleScreen, confirmDialog, demoInBrowser, newConsolePage, signInToConsole } from "../helpers/console-browser.ts";

// Retention and legal hold (decision 052): the owner sets retention on the organisation's edit page,
// sees a closed report's deletion date, and puts the report on legal hold. axe-clean at 390 and 1440 px.

const suite = demoInBrowser();

describe("retention in the console", () => {
  test("the owner sets retention, sees a closed report's deletion date and puts it on legal hold", async () => {
    const { server, browser, consoleOrigin } = suite;
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const [report] = await server.db
      .select()
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.organisationId, demo!.id), eq(reportSubmissions.completed, true), inArray(reportSubmissions.status, [...TERMINAL_SUBMISSION_STATUSES])));
    // The demo's reports were closed by the seed, not through the console: give this one its closing time.
    await server.db.update(reportSubmissions).set({ closedAt: new Date(), legalHold: false, archived: false }).where(eq(reportSubmissions.id, report!.id));
    const path = `${consoleOrigin}/admin/manage/reports/overview/${report!.formId}/${report!.id}`;

    for (const width of [1440, 390]) {
      const { page, problems } = await newConsolePage(browser, width);
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      await page.goto(`${consoleOrigin}/admin/manage/organisations/edit`);
      const field = page.getByLabel("Delete closed reports after (months)");
      await field.waitFor();
      if (width === 1440) {
        expect(await field.inputValue()).toBe("");
        await field.selectOption({ label: "12 months" });
        await checkConsoleScreen(page, "retention", "organisation-setting");
        await page.getByRole("button", { name: "Save" }).click();
        await page.getByText("Organisation has been updated successfully").waitFor();
      } else {
        expect(await field.inputValue()).toBe("12");
        await checkConsoleScreen(page, "retention", "organisation-setting");
      }

      await page.goto(path);
      const panel = page.getByRole("region", { name: "Retention" });
      await panel.getByText("Deletion due").waitFor();
      const hold = panel.getByRole("switch", { name: "Legal hold" });
      await hold.waitFor();
      if (width === 1440) {
        expect(await panel.getByText("Not scheduled").count()).toBe(0);
        await checkConsoleScreen(page, "retention", "report-deletion-due");
        await hold.click();
        await confirmDialog(page, "Put this report on legal hold?");
        await page.getByText("The report is on legal hold").waitFor();
      }
      await panel.getByText("Not while on legal hold").waitFor();
      expect(await hold.isChecked()).toBe(true);
      await checkConsoleScreen(page, "retention", "report-on-hold");
      expect(problems).toEqual([]);
      await page.context().close();
    }
    const [after] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report!.id));
    expect(after!.legalHold).toBe(true);
    const [organisation] = await server.db.select().from(organisations).where(eq(organisations.id, demo!.id));
    expect(organisation!.retentionMonths).toBe(12);
  }, 120_000);
});
