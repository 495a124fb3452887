/**
 * JavaScript shipped per page: every script a built page loads (its <script src>, modulepreloads
 * and Astro islands' component and renderer URLs) plus, transitively, what those import
 * statically, each file counted once and gzipped at level 9. Read from site/dist, no server needed.
 * The console's row names its three largest files, so a screen that stops being lazy shows up by name.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ensureClusterBuiltInChild } from "../cluster-build.ts";
import { REPO_ROOT } from "./processes.ts";
import { failedRow, type Row } from "./table.ts";

const DIST = join(REPO_ROOT, "site", "dist");
const KB = 1000;

/**
 * `bun scripts/site-build.ts` (its ensureSiteBuilt()) in a child, so its output goes to stderr, not
 * the table; and the prepared cluster, which `bun run start` also builds before a first start.
 */
export async function ensureSiteBuiltQuietly(): Promise<void> {
  const child = Bun.spawn({ cmd: [process.execPath, "scripts/site-build.ts"], cwd: REPO_ROOT, stdin: "ignore", stdout: 2, stderr: 2 });
  const code = await child.exited;
  if (code !== 0) throw new Error(`the site build failed (scripts/site-build.ts exited with code ${code})`);
  await ensureClusterBuiltInChild(2);
}

function gzipBytes(data: Uint8Array | string): number {
  return gzipSync(data, { level: 9 }).length;
}

/** Site-absolute paths of the scripts the page itself names. */
function entryScripts(html: string): string[] {
  const paths: string[] = [];
  for (const match of html.matchAll(/<script\b[^>]*\ssrc="([^"]+)"/gi)) paths.push(match[1]!);
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = /\shref="([^"]+)"/i.exec(match[0])?.[1];
    if (href && /\srel="modulepreload"/i.test(match[0])) paths.push(href);
  }
  for (const match of html.matchAll(/\s(?:component|renderer)-url="([^"]+)"/gi)) paths.push(match[1]!);
  return paths.map((path) => resolvePath(path, "/"));
}

/** A script URL as a path inside site/dist; another origin is refused, since it is not ours to weigh. */
function resolvePath(specifier: string, fromPath: string): string {
  const url = new URL(specifier, `http://site.invalid${fromPath}`);
  if (url.host !== "site.invalid") throw new Error(`a script comes from another origin: ${specifier}`);
  return url.pathname;
}

/** Static imports in minified output: `from"./x.js"` and `import"./x.js"` (not `import("./x.js")`); only paths, so a "from" in a string is not taken. */
function staticImports(code: string, fromPath: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.{0,2}\/[^"']+?\.m?js)["']/g)].map((match) => resolvePath(match[1]!, fromPath));
}

/** Inline executable scripts are shipped too, inside the HTML; weighed apart so the file figure stays comparable. */
function inlineScriptGzip(html: string): number {
  let code = "";
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    if (/\ssrc\s*=/i.test(attributes) || /\stype="(?!module"|text\/javascript")[^"]*"/i.test(attributes)) continue;
    code += match[2] ?? "";
  }
  return code ? gzipBytes(code) : 0;
}

interface Weight {
  files: number;
  gzipBytes: number;
  rawBytes: number;
  /** Every script counted, as site paths, with its gzip size. */
  scripts: Map<string, number>;
}

/** Scripts from these entry paths plus everything they import statically, each counted once. */
function weighScripts(entries: string[], from: string, dist = DIST): Weight {
  const seen = new Map<string, number>();
  const queue = [...entries];
  let gzipped = 0;
  let raw = 0;
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (seen.has(path)) continue;
    const onDisk = join(dist, path);
    if (!existsSync(onDisk)) throw new Error(`${from} loads ${path}, which is not in site/dist`);
    const code = readFileSync(onDisk);
    const size = gzipBytes(code);
    seen.set(path, size);
    gzipped += size;
    raw += code.length;
    queue.push(...staticImports(code.toString("utf8"), path));
  }
  if (seen.size === 0) throw new Error(`${from} loads no script files`);
  return { files: seen.size, gzipBytes: gzipped, rawBytes: raw, scripts: seen };
}

