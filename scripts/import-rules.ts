import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The one-way import rules of the house (docs/decisions/003-import-rules.md):
 * site → api/shared only; reporter islands and the admin console never import each other;
 * admin features do not import each other; db → nothing of api but api/shared (the demo seed also api/lib);
 * api/shared → nothing outside itself; nothing imports tests or scripts but tests and scripts.
 */
export interface Violation {
  file: string;
  imported: string;
  rule: string;
}

const SOURCE = /\.(ts|tsx|astro|mts)$/;
const IMPORT = /(?:import|export)\s[^'"`;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

function listFiles(root: string, dir: string, out: string[]): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) listFiles(root, full, out);
    else if (SOURCE.test(name)) out.push(relative(root, full).split("\\").join("/"));
  }
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

function featureOf(path: string): string | null {
  const match = /^site\/src\/admin\/features\/([^/]+)\//.exec(path);
  return match ? match[1]! : null;
}

export function ruleBroken(from: string, to: string): string | null {
  if (under(from, "site")) {
    if (!under(to, "site") && !under(to, "api/shared")) return "site may import only site/ and api/shared/";
    if (under(from, "site/src/islands") && under(to, "site/src/admin")) return "reporter islands never import admin code";
    if (under(from, "site/src/admin") && under(to, "site/src/islands")) return "the admin console never imports reporter islands";
    const fromFeature = featureOf(from);
    const toFeature = featureOf(to);
    if (fromFeature && toFeature && fromFeature !== toFeature) return "admin features do not import each other";
  }
  if (under(from, "api/shared") && !under(to, "api/shared")) return "api/shared is pure: it imports nothing outside itself";
  // The demo seed is operator data, not the data layer: it may use the server's helpers (hashing, report ids).
  const seedMayUse = under(from, "db/seed") && under(to, "api/lib");
  if (under(from, "db") && under(to, "api") && !under(to, "api/shared") && !seedMayUse) return "db imports nothing of api but api/shared";
  if (under(from, "api") && (under(to, "site") || under(to, "scripts") || under(to, "tests"))) return "api never imports site, scripts or tests";
  if (under(from, "api/modules") && under(to, "api/http")) return "modules do not depend on the HTTP layer";
  return null;
}

export function findViolations(root: string, folders = ["api", "db", "site", "scripts", "tests"]): Violation[] {
  const files: string[] = [];
  for (const folder of folders) listFiles(root, join(root, folder), files);
  const violations: Violation[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier || !specifier.startsWith(".")) continue;
      const target = relative(root, resolve(dirname(join(root, file)), specifier)).split("\\").join("/");
      const rule = ruleBroken(file, target);
      if (rule) violations.push({ file, imported: specifier, rule });
    }
  }
  return violations;
}
