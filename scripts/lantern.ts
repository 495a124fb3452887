import { runCommandLine } from "./commands/table.ts";

// The single executable's entry (scripts/build.ts embeds the site and migrations, then imports this).
// With no command it serves, as operators' scripts and container images run it; it never seeds the
// demo unless asked (decision 068).
const outcome = await runCommandLine(process.argv.slice(2), { name: "lantern", defaultCommand: "serve" });
if (outcome !== "serving") process.exit(outcome);
