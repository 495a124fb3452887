import type { DatabaseHandle } from "../db/client.ts";
import { demoExists, seedDemo, type DemoReportCredential } from "../db/seed/demo.ts";
import { users } from "../db/schema/index.ts";
import type { Config } from "./config.ts";

export type DemoSeedOutcome =
  /** The demo was written now; its report logins are worth showing once. */
  | { kind: "seeded"; reports: DemoReportCredential[] }
  /** Accounts exist already (an earlier demo, or real staff): nothing was written. */
  | { kind: "existing"; demo: boolean }
  /** Production, or a real Postgres, on an empty database: nothing was written and nobody can sign in yet. */
  | { kind: "empty" };

/**
 * The embedded mode (no DATABASE_URL) outside production is for trying Lantern, so it starts with
 * the demo organisations. Production never seeds known passwords by itself, and a real Postgres is
 * never seeded automatically: `bun run cli seed-demo` does it on purpose.
 */
export async function seedDemoWhenEmbedded(config: Config, database: DatabaseHandle): Promise<DemoSeedOutcome> {
  // Only a brand-new database is seeded; one whose demo data was deleted on purpose stays as it is.
  const [anyUser] = await database.db.select({ id: users.id }).from(users).limit(1);
  if (anyUser) return { kind: "existing", demo: await demoExists(database.db) };
  if (config.database.kind !== "pglite" || config.production) return { kind: "empty" };
  const result = await seedDemo(database.db);
  return result.seeded ? { kind: "seeded", reports: result.reports } : { kind: "existing", demo: true };
}
