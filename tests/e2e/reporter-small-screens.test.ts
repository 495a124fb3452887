import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContextOptions } from "playwright-core";
import { seedDemo } from "../../db/seed/demo.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { demoForm } from "../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { pngWithText } from "../fixtures/files.ts";
import { checkScreen, fillEveryPage, next } from "./reporter-walk.ts";

// The whole reporter journey on a phone, a tablet and a desktop screen: organisation page,
// report, every page, review, finish, login and the follow-up tabs. On each screen axe-core finds
// nothing serious, nothing is wider than the screen, and Quick Exit covers no control.

const SCREENS: { name: string; options: BrowserContextOptions }[] = [
  { name: "phone", options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  { name: "tablet", options: { viewport: { width: 768, height: 1024 }, isMobile: true, hasTouch: true } },
  { name: "desktop", options: { viewport: { width: 1440, height: 900 } } },
];

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

describe("the reporter's screens fit phones, tablets and desktops", () => {
  for (const screen of SCREENS) {
    test(`on a ${screen.name} (${screen.options.viewport!.width} px)`, async () => {
      const context = await browser.newContext(screen.options);
      const page = await context.newPage();
      const shot = (name: string) => `reporter-${screen.name}-${name}`;

      await page.goto(`http://login.localhost:${server.port}/`);
      await page.getByLabel("Report ID").waitFor();
      await checkScreen(page, shot("00-global-login"));

      await page.goto(`${origin}/`);
      await page.getByRole("dialog").getByRole("heading", { name: "Welcome" }).waitFor();
      await checkScreen(page, shot("01-welcome-note"), { quickExit: false });
      await page.getByRole("button", { name: "Close" }).click();
      await checkScreen(page, shot("02-organisation"));
      await page.getByRole("button", { name: "Ask a Question" }).click();
      await page.getByRole("dialog").locator("textarea").waitFor();
      await checkScreen(page, shot("03-enquiry"), { quickExit: false });
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("row", { name: /Workplace Misconduct Report/ }).getByRole("link", { name: /Make Report/ }).click();
      await page.getByRole("heading", { name: "Welcome" }).waitFor();
      await checkScreen(page, shot("04-form-welcome"));
      await next(page);
      await fillEveryPage(page, main.widgets, {
        flipCondition: true,
        onRequired: () => checkScreen(page, shot("05-required")),
        onPage: (index) => checkScreen(page, shot(`06-page-${index}`)),
      });

      await page.getByRole("heading", { name: "Attach files" }).waitFor();
      const file = join(server.dataDir, `evidence-${screen.name}.png`);
      writeFileSync(file, pngWithText());
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.locator(".upload-list__item--done").getByRole("button", { name: /Delete/ }).waitFor();
      await checkScreen(page, shot("07-attach"));
      await next(page);
      await page.getByRole("heading", { name: "Review" }).waitFor();
      await checkScreen(page, shot("08-review"));
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("heading", { name: "Report Submitted" }).waitFor();
      const [reportID, password] = (await page.locator(".credentials__value").allTextContents()) as [string, string];
      await checkScreen(page, shot("09-finish"));

      await page.getByRole("link", { name: "Follow up Report" }).click();
      await page.getByLabel("Report ID").fill(reportID);
      await page.getByLabel("Password").fill(password);
      await checkScreen(page, shot("10-login"));
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL("**/report/dashboard");
      await page.getByText("Received", { exact: true }).waitFor();
      await checkScreen(page, shot("11-dashboard"));
      // The tabs stay on one row (two rows broke the underline); what does not fit scrolls sideways.
      const tops = await page.getByRole("tab").evaluateAll((tabs) => tabs.map((tab) => tab.getBoundingClientRect().top));
      expect(new Set(tops).size).toBe(1);
      for (const [tab, ready] of [
        ["Uploads", () => page.getByRole("link", { name: `Download evidence-${screen.name}.png` }).waitFor()],
        ["Messages", () => page.getByPlaceholder("Write a message").waitFor()],
        ["Settings", () => page.getByRole("heading", { name: "Change Password" }).waitFor()],
      ] as const) {
        const tabElement = page.getByRole("tab", { name: new RegExp(`^${tab}`) });
        await tabElement.click();
        await ready();
        // The open tab is whole on screen, also when the row scrolls sideways.
        const box = (await tabElement.boundingBox())!;
        expect(box.x >= 0 && box.x + box.width <= screen.options.viewport!.width).toBe(true);
        await checkScreen(page, shot(`12-${tab.toLowerCase()}`));
      }
      await context.close();
    }, 120_000);
  }
});
