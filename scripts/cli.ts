import { runCommandLine } from "./commands/table.ts";

// `bun run cli COMMAND`: the operators' commands in a checkout, the same table as the binary's.
const outcome = await runCommandLine(process.argv.slice(2), { name: "bun run cli" });
if (outcome !== "serving") process.exit(outcome);
