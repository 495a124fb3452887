import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PreparedClusterFiles } from "../db/prepared-cluster.ts";

/**
 * In the single executable (`bun run build`), the site build and the migrations are embedded as
 * files. They are written out once per build into DATA_DIR/.runtime/<hash>, and the ordinary
 * file-based code paths serve and migrate from there. The prepared cluster (decision 026) is read
 * where it is embedded: it is needed only by a fresh data directory, and only once.
 */
export interface EmbeddedFiles {
  site: Record<string, string>;
  migrations: Record<string, string>;
  preparedCluster?: PreparedClusterFiles;
}

declare global {
  var __LANTERN_EMBEDDED__: EmbeddedFiles | undefined;
}

export async function extractEmbedded(dataDir: string): Promise<{ siteRoot: string; migrationsFolder: string; preparedCluster: PreparedClusterFiles | null } | null> {
  const embedded = globalThis.__LANTERN_EMBEDDED__;
  if (!embedded) return null;
  const hash = createHash("sha256");
  const all = [...Object.entries(embedded.site).map(([k, v]) => [`site/${k}`, v] as const), ...Object.entries(embedded.migrations).map(([k, v]) => [`migrations/${k}`, v] as const)];
  const contents = await Promise.all(all.map(async ([name, path]) => [name, new Uint8Array(await Bun.file(path).arrayBuffer())] as const));
  for (const [name, bytes] of contents) hash.update(name).update(bytes);
  const root = join(dataDir, ".runtime", hash.digest("hex").slice(0, 16));
  if (!existsSync(join(root, ".complete"))) {
    for (const [name, bytes] of contents) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), bytes);
    }
    writeFileSync(join(root, ".complete"), "");
  }
  return { siteRoot: join(root, "site"), migrationsFolder: join(root, "migrations"), preparedCluster: embedded.preparedCluster ?? null };
}
