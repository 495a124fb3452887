import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { CLUSTER_MANIFEST, CLUSTER_TARBALL, DEFAULT_PREPARED_CLUSTER_DIR } from "../db/prepared-cluster.ts";
import { buildCluster, clusterIsCurrent } from "./cluster-build.ts";
import { buildSite } from "./site-build.ts";

/**
 * `bun run build`: the site, then one executable (dist/lantern) that serves everything. The site
 * build, the migrations and the prepared cluster (decision 026) are embedded through a generated
 * entry that imports each as a file. The cleaning worker (decision 060) is a second entry point, as
 * Bun's executables take workers; inside the executable its path is relative to the checkout's root
 * (the entries' common folder), which LANTERN_CLEAN_WORKER gives cleaning-pool.ts.
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const STAGE = join(ROOT, "dist", ".compile");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

await buildSite();
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
lines.push(`await import(${JSON.stringify(relative(STAGE, join(ROOT, "api", "main.ts")))});`);
writeFileSync(join(STAGE, "entry.ts"), `${lines.join("\n")}\n`);

const outfile = join(ROOT, "dist", "lantern");
const cleanWorker = join("api", "modules", "files", "clean-worker.ts");
const define = `LANTERN_CLEAN_WORKER=${JSON.stringify(`./${cleanWorker.split("\\").join("/")}`)}`;
const command = ["bun", "build", "--compile", "--minify", "--define", define, join(STAGE, "entry.ts"), join(ROOT, cleanWorker), "--outfile", outfile];
const result = Bun.spawnSync(command, { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
if (result.exitCode !== 0) process.exit(result.exitCode ?? 1);
rmSync(STAGE, { recursive: true, force: true });
console.log(`Built ${relative(ROOT, outfile)}: run it with DATA_DIR and PORT set as for \`bun run start\`.`);
