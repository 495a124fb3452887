import type { DatabaseHandle } from "../db/client.ts";
import { demoExists, seedDemo, type DemoReportCredential } from "../db/seed/demo.ts";
import { users } from "../db/schema/index.ts";
import type { Config } from "./config.ts";

export type DemoSeedOutcome =
  /** The demo was written now; its report logins are worth showing once. */
  | { kind: "seeded"; reports: DemoReportCredential[] }
  /** Accounts exist already (an earlier demo, or real staff): nothing was written. */
  | { kind: "existing"; demo: boolean }
  /** Nothing was written and nobody can sign in yet. */
  | { kind: "empty" };

/**
 * When a start seeds the demo organisations into a brand-new database:
 * - "asked": the operator said so (`lantern serve --demo`), whatever the database;
 * - "when-embedded-outside-production": a checkout's `bun run start` (and `bun api/main.ts`), which is
 *   for trying Lantern: the embedded database outside production only;
 * - "never": the operator's binary and `serve` without `--demo`: these passwords are public.
 */
export type DemoSeedPolicy = "asked" | "when-embedded-outside-production" | "never";

export async function seedDemoOnFirstStart(config: Config, database: DatabaseHandle, policy: DemoSeedPolicy): Promise<DemoSeedOutcome> {
  // Only a brand-new database is seeded; one whose demo data was deleted on purpose stays as it is.
  const [anyUser] = await database.db.select({ id: users.id }).from(users).limit(1);
  if (anyUser) return { kind: "existing", demo: await demoExists(database.db) };
  const wanted = policy === "asked" || (policy === "when-embedded-outside-production" && config.database.kind === "pglite" && !config.production);
  if (!wanted) return { kind: "empty" };
  const result = await seedDemo(database.db);
  return result.seeded ? { kind: "seeded", reports: result.reports } : { kind: "existing", demo: true };
}
