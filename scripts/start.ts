import { ensureClusterBuiltInChild } from "./cluster-build.ts";
import { ensureSiteBuilt } from "./site-build.ts";

// `bun run start`: build what is missing or stale, then migrate and serve (api/main.ts does both).
// The prepared cluster only makes a first start faster (decision 026): if it cannot be built, the
// server initialises its database itself, as it always could.
await Promise.all([
  ensureSiteBuilt(),
  ensureClusterBuiltInChild().catch((error: unknown) => console.error(`${error instanceof Error ? error.message : String(error)}; continuing without it.`)),
]);
await import("../api/main.ts");
