import { beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, signInToConsole } from "../helpers/console-browser.ts";
import { joinTeam, loginAs } from "../helpers/session.ts";

// A keyboard or screen-reader user always knows where they are: each console screen names itself
// in the title, a new screen puts focus on its heading, a new tab of a report is announced, a closed
// dialog gives focus back to what opened it, and the sticky top bar never covers the focused control.

const suite = demoInBrowser();
let report: { id: string; reportID: string; formID: string };

beforeAll(async () => {
  const owner = await loginAs(suite.server, "owner@demo.test", DEMO_PASSWORD);
  const list = await owner.gql<{ reportSubmissions: { list: { id: string; reportID: string; status: string; submissionForm: { id: string } }[] } }>(
    `{ reportSubmissions(search: { filter: Active }) { list { id reportID status submissionForm { id } } } }`,
  );
  const open = list.data!.reportSubmissions.list.find((row) => row.status === "Assigned")!;
  report = { id: open.id, reportID: open.reportID, formID: open.submissionForm.id };
  await joinTeam(owner, report.id).catch(() => undefined);
});

/** What has focus: its role-ish tag and its text. */
const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName.toLowerCase(), text: document.activeElement?.textContent?.trim() }));

async function focusIsOn(page: Page, tag: string, text: string) {
  await page.waitForFunction(([tag, text]) => document.activeElement?.tagName.toLowerCase() === tag && document.activeElement.textContent?.trim() === text, [tag, text] as const, { timeout: 5_000 }).catch(() => undefined);
  expect(await focused(page)).toEqual({ tag, text });
}

describe("focus and titles in the console", () => {
  test("each screen has its own title and takes focus on its heading; a tab is announced; a closed dialog returns focus", async () => {
    const { browser, consoleOrigin } = suite;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const problems = recordProblems(page);
    await page.goto(`${consoleOrigin}/admin`);
    await page.getByRole("heading", { name: "Admin Control Panel" }).waitFor();
    expect(await page.title()).toBe("Login – Lantern Admin");

    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await focusIsOn(page, "h1", "Dashboard");
    expect(await page.title()).toBe("Dashboard – Lantern Admin");

    // Through the sidebar to Reports: the list's heading has focus, so Tab goes on from there.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Reports/ }).click();
    await focusIsOn(page, "h1", "Reports");
    expect(await page.title()).toBe("Reports – Lantern Admin");
    await page.keyboard.press("Tab");
    expect((await focused(page)).text).toBe("Export Reports");

    // Into the report, whose heading waits for its data.
    await page.getByRole("link", { name: report.reportID, exact: true }).first().click();
    await focusIsOn(page, "h1", `Report ${report.reportID}`);
    expect(await page.title()).toBe(`Report ${report.reportID} – Lantern Admin`);

    // Another tab of the same report: focus stays on the chosen tab and the new section is announced.
    const tabs = page.getByRole("navigation", { name: "Report sections" });
    await tabs.getByRole("link", { name: "Team" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Assigned Users" }).waitFor();
    await focusIsOn(page, "a", "Team");
    expect(await page.title()).toBe(`Team – Report ${report.reportID} – Lantern Admin`);
    await page.getByRole("status").filter({ hasText: `Team – Report ${report.reportID}` }).waitFor();

    // A dialog closed with Escape, or with its own Close button, gives focus back to its opener.
    await page.getByRole("button", { name: "Assign Users" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Assign Users" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await focusIsOn(page, "button", "Assign Users");
    await page.keyboard.press("Enter");
    await page.getByRole("dialog", { name: "Assign Users" }).getByRole("button", { name: "Close" }).click();
    await focusIsOn(page, "button", "Assign Users");

    // Closing the report removes the button that opened the dialog: focus goes to the screen's heading.
    await page.getByRole("button", { name: "Close Report" }).click();
    const close = page.getByRole("dialog", { name: "Close Report" });
    await close.getByRole("radio", { name: "Substantiated", exact: true }).check();
    await close.getByRole("button", { name: "Close Report" }).click();
    await close.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Re-open Report" }).waitFor();
    await focusIsOn(page, "h1", `Report ${report.reportID}`);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Conversations/ }).click();
    await focusIsOn(page, "h1", "Conversations");
    expect(await page.title()).toBe("Conversations – Lantern Admin");
    await page.goBack();
    await focusIsOn(page, "h1", `Report ${report.reportID}`);

    await page.locator(".user-menu__toggle").click();
    await page.getByRole("link", { name: "Edit Profile" }).click();
    await focusIsOn(page, "h1", "Settings");
    expect(await page.title()).toBe("Profile – Settings – Lantern Admin");

    await page.goto(`${consoleOrigin}/admin/manage/no-such-screen`);
    await page.getByText("The page you are looking for is not found.").waitFor();
    expect(await page.title()).toBe("Page not found – Lantern Admin");
    expect(problems).toEqual([]);
    await context.close();
  }, 60_000);

  test("on a phone, neither the sticky top bar nor the menu covers the control that has focus", async () => {
    const { browser, consoleOrigin } = suite;
    const context = await browser.newContext({ viewport: { width: 390, height: 600 } });
    const page = await context.newPage();
    await signInToConsole(page, consoleOrigin, "owner@demo.test");
    await page.goto(`${consoleOrigin}/admin/manage/reports`);
    const rows = page.locator(".report-table tbody tr");
    await rows.nth(3).waitFor();
    const barHeight = (await page.locator(".admin-top-bar").boundingBox())!.height;
    const covered: string[] = [];
    // The user has scrolled so that a report's View link sits just under the bar, then tabs to it
    // from the report's ID: the browser must scroll it out from under the bar.
    for (let index = 0; index < (await rows.count()); index += 1) {
      const row = rows.nth(index);
      await row.getByRole("link").first().evaluate((link: HTMLElement) => link.focus({ preventScroll: true }));
      const view = row.getByRole("link", { name: "View" });
      await view.evaluate((link) => window.scrollBy(0, link.getBoundingClientRect().top - 20));
      await page.keyboard.press("Tab");
      const top = await page.evaluate(() => document.activeElement!.getBoundingClientRect().top);
      if (top < barHeight) covered.push(`row ${index + 1}: View at ${Math.round(top)} px, under the ${Math.round(barHeight)} px bar`);
    }
    await screenshot(page, "focus-sticky-header-phone");
    expect(covered).toEqual([]);

    // The menu slides over its own toggle: opened, it has focus; closed with Escape, the toggle has it again.
    await page.getByRole("button", { name: "Open menu" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.closest("nav")?.getAttribute("aria-label") === "Main", undefined, { timeout: 5_000 }).catch(() => undefined);
    expect(await page.evaluate(() => ({ menu: document.activeElement!.closest("nav")?.getAttribute("aria-label"), current: document.activeElement!.getAttribute("aria-current") }))).toEqual({ menu: "Main", current: "page" });
    await screenshot(page, "focus-menu-open-phone");
    await page.keyboard.press("Escape");
    await focusIsOn(page, "button", "");
    expect(await page.evaluate(() => document.activeElement!.getAttribute("aria-label"))).toBe("Open menu");
    // Followed from the menu, a link's screen takes focus on its heading.
    await page.keyboard.press("Enter");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Conversations/ }).click();
    await focusIsOn(page, "h1", "Conversations");
    await context.close();
  }, 60_000);
});
