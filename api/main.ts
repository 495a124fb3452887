import { loadConfigOrExit } from "./config.ts";
import { startLantern } from "./boot.ts";
import { seedDemoWhenEmbedded } from "./demo.ts";
import { extractEmbedded } from "./embedded.ts";
import { logError } from "./lib/log.ts";

const config = loadConfigOrExit();
try {
  const embedded = await extractEmbedded(config.dataDir);
  const lantern = await startLantern(config, {
    ...(embedded ?? {}),
    afterMigrate: (database) => seedDemoWhenEmbedded(config, database),
  });
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
