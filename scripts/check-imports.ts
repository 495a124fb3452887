import { fileURLToPath } from "node:url";
import { findViolations } from "./import-rules.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const violations = findViolations(root);
if (violations.length > 0) {
  for (const v of violations) console.error(`${v.file}: imports ${v.imported} — ${v.rule}`);
  console.error(`${violations.length} import rule violation(s).`);
  process.exit(1);
}
console.log("Import rules hold.");
