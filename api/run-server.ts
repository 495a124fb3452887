import type { Config } from "./config.ts";
import type { DemoSeedOutcome, DemoSeedPolicy } from "./demo.ts";
import { logError } from "./lib/log.ts";
import { MasterKeyError } from "./lib/master-key.ts";
import { signalsForwardedByParent, stopSignals } from "./lib/stop-signals.ts";
import type { RunningLantern } from "./boot.ts";
import { pgliteAssets } from "../db/pglite-assets.ts";

/** On a signal, new requests are refused with 503 until none has come for this long; then the listener closes (decision 056). */
const QUIET_BEFORE_CLOSE_MS = 500;

export interface ServeOptions {
  /** Whether a brand-new database gets the demo organisations (api/demo.ts). */
  demo: DemoSeedPolicy;
  /** How this program creates the first account, as the start banner of an empty database names it. */
  createSuperAdminCommand: string;
}

/**
 * Serves until a signal: migrate, seed as `options.demo` says, listen, print where to go. Every
 * failure to start ends the process (78 for a master key that does not fit, 75 for a data directory
 * another process holds, 74 for one that does not open, 1 otherwise). This
 * module imports little on purpose: the server's modules load after PGlite's compilation has begun.
 */
export async function runServer(config: Config, options: ServeOptions): Promise<void> {
  // The last line of defence: every input is handled where it arrives, but should a fault slip
  // through, one client's request must never take the server down for everyone else.
  process.on("unhandledRejection", (reason) => logError("Unhandled rejection", reason));
  process.on("uncaughtException", (error) => logError("Uncaught exception", error));

  // PGlite's WebAssembly compiles on the engine's own threads: started now, it is done by the time
  // the rest of the server (GraphQL schema and all, imported below) has loaded. Decision 023.
  // A failure here is not lost: opening the database awaits the same promise and reports it.
  if (config.database.kind === "pglite") void pgliteAssets().catch(() => {});

  // The first signal stops gracefully (decision 056) and exits 0; a second one, while that runs, ends
  // the process at once with the shell's code for the signal. Under `bun run start`, a copy of the
  // first that `bun run` forwards is not a second signal. Listened to from the first moment: /readyz
  // answers as soon as the server listens, and a signal with no listener yet ended the process with no
  // stop at all; one that comes during the start stops the server once it has started (decision 069).
  const verdict = stopSignals({ forwardedByParent: signalsForwardedByParent() });
  let stopRequested: NodeJS.Signals | null = null;
  let running: RunningLantern | null = null;
  const beginStop = (lantern: RunningLantern, signal: NodeJS.Signals) => {
    if (config.logLevel === "info") console.log(`${signal}: stopping, requests under way get ${config.shutdownGraceMs / 1000} s`);
    lantern.stop({ quietMs: QUIET_BEFORE_CLOSE_MS }).then(
      () => process.exit(0),
      (error: unknown) => {
        logError("Lantern did not stop cleanly", error);
        process.exit(1);
      },
    );
  };
  const shutdown = (signal: NodeJS.Signals) => {
    const seen = verdict(signal);
    if (seen === "copy") return;
    if (seen === "force") process.exit(signal === "SIGINT" ? 130 : 143);
    if (running) beginStop(running, signal);
    else {
      stopRequested = signal;
      if (config.logLevel === "info") console.log(`${signal}: stopping once started`);
    }
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);

  try {
    const [{ startLantern }, { seedDemoOnFirstStart }, { extractEmbedded }, { startBanner }] = await Promise.all([
      import("./boot.ts"),
      import("./demo.ts"),
      import("./embedded.ts"),
      import("./start-banner.ts"),
    ]);
    const embedded = await extractEmbedded(config.dataDir);
    let seed: DemoSeedOutcome = { kind: "existing", demo: false };
    const lantern = await startLantern(config, {
      ...(embedded ?? {}),
      afterMigrate: async (database) => {
        seed = await seedDemoOnFirstStart(config, database, options.demo);
      },
    });
    if (config.logLevel === "info") console.log(startBanner(config, lantern.server.port!, seed, options.createSuperAdminCommand).join("\n"));
    running = lantern;
    if (stopRequested) beginStop(lantern, stopRequested);
  } catch (error) {
    // A master key that does not fit is the operator's to fix: one line, no stack.
    if (error instanceof MasterKeyError) {
      console.error(error.message);
      process.exit(78);
    }
    // A directory another process holds, or one that does not open: one line saying what to do.
    const { StartRefusedError } = await import("./lib/start-refused.ts");
    if (error instanceof StartRefusedError) {
      console.error(error.message);
      process.exit(error.exitCode);
    }
    logError("Lantern could not start", error);
    process.exit(1);
  }
}
