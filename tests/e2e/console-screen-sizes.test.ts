import { beforeAll, describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";

// The console on a phone (390 px), a tablet (768 px) and a laptop (1440 px): every screen fits its
// width, the rows show what matters, the report's tabs stay on one row and dialogs sit inside the screen.

const suite = demoInBrowser();
/** A demo report with a chat, its form, and the owner on its team so every tab is there. */
let report: { id: string; reportID: string; formID: string };

beforeAll(async () => {
  const owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
  const chats = await owner.gql<{ reportConversations: { list: { submission: { id: string; reportID: string; submissionForm: { id: string } } }[] } }>(
    `{ reportConversations { list { submission { id reportID submissionForm { id } } } } }`,
  );
  const first = chats.data!.reportConversations.list[0]!.submission;
  report = { id: first.id, reportID: first.reportID, formID: first.submissionForm.id };
  await joinTeam(owner, report.id).catch(() => undefined);
});

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "tablet", width: 768, height: 1024 },
  { name: "laptop", width: 1440, height: 900 },
] as const;

const TABS = ["Report", "Team", "Messages", "Uploads", "Notes", "Activity Logs"] as const;

/** The page is no wider than the screen: nothing needs sideways scrolling of the whole page. */
async function expectNoSidewaysScroll(page: Page, width: number, screen: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ screen, scrollWidth }).toEqual({ screen, scrollWidth: Math.min(scrollWidth, width) });
}

/** The element is drawn wholly inside the screen's width. */
async function expectInsideWidth(locator: Locator, width: number, what: string) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect({ what, visible: box !== null && box.width > 0 }).toEqual({ what, visible: true });
  expect({ what, left: box!.x >= 0, right: box!.x + box!.width <= width }).toEqual({ what, left: true, right: true });
}

async function checkScreen(page: Page, width: number, screen: string) {
  await expectNoSidewaysScroll(page, width, screen);
  await expectAxeClean(page, screen);
  await screenshot(page, `screen-sizes-${width}-${screen}`);
}

describe("the console at phone, tablet and laptop widths", () => {
  for (const size of SIZES) {
    test(`${size.name} (${size.width}×${size.height}): every screen fits, rows show the report ID and status, tabs and dialogs stay reachable`, async () => {
      const { browser, consoleOrigin } = suite;
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await context.newPage();
      const problems = recordProblems(page);
      await page.goto(`${consoleOrigin}/admin`);
      await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
      await checkScreen(page, size.width, "login");
      await signInToConsole(page, consoleOrigin, "owner@demo.test");
      await page.locator(".stat-tile__value").first().filter({ hasText: /\d/ }).waitFor();
      await checkScreen(page, size.width, "dashboard");

      // Reports: each row shows its report ID and status inside the screen, without sideways scrolling.
      await page.goto(`${consoleOrigin}/admin/manage/reports`);
      const firstRow = page.locator(".report-table tbody tr").first();
      await firstRow.waitFor();
      await expectInsideWidth(firstRow.getByRole("link").first(), size.width, "first report's ID");
      await expectInsideWidth(firstRow.locator(".badge").first(), size.width, "first report's status");
      await expectInsideWidth(page.getByRole("button", { name: "Reporting CSV" }), size.width, "Reporting CSV");
      await checkScreen(page, size.width, "reports");

      // The report: its tabs on one row, each reachable, and each tab's screen fits.
      await page.goto(`${consoleOrigin}/admin/manage/reports/overview/${report.formID}/${report.id}`);
      await page.getByRole("heading", { name: `Report ${report.reportID}` }).waitFor();
      const tabs = page.getByRole("navigation", { name: "Report sections" }).getByRole("link");
      expect(await tabs.allTextContents()).toEqual(expect.arrayContaining(TABS.map((tab) => expect.stringContaining(tab))));
      const tops = new Set<number>();
      for (const tab of await tabs.all()) tops.add(Math.round((await tab.boundingBox())!.y));
      expect({ rows: tops.size }).toEqual({ rows: 1 });
      for (const tab of TABS) {
        const link = page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: new RegExp(`^${tab}`) });
        await expectInsideWidth(link, size.width, `${tab} tab`);
        await link.click();
        await page.waitForFunction((name) => document.querySelector(".tabs__tab[aria-current='page']")?.textContent?.startsWith(name), tab);
        await page.locator(".tab-panel h2").first().waitFor();
        await checkScreen(page, size.width, `report-${tab.toLowerCase().replace(" ", "-")}`);
      }

      // A tall dialog sits wholly inside the screen, and scrolls inside itself.
      await page.getByRole("navigation", { name: "Report sections" }).getByRole("link", { name: "Team" }).click();
      await page.getByRole("button", { name: "Assign Users" }).click();
      const dialog = page.getByRole("dialog", { name: "Assign Users" });
      await dialog.getByRole("button", { name: "Assign" }).first().waitFor();
      const box = (await dialog.boundingBox())!;
      expect({ left: box.x >= 8, top: box.y >= 8, right: box.x + box.width <= size.width - 8, bottom: box.y + box.height <= size.height - 8 }).toEqual({
        left: true,
        top: true,
        right: true,
        bottom: true,
      });
      // Centred: the space above it is the space below it, give or take a pixel.
      expect(Math.abs(box.y - (size.height - box.y - box.height))).toBeLessThanOrEqual(2);
      await checkScreen(page, size.width, "assign-users-dialog");
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // On a screen lower than the dialog (a phone on its side), it keeps inside and scrolls within.
      await page.setViewportSize({ width: size.width, height: 420 });
      await page.getByRole("button", { name: "Close Report" }).click();
      const closing = page.getByRole("dialog", { name: "Close Report" });
      await closing.getByRole("radio").first().waitFor();
      const low = (await closing.boundingBox())!;
      expect({ top: low.y >= 8, bottom: low.y + low.height <= 420 - 8 }).toEqual({ top: true, bottom: true });
      const submit = closing.getByRole("button", { name: "Close Report" });
      await submit.scrollIntoViewIfNeeded();
      const button = (await submit.boundingBox())!;
      expect({ reachable: button.y >= low.y && button.y + button.height <= low.y + low.height }).toEqual({ reachable: true });
      await screenshot(page, `screen-sizes-${size.width}-close-report-dialog-low`);
      await page.keyboard.press("Escape");
      await closing.waitFor({ state: "detached" });
      await page.setViewportSize({ width: size.width, height: size.height });

      // Conversations: each row shows its report ID and last message inside the screen.
      await page.goto(`${consoleOrigin}/admin/manage/report-conversations`);
      const chat = page.locator(".conversation-table tbody tr").first();
      await chat.waitFor();
      await expectInsideWidth(chat.getByRole("link").first(), size.width, "first chat's report ID");
      await expectInsideWidth(chat.locator(".conversation-table__preview"), size.width, "first chat's last message");
      await checkScreen(page, size.width, "conversations");

      await page.goto(`${consoleOrigin}/admin/settings`);
      await page.getByRole("heading", { name: "Settings" }).waitFor();
      await checkScreen(page, size.width, "settings");

      expect(problems).toEqual([]);
      await context.close();
    }, 120_000);
  }
});
