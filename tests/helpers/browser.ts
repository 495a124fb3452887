import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

/** Debian's Chromium; no browser is downloaded. Override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS_DIR = join(import.meta.dir, "..", "artifacts");

/**
 * `backForwardCache`: keep the browser's back/forward cache on, as a person's browser has it (the
 * driver turns it off by default, so that Back always loads a page afresh).
 */
export async function launchBrowser(options: { backForwardCache?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium package (see .ci/run).`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...(options.backForwardCache ? { ignoreDefaultArgs: ["--disable-back-forward-cache"] } : {}),
    // Without these Chromium phones home at start, which this sandboxed machine refuses noisily.
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

/** Records every request a page makes, so tests can assert that nothing leaves the origin. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  return urls;
}

/** Records CSP violations and uncaught page errors. */
export function recordProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/.test(message.text())) problems.push(`csp: ${message.text()}`);
  });
  return problems;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}
