import { loadConfigOrExit } from "./config.ts";
import { runServer } from "./run-server.ts";

// A checkout's server (`bun run start`, whose bundle is built from this file): it is for trying
// Lantern, so an empty embedded database outside production gets the demo. The operator's binary
// starts through its command line instead (scripts/commands), and seeds only when asked.
await runServer(loadConfigOrExit(), { demo: "when-embedded-outside-production", createSuperAdminCommand: "bun run cli create-superadmin" });
