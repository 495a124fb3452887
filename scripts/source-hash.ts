import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/**
 * A sha256 of every file under `sources` (files or folders), by path relative to `root` and content,
 * in a fixed order: what a build is stamped with, so a build is redone when a source changed. Not
 * mtimes, which a fresh clone resets. `extra` goes in first (a tool's version, say).
 */
export function hashSources(root: string, sources: string[], extra = ""): string {
  const hash = createHash("sha256");
  hash.update(extra);
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hash.update(relative(root, path));
    hash.update(readFileSync(path));
  };
  for (const source of sources) visit(source);
  return hash.digest("hex");
}
