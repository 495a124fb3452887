// PGlite's WebAssembly and file-system bundle, imported as files so `bun build --compile` embeds
// them in the single executable (PGlite would otherwise look for them beside its own module). The
// package exports no subpath for them, hence the path into node_modules.
import pgliteWasmPath from "../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import initdbWasmPath from "../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import fsBundlePath from "../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };
// The same for the pg_trgm extension, which a migration creates (decision 012): PGlite's own
// `contrib/pg_trgm` points beside its module, which is not there in the executable.
import pgTrgmBundlePath from "../node_modules/@electric-sql/pglite/dist/pg_trgm.tar.gz" with { type: "file" };
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PGliteOptions } from "@electric-sql/pglite";

type Extensions = NonNullable<PGliteOptions["extensions"]>;

/** Where a compiled executable keeps its embedded files (Linux and macOS, Windows). */
const EMBEDDED = /^(\/\$bunfs\/|[A-Za-z]:[\\/]~BUN[\\/])/;

let privateDir: string | undefined;

/**
 * PGlite streams an extension's bundle with node:fs, which cannot open a file embedded in the
 * executable (Bun.file can). Such a bundle is copied into a directory of this process's own,
 * removed when it exits; from a checkout the file is used where it is.
 */
async function readableByNodeFs(path: string, name: string): Promise<string> {
  if (!EMBEDDED.test(path)) return path;
  if (!privateDir) {
    // mkdtemp makes the directory readable by this user only, so nobody can swap the bundle.
    const dir = mkdtempSync(join(tmpdir(), "lantern-pglite-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    privateDir = dir;
  }
  const copy = join(privateDir, `${name}.tar.gz`);
  await Bun.write(copy, Bun.file(path));
  return copy;
}

let extensions: Promise<Extensions> | undefined;

/**
 * Extensions every PGlite of Lantern loads. A data directory whose schema uses one cannot be
 * queried without it, so the server and the tests' databases alike pass these.
 */
export function pgliteExtensions(): Promise<Extensions> {
  extensions ??= (async () => ({ pg_trgm: pathToFileURL(await readableByNodeFs(pgTrgmBundlePath, "pg_trgm")) }))();
  return extensions;
}

let cached: Promise<Pick<PGliteOptions, "pgliteWasmModule" | "initdbWasmModule" | "fsBundle" | "extensions">> | undefined;

export function pgliteAssets() {
  cached ??= (async () => ({
    pgliteWasmModule: await WebAssembly.compile(await Bun.file(pgliteWasmPath).arrayBuffer()),
    initdbWasmModule: await WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()),
    fsBundle: Bun.file(fsBundlePath),
    extensions: await pgliteExtensions(),
  }))();
  return cached;
}
