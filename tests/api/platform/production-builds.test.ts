import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { weighPage } from "../../../scripts/bench/site-weight.ts";
import { siteIsCurrent } from "../../../scripts/site-build.ts";

/**
 * Builds that do not depend on the environment they happen in (decision 068). NODE_ENV=development
 * is a value the README documents for the server; in the environment of a build it once gave the
 * reporter pages and the console React's development build (the form page 140 KB gzip instead of
 * 80), stamped as current, so later starts and benches served it.
 */
const ROOT = join(import.meta.dir, "..", "..", "..");
const work = mkdtempSync(join(tmpdir(), "lantern-builds-"));
const siteDir = join(work, "site");
const serverDir = join(work, "server");

/** Runs `code` in a child whose environment says NODE_ENV=development, as an operator's shell might. */
function inDevelopmentShell(code: string): void {
  const child = Bun.spawnSync(["bun", "-e", code], { cwd: ROOT, env: { ...process.env, NODE_ENV: "development" }, stdout: "pipe", stderr: "pipe" });
  if (child.exitCode !== 0) throw new Error(child.stderr.toString());
}

beforeAll(() => {
  inDevelopmentShell(`import { buildSite } from "./scripts/site-build.ts"; await buildSite(${JSON.stringify(siteDir)});`);
  inDevelopmentShell(`import { serverBundling } from "./scripts/server-build.ts";
    const result = await Bun.build({ entrypoints: ["api/main.ts"], target: "bun", outdir: ${JSON.stringify(serverDir)}, ...serverBundling });
    if (!result.success) throw new Error(result.logs.join("; "));`);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The built scripts holding one of `texts`, by name. */
const scriptsHolding = (dir: string, texts: string[]) =>
  readdirSync(dir)
    .filter((name) => name.endsWith(".js") && texts.some((text) => readFileSync(join(dir, name), "utf8").includes(text)));

test("a site built with NODE_ENV=development in the environment ships React's production build, within the page-weight budget, and its stamp vouches for it", () => {
  // Warnings only React's development build has (decision 024 weighs the production one).
  expect(scriptsHolding(join(siteDir, "_astro"), ["Each child in a list should have a unique", "cannot be a descendant of"])).toEqual([]);
  const reportPage = weighPage("report/index.html", siteDir);
  expect(reportPage.gzipBytes).toBeLessThanOrEqual(80_000);
  expect(weighPage("admin/index.html", siteDir).gzipBytes).toBeLessThanOrEqual(170_000);
  // The stamp is of these sources, read here under NODE_ENV=test: what it vouches for does not depend on the mode.
  expect(siteIsCurrent(siteDir)).toBe(true);
});

test("a server bundle built with NODE_ENV=development reads NODE_ENV when it runs and carries graphql's production build", () => {
  // Left to the bundler, every package's `process.env.NODE_ENV` becomes the build's "development".
  expect(scriptsHolding(serverDir, ["process.env.NODE_ENV"]).length).toBeGreaterThan(0);
  expect(scriptsHolding(serverDir, ["Ensure that there is only one instance of"])).toEqual([]);
});
