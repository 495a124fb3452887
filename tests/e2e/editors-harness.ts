import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { pageCsp } from "../../api/http/security-headers.ts";
import { launchBrowser, recordProblems, recordRequests } from "../helpers/browser.ts";

/**
 * The form builder's editors are not routed in the console yet, so their browser tests bundle the real
 * components (editors-harness-page.tsx) for the browser with Bun.build and serve them on loopback under the
 * console's own CSP, with the site's base stylesheet, as the console would.
 */
export interface EditorsHarness {
  origin: string;
  browser: Browser;
  open(query: string, viewport?: { width: number; height: number }): Promise<{ page: Page; problems: string[]; requests: string[] }>;
  close(): Promise<void>;
}

const SITE = join(import.meta.dir, "..", "..", "site", "src");

export async function startEditorsHarness(): Promise<EditorsHarness> {
  const outDir = mkdtempSync(join(tmpdir(), "editors-"));
  const built = await Bun.build({
    entrypoints: [join(import.meta.dir, "editors-harness-page.tsx")],
    outdir: outDir,
    target: "browser",
    naming: "[name].[ext]",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!built.success) throw new Error(built.logs.map(String).join("\n"));
  const built_css = readdirSync(outDir).filter((name) => name.endsWith(".css"));
  const styles = [join(SITE, "styles", "base.css"), ...built_css.map((name) => join(outDir, name))].map((file) => readFileSync(file, "utf8")).join("\n");
  const script = readFileSync(join(outDir, "editors-harness-page.js"));
  rmSync(outDir, { recursive: true, force: true });
  const csp = pageCsp([]);
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/harness.js") return new Response(script, { headers: { "Content-Type": "text/javascript" } });
      if (path === "/harness.css") return new Response(styles, { headers: { "Content-Type": "text/css" } });
      const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Editors</title><link rel="stylesheet" href="/harness.css"></head><body><div id="root"></div><script type="module" src="/harness.js"></script></body></html>`;
      return new Response(page, { headers: { "Content-Type": "text/html", "Content-Security-Policy": csp } });
    },
  });
  const browser = await launchBrowser();
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    browser,
    async open(query, viewport = { width: 1024, height: 800 }) {
      const page = await browser.newPage({ viewport });
      const problems = recordProblems(page);
      const requests = recordRequests(page);
      await page.goto(`${origin}/?${query}`);
      await page.locator("main > h1").waitFor();
      return { page, problems, requests };
    },
    async close() {
      await browser.close();
      server.stop(true);
    },
  };
}

/** The value the builder last received, once the editor has reported something. */
export async function reported(page: Page): Promise<string> {
  await page.locator("#reported[data-reported='yes']").waitFor({ state: "attached" });
  return (await page.locator("#reported").textContent()) ?? "";
}

export async function nothingReported(page: Page): Promise<boolean> {
  return (await page.locator("#reported").getAttribute("data-reported")) === "no";
}
