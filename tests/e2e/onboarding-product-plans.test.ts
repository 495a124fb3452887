import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { recordProblems, screenshot } from "../helpers/browser.ts";
import { demoInBrowser, expectAxeClean, signInToConsole } from "../helpers/console-browser.ts";

/** The super admin's Product Plans screen (decision 037), and nobody else's. */
const suite = demoInBrowser();

async function checkScreen(page: Page, width: number, screen: string) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect({ screen, width, scrollWidth }).toEqual({ screen, width, scrollWidth: Math.min(scrollWidth, width) });
  await expectAxeClean(page, `${screen} at ${width}px`);
  await screenshot(page, `onboarding-${width}-${screen}`);
}

describe("product plans in Chromium", () => {
  for (const width of [390, 1440] as const) {
    test(`${width} px: a super admin creates and archives a plan`, async () => {
      const context = await suite.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const problems = recordProblems(page);
      await signInToConsole(page, suite.consoleOrigin, "admin@lantern.test");
      await page.goto(`${suite.consoleOrigin}/admin/manage/product-plans`);
      await page.getByRole("heading", { name: "Product Plans" }).waitFor();
      await page.getByRole("button", { name: "Create" }).click();
      const dialog = page.getByRole("dialog", { name: "Create Product Plan" });
      await dialog.getByLabel("Name").fill(`Team ${width}`);
      await dialog.getByLabel("Seats").fill("25");
      await dialog.getByLabel("Price (dollars)").fill("0");
      await checkScreen(page, width, "plan-dialog");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByText(`Successfully created product plan "Team ${width}"`).waitFor();
      const row = page.getByRole("row").filter({ hasText: `Team ${width}` });
      await row.getByText("Free").waitFor();
      await checkScreen(page, width, "plans");
      await row.getByRole("button", { name: "Archive" }).click();
      await page.getByRole("button", { name: "Yes" }).click();
      await page.getByText("Successfully archived product plan").waitFor();
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  test("an owner is not shown the screen", async () => {
    const page = await (await suite.browser.newContext()).newPage();
    await signInToConsole(page, suite.consoleOrigin, "owner@demo.test");
    await page.goto(`${suite.consoleOrigin}/admin/manage/product-plans`);
    await page.getByText("The page you are looking for is not found.").waitFor();
    expect(await page.getByRole("link", { name: "Product Plans" }).count()).toBe(0);
    await page.context().close();
  });
});