/** `dist`: another build than the one the server serves (a test's). */
export function weighPage(htmlPath: string, dist = DIST): Weight & { inlineGzipBytes: number } {
  const file = join(dist, htmlPath);
  if (!existsSync(file)) throw new Error(`${htmlPath} is not in the build`);
  const html = readFileSync(file, "utf8");
  return { ...weighScripts(entryScripts(html), htmlPath, dist), inlineGzipBytes: inlineScriptGzip(html) };
}

/** The built chunk (site path) whose file name starts with `name.` — a lazy screen of the console. */
function chunk(name: string): string {
  const file = readdirSync(join(DIST, "_astro")).find((candidate) => candidate.startsWith(`${name}.`) && candidate.endsWith(".js"));
  if (!file) throw new Error(`no ${name} chunk in site/dist/_astro`);
  return `/_astro/${file}`;
}

/**
 * The builder, its drag-and-drop kit and milkdown are lazy chunks of the console: the sign-in
 * screen must not download them, and what the builder's routes add is weighed apart.
 */
function builderRows(): Row[] {
  const shell = weighPage("admin/index.html");
  const lazy = ["form-builder-page", "rich-text-editor", "theme-editor"].map(chunk);
  for (const [page, weight] of [["the console's first load", shell], ["the report form page", weighPage("report/index.html")], ["the organisation page", weighPage("org/index.html")]] as const) {
    const leaked = lazy.filter((path) => weight.scripts.has(path));
    if (leaked.length > 0) throw new Error(`${page} includes ${leaked.join(", ")}`);
  }
  const builder = weighScripts(lazy, "the builder's routes");
  const added = [...builder.scripts.keys()].filter((path) => !shell.scripts.has(path));
  const addedGzip = added.reduce((sum, path) => sum + builder.scripts.get(path)!, 0);
  return [
    { name: "JS shipped, admin console", value: kb(shell.gzipBytes), unit: "KB gzip", note: `${shell.files} files, largest: ${largestFiles(shell, 3)}; no builder, drag-and-drop or milkdown code` },
    { name: "JS added on the form builder's routes", value: kb(addedGzip), unit: "KB gzip", note: `${added.length} lazy files: builder, drag-and-drop, milkdown, theme editor` },
  ];
}

/** "react.js 72.0 KB, app.js 27.6 KB, dialog.js 11.8 KB" (gzip): the files that make most of a page's weight, hashes left out. */
function largestFiles(weight: Weight, count: number): string {
  return [...weight.scripts]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([path, size]) => `${path.split("/").pop()!.replace(/\.[\w-]{8}\.js$/, ".js")} ${kb(size)} KB`)
    .join(", ");
}

function kb(bytes: number): string {
  return (bytes / KB).toFixed(1);
}

/** One row per page; `siteError` is why the build could not be brought up to date, if it could not. */
export function jsShippedRows(siteError: unknown): Row[] {
  const pages = [
    { name: "JS shipped, organisation page", html: "org/index.html", budget: "; budget 50 KB gzip" },
    { name: "JS shipped, report form page", html: "report/index.html", budget: "; budget 80 KB gzip" },
  ];
  const rows = pages.map(({ name, html, budget }): Row => {
    try {
      if (siteError) throw siteError;
      const weight = weighPage(html);
      const note = `${weight.files} files, ${kb(weight.rawBytes)} KB raw; +${kb(weight.inlineGzipBytes)} KB gzip inline in the HTML${budget}`;
      return { name, value: kb(weight.gzipBytes), unit: "KB gzip", note };
    } catch (error) {
      console.error(`bench: ${name} failed:`, error);
      return failedRow(name, "KB gzip", error);
    }
  });
  try {
    if (siteError) throw siteError;
    rows.push(...builderRows());
  } catch (error) {
    console.error("bench: the console's lazy builder could not be weighed:", error);
    rows.push(failedRow("JS shipped, admin console", "KB gzip", error));
  }
  return rows;
}
