import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";
import { fileURLToPath } from "node:url";
import { hashSources } from "./source-hash.ts";

/**
 * The server as one bundle for `bun run start` (decision 023, addendum): importing the sources
 * file by file (the GraphQL schema, drizzle, Yoga: several hundred modules) costs about 1 s of CPU
 * at every start, the bundle half that. It is rebuilt when a source changed, as the site is: by a
 * hash of every source (not mtimes, which a fresh clone resets), kept beside the build.
 *
 * The bundle's files sit directly in dist/, one level below the checkout like api/ and db/, so the
 * few paths the server finds relative to its own module (the site build, the migrations, the
 * prepared cluster: `new URL("../…", import.meta.url)`) name the same folders from either. Assets
 * (PGlite's WebAssembly, the argon2 addon) are copied beside it and named by absolute path: the
 * bundle belongs to this checkout, like node_modules.
 *
 * The cleaning worker (api/modules/files/clean-worker.ts, decision 060) runs on a thread of its own
 * and so needs a module file of its own: it is built as a second entry beside the bundle, and the
 * bundle is told its name (LANTERN_CLEAN_WORKER, which cleaning-pool.ts resolves against its own URL).
 */
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
export const SERVER_BUNDLE = join(DIST, "lantern-server.js");
const STAMP = join(DIST, ".lantern-server-hash");
const PREFIXES = ["lantern-server", "lantern-asset-"];
const CLEAN_WORKER_SOURCE = join(ROOT, "api", "modules", "files", "clean-worker.ts");
const CLEAN_WORKER_BUNDLE = "lantern-server-clean-worker.js";
const SOURCES = [join(ROOT, "api"), join(ROOT, "db"), join(ROOT, "package.json"), join(ROOT, "bun.lock"), fileURLToPath(import.meta.url), join(ROOT, "scripts", "source-hash.ts")];

// The checkout's own path too: the bundle names its assets by absolute path, so a moved checkout rebuilds it.
const sourceHash = () => hashSources(ROOT, SOURCES, `${Bun.version}\n${ROOT}`);

export function serverBundleIsCurrent(): boolean {
  return existsSync(SERVER_BUNDLE) && existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === sourceHash();
}

/**
 * graphql's own production build, as `bun api/main.ts` resolves it. Bun's bundler resolves
 * packages' "development" exports unless NODE_ENV=production when the build starts, and graphql's
 * turns on its development mode: an extra check of every object against other copies of graphql on
 * every `instanceof` of the execution.
 */
const graphqlProductionExports: BunPlugin = {
  name: "graphql production exports",
  setup(build) {
    const packageDir = dirname(Bun.resolveSync("graphql/package.json", ROOT));
    const exports = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { exports: Record<string, { default?: { bun?: string } }> }).exports;
    build.onResolve({ filter: /^graphql(\/[\w./-]+)?$/ }, (args) => {
      const target = exports[`.${args.path.slice("graphql".length)}`]?.default?.bun;
      return target ? { path: join(packageDir, target) } : undefined;
    });
  },
};

/**
 * What makes a bundle of the server the same whatever NODE_ENV the build ran under (decision 068):
 * the bundler writes the build's NODE_ENV ("development" when unset) in place of every
 * `process.env.NODE_ENV`, which froze packages' development branches (postcss's warnings, for one)
 * into the bundle and the executable, whatever mode the server later ran in. Kept a read at run time,
 * the packages see the mode the server runs in, as they do from the sources.
 */
export const serverBundling = {
  plugins: [graphqlProductionExports],
  define: { "process.env.NODE_ENV": "process.env.NODE_ENV" },
} satisfies Pick<Parameters<typeof Bun.build>[0], "plugins" | "define">;

export async function buildServerBundle(): Promise<void> {
  const expected = sourceHash();
  mkdirSync(DIST, { recursive: true });
  // A half-written bundle must never look current: the stamp goes first and comes back last.
  rmSync(STAMP, { force: true });
  for (const name of readdirSync(DIST)) if (PREFIXES.some((prefix) => name.startsWith(prefix))) rmSync(join(DIST, name), { force: true });
  const result = await Bun.build({
    entrypoints: [join(ROOT, "api", "main.ts")],
    target: "bun",
    outdir: DIST,
    splitting: true,
    naming: { entry: "lantern-server.[ext]", chunk: "lantern-server-[hash].[ext]", asset: "lantern-asset-[name]-[hash].[ext]" },
    publicPath: `${DIST}/`,
    ...serverBundling,
    define: { ...serverBundling.define, LANTERN_CLEAN_WORKER: JSON.stringify(`./${CLEAN_WORKER_BUNDLE}`) },
  });
  if (!result.success) throw new Error(`The server bundle did not build: ${result.logs.map((log) => log.message).join("; ")}`);
  const worker = await Bun.build({ entrypoints: [CLEAN_WORKER_SOURCE], target: "bun", outdir: DIST, naming: { entry: CLEAN_WORKER_BUNDLE }, ...serverBundling });
  if (!worker.success) throw new Error(`The cleaning worker did not build: ${worker.logs.map((log) => log.message).join("; ")}`);
  writeFileSync(STAMP, expected);
}

export async function ensureServerBuilt(): Promise<void> {
  if (serverBundleIsCurrent()) return;
  await buildServerBundle();
}

if (import.meta.main) {
  await (process.argv.includes("--force") ? buildServerBundle() : ensureServerBuilt());
}
