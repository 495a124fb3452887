import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writePrecompressed } from "../api/http/static-site.ts";
import { hashSources } from "./source-hash.ts";

/**
 * Builds the Astro site when its build is missing or older than its sources. "Older" is decided by
 * a hash of every source file (not mtimes, which a fresh clone resets), kept beside the build.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SITE = join(ROOT, "site");
const DIST = join(SITE, "dist");
const STAMP_NAME = ".source-hash";
// This script too: what it adds to Astro's output (the compressed copies) is part of the build.
const SOURCES = [join(SITE, "src"), join(SITE, "public"), join(SITE, "astro.config.ts"), join(ROOT, "api", "shared"), join(ROOT, "bun.lock"), fileURLToPath(import.meta.url), join(ROOT, "scripts", "source-hash.ts")];

const sourceHash = () => hashSources(ROOT, SOURCES);

/** `dist`: another build than the one the server serves (a test's). */
export function siteIsCurrent(dist = DIST): boolean {
  const stamp = join(dist, STAMP_NAME);
  return existsSync(stamp) && readFileSync(stamp, "utf8").trim() === sourceHash();
}

/**
 * Always a production build (decision 068): the bundler takes React's development build, twice the
 * weight with its warnings, when NODE_ENV=development is in the environment, a value the README
 * documents for the server. The stamp names the sources alone, which is right only because the mode
 * never varies. `outDir`: another place than the one the server serves (a test's).
 */
export async function buildSite(outDir = DIST): Promise<void> {
  const expected = sourceHash();
  // Astro 7 refuses Node 20, so it runs on Bun's runtime.
  const child = Bun.spawn(["bun", "--bun", "astro", "build", "--root", SITE, "--outDir", outDir, "--silent"], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
    env: { ...process.env, NODE_ENV: "production", ASTRO_TELEMETRY_DISABLED: "1" },
  });
  if ((await child.exited) !== 0) throw new Error("The site build failed.");
  // The server would otherwise compress every file at each start (seconds of CPU; decision 023).
  writePrecompressed(outDir);
  writeFileSync(join(outDir, STAMP_NAME), expected);
}

export async function ensureSiteBuilt(): Promise<void> {
  if (siteIsCurrent()) return;
  console.log("Building the site…");
  await buildSite();
}

if (import.meta.main) {
  await (process.argv.includes("--force") ? buildSite() : ensureSiteBuilt());
}
