/**
 * Requests to other origins: the organisation page and the report form page, loaded in headless
 * Chromium until the network is idle, counting every request (and WebSocket) whose origin is not
 * the page's. A whistleblower's browser should talk to nobody else, so the expected count is 0.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { demoTarget, findDemoFormId } from "./demo.ts";
import type { BenchContext } from "./scenarios.ts";
import { failedRow, type Row } from "./table.ts";

/** Debian's Chromium, as tests/helpers/browser.ts uses it; no browser is downloaded. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The same flags as tests/helpers/browser.ts: without them Chromium phones home at start. */
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
const LOAD_TIMEOUT_MS = 30_000;
const UNIT = "requests";

async function countOnPage(browser: Browser, url: string): Promise<{ other: string[]; total: number }> {
  const origin = new URL(url).origin;
  const page = await browser.newPage();
  try {
    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    page.on("websocket", (socket) => urls.push(socket.url()));
    const response = await page.goto(url, { waitUntil: "networkidle", timeout: LOAD_TIMEOUT_MS });
    if (!response?.ok()) throw new Error(`${new URL(url).pathname} answered ${response?.status() ?? "nothing"}`);
    // data: and blob: URLs never leave the browser; WebSockets count by their http(s) origin.
    const network = urls.filter((link) => /^(https?|wss?):/.test(link));
    const other = network.filter((link) => new URL(link.replace(/^ws/, "http")).origin !== origin);
    return { other, total: network.length };
  } finally {
    await page.close();
  }
}

/** One row per page, on a running server seeded with the demo (`base` is its loopback URL). */
export async function measureOtherOrigins(ctx: BenchContext, base: string): Promise<Row[]> {
  const pages = [
    { name: "Other-origin requests, organisation page", path: async () => "/" },
    { name: "Other-origin requests, report form page", path: async () => `/report/${await findDemoFormId(demoTarget(base))}` },
  ];
  let close: () => Promise<void> = async () => {};
  try {
    ctx.progress("PGlite: counting requests to other origins in headless Chromium");
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
    // Playwright's own signal handlers would exit the process before the bench's cleanup ran; the cleanup closes Chromium.
    const launched = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    close = ctx.cleanup.defer("close Chromium", () => launched.close());
    const pageOrigin = `http://${demoTarget(base).host}`;
    const rows: Row[] = [];
    for (const { name, path } of pages) {
      try {
        const { other, total } = await countOnPage(launched, `${pageOrigin}${await path()}`);
        const examples = other.length > 0 ? `: ${[...new Set(other.map((link) => new URL(link).origin))].join(", ")}` : "";
        rows.push({ name, value: String(other.length), unit: UNIT, note: `of ${total} in all, until network idle; PGlite demo${examples}` });
      } catch (error) {
        console.error(`bench: ${name} failed:`, error);
        rows.push(failedRow(name, UNIT, error));
      }
    }
    return rows;
  } catch (error) {
    console.error("bench: requests to other origins failed:", error);
    return pages.map(({ name }) => failedRow(name, UNIT, error));
  } finally {
    await close();
  }
}
