import { ensureClusterBuiltInChild } from "./cluster-build.ts";
import { ensureServerBuilt, SERVER_BUNDLE } from "./server-build.ts";
import { ensureSiteBuilt } from "./site-build.ts";
import { SIGNALS_FORWARDED_BY_PARENT } from "../api/lib/stop-signals.ts";

// A package runner (`bun run start`, `npm start`) forwards the signals it gets to this process, which
// had them already when they were sent to the process group: the server must not take the copy for a
// second signal (decision 069). The runner names the script it runs in npm_lifecycle_event.
if (process.env.npm_lifecycle_event) (globalThis as Record<symbol, unknown>)[SIGNALS_FORWARDED_BY_PARENT] = true;

// `bun run start`: build what is missing or stale, then migrate and serve (api/main.ts does both).
// The prepared cluster only makes a first start faster (decision 026), and the server bundle every
// start (decision 023): if either cannot be built, the server starts without it, as it always could.
const [, , bundled] = await Promise.all([
  ensureSiteBuilt(),
  ensureClusterBuiltInChild().catch((error: unknown) => console.error(`${error instanceof Error ? error.message : String(error)}; continuing without it.`)),
  ensureServerBuilt().then(
    () => true,
    (error: unknown) => {
      console.error(`${error instanceof Error ? error.message : String(error)}; starting from the sources instead.`);
      return false;
    },
  ),
]);
await import(bundled ? SERVER_BUNDLE : "../api/main.ts");
