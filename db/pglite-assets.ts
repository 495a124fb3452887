// PGlite's WebAssembly and file-system bundle, imported as files so `bun build --compile` embeds
// them in the single executable (PGlite would otherwise look for them beside its own module). The
// package exports no subpath for them, hence the path into node_modules.
import pgliteWasmPath from "../node_modules/@electric-sql/pglite/dist/pglite.wasm" with { type: "file" };
import initdbWasmPath from "../node_modules/@electric-sql/pglite/dist/initdb.wasm" with { type: "file" };
import fsBundlePath from "../node_modules/@electric-sql/pglite/dist/pglite.data" with { type: "file" };
import type { PGliteOptions } from "@electric-sql/pglite";

let cached: Promise<Pick<PGliteOptions, "pgliteWasmModule" | "initdbWasmModule" | "fsBundle">> | undefined;

export function pgliteAssets() {
  cached ??= (async () => ({
    pgliteWasmModule: await WebAssembly.compile(await Bun.file(pgliteWasmPath).arrayBuffer()),
    initdbWasmModule: await WebAssembly.compile(await Bun.file(initdbWasmPath).arrayBuffer()),
    fsBundle: Bun.file(fsBundlePath),
  }))();
  return cached;
}
