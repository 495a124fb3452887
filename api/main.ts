import { loadConfigOrExit } from "./config.ts";
import { startLantern } from "./boot.ts";
import { seedDemoWhenEmbedded, type DemoSeedOutcome } from "./demo.ts";
import { extractEmbedded } from "./embedded.ts";
import { logError } from "./lib/log.ts";
import { startBanner } from "./start-banner.ts";

const config = loadConfigOrExit();

// The last line of defence: every input is handled where it arrives, but should a fault slip
// through, one client's request must never take the server down for everyone else.
process.on("unhandledRejection", (reason) => logError("Unhandled rejection", reason));
process.on("uncaughtException", (error) => logError("Uncaught exception", error));

try {
  const embedded = await extractEmbedded(config.dataDir);
  let seed: DemoSeedOutcome = { kind: "existing", demo: false };
  const lantern = await startLantern(config, {
    ...(embedded ?? {}),
    afterMigrate: async (database) => {
      seed = await seedDemoWhenEmbedded(config, database);
    },
  });
  if (config.logLevel === "info") console.log(startBanner(config, lantern.server.port!, seed).join("\n"));
  const shutdown = async () => {
    await lantern.stop();
    process.exit(0);
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
} catch (error) {
  logError("Lantern could not start", error);
  process.exit(1);
}
