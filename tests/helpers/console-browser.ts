import { afterAll, beforeAll, expect } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { seriousAxeViolations } from "./axe.ts";
import { ARTIFACTS_DIR, launchBrowser, recordProblems } from "./browser.ts";
import { startTestServer, type TestServer } from "./server.ts";

/** A server with the demo data and a Chromium, for browser journeys through the console. */
export interface DemoInBrowser {
  server: TestServer;
  browser: Browser;
  /** The product host, where the console lives. */
  consoleOrigin: string;
  /** The Demo organisation's own host, where its reporters are. */
  reporterOrigin: string;
}

/**
 * Starts the server and the browser before the file's tests and stops them after. The fields of
 * the returned object are filled in once the tests run.
 */
export function demoInBrowser(): DemoInBrowser {
  const suite = {} as DemoInBrowser;
  beforeAll(async () => {
    suite.server = await startTestServer();
    await seedDemo(suite.server.db);
    suite.browser = await launchBrowser();
    suite.consoleOrigin = `http://localhost:${suite.server.port}`;
    suite.reporterOrigin = `http://demo.localhost:${suite.server.port}`;
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  return suite;
}

/** Signs a demo staff account in at /admin and waits for the dashboard. */
export async function signInToConsole(page: Page, consoleOrigin: string, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(`${consoleOrigin}/admin`);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.getByText("Reports Received").waitFor();
}

/** Owners and admins confirm each message to the reporter (decision 011). */
export async function confirmSend(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog");
  await dialog.getByText("Are you sure you want to send this message?").waitFor();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await dialog.waitFor({ state: "detached" });
}

/** axe-core finds no serious or critical WCAG violation on the page as it is now; `screen` names it in a failure. */
export async function expectAxeClean(page: Page, screen: string): Promise<void> {
  // From the top: scrolled, the sticky top bar overlaps controls further up, which axe's target-size
  // rule counts against them although the browser scrolls any control out from under the bar.
  await page.evaluate(() => window.scrollTo(0, 0));
  // What a person would look at: the page at rest. A drop or transition still running (a slow machine
  // catches more of them) leaves controls overlapping for a moment, which axe would count.
  await page.evaluate(async () => {
    const settled = Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    window.scrollTo(0, 0);
  });
  expect({ screen, violations: await seriousAxeViolations(page) }).toEqual({ screen, violations: [] });
}

/** A fresh browser context and page at this width, with its console problems recorded. */
export async function newConsolePage(browser: Browser, width = 1440): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  return { page, problems: recordProblems(page) };
}

/**
 * A screen as a user checks it: no serious axe finding, nothing wider than the window, and a picture
 * to look at, saved as tests/artifacts/{folder}/{name}-{width}.png.
 */
export async function checkConsoleScreen(page: Page, folder: string, name: string): Promise<void> {
  await expectAxeClean(page, name);
  const { width, scrollWidth } = await page.evaluate(() => ({ width: window.innerWidth, scrollWidth: document.documentElement.scrollWidth }));
  expect({ name, scrollWidth }).toEqual({ name, scrollWidth: Math.min(scrollWidth, width) });
  const shots = join(ARTIFACTS_DIR, folder);
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
}

/** Answers Yes to the spec's confirmation ('Are you sure you want to …?') and waits for it to close. */
export async function confirmDialog(page: Page, question: string): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Please confirm" });
  await dialog.getByText(question).waitFor();
  await dialog.getByRole("button", { name: "Yes" }).click();
  await dialog.waitFor({ state: "detached" });
}
