import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CLUSTER_MANIFEST, CLUSTER_TARBALL, DEFAULT_PREPARED_CLUSTER_DIR } from "../db/prepared-cluster.ts";
import { buildCluster, clusterIsCurrent } from "./cluster-build.ts";
import { serverBundling } from "./server-build.ts";
import { ensureSiteBuilt } from "./site-build.ts";

/**
 * `bun run build`: the site, then one executable (dist/lantern, or `--outfile FILE`) that serves
 * everything and runs the operators' commands (scripts/lantern.ts). The site build, the migrations
 * and the prepared cluster (decision 026) are embedded through a generated entry that imports each
 * as a file; the cleaning worker (decision 060) is a second entry point. Like the site and the
 * server bundle, it is the same whatever NODE_ENV the build ran under (decision 068).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STAGE = join(ROOT, "dist", ".compile");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const { values: flags } = parseArgs({ options: { outfile: { type: "string" } } });
// The site build is a production one whatever NODE_ENV says, so a current one is the one to embed.
await ensureSiteBuilt();
if (!clusterIsCurrent()) await buildCluster();
rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });

const lines: string[] = [];
const entries = (label: "site" | "migrations", dir: string) =>
  filesUnder(dir)
    .filter((file) => !file.endsWith(".source-hash"))
    .map((file, index) => {
      const name = `${label}${index}`;
      lines.push(`import ${name} from ${JSON.stringify(relative(STAGE, file))} with { type: "file" };`);
      return `${JSON.stringify(relative(dir, file).split("\\").join("/"))}: ${name}`;
    });
const site = entries("site", join(ROOT, "site", "dist"));
const migrations = entries("migrations", join(ROOT, "db", "migrations"));
lines.push(`import clusterTarball from ${JSON.stringify(relative(STAGE, join(DEFAULT_PREPARED_CLUSTER_DIR, CLUSTER_TARBALL)))} with { type: "file" };`);
lines.push(`import clusterManifest from ${JSON.stringify(relative(STAGE, join(DEFAULT_PREPARED_CLUSTER_DIR, CLUSTER_MANIFEST)))} with { type: "file" };`);
const cluster = "preparedCluster: { tarball: clusterTarball, manifest: clusterManifest }";
lines.push(`globalThis.__LANTERN_EMBEDDED__ = { site: { ${site.join(", ")} }, migrations: { ${migrations.join(", ")} }, ${cluster} };`);
lines.push(`await import(${JSON.stringify(relative(STAGE, join(ROOT, "scripts", "lantern.ts")))});`);
writeFileSync(join(STAGE, "entry.ts"), `${lines.join("\n")}\n`);

const outfile = flags.outfile ? resolve(flags.outfile) : join(ROOT, "dist", "lantern");
// The cleaning worker (decision 060) is a second entry point, as Bun's executables take workers; inside
// the executable its path is relative to the entries' common folder, the checkout's root.
const cleanWorker = join("api", "modules", "files", "clean-worker.ts");
const result = await Bun.build({
  entrypoints: [join(STAGE, "entry.ts"), join(ROOT, cleanWorker)],
  compile: { outfile },
  minify: true,
  ...serverBundling,
  define: { ...serverBundling.define, LANTERN_CLEAN_WORKER: JSON.stringify(`./${cleanWorker.split("\\").join("/")}`) },
});
rmSync(STAGE, { recursive: true, force: true });
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const shown = relative(process.cwd(), outfile).startsWith("..") ? outfile : `./${relative(process.cwd(), outfile)}`;
console.log(`Built ${shown}: \`${shown} --help\` lists its commands; with none it serves.`);
