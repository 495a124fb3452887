import type { DatabaseHandle } from "../db/client.ts";
import { seedDemo } from "../db/seed/demo.ts";
import { users } from "../db/schema/index.ts";
import type { Config } from "./config.ts";
import { logInfo } from "./lib/log.ts";

/**
 * The embedded mode (no DATABASE_URL) is for trying Lantern, so it starts with the demo
 * organisations. A real Postgres is never seeded automatically: `bun run cli seed-demo` does it on purpose.
 */
export async function seedDemoWhenEmbedded(config: Config, database: DatabaseHandle): Promise<void> {
  if (config.database.kind !== "pglite") return;
  // Only a brand-new database is seeded; one whose demo data was deleted on purpose stays as it is.
  const [anyUser] = await database.db.select({ id: users.id }).from(users).limit(1);
  if (anyUser) return;
  const result = await seedDemo(database.db);
  if (!result.seeded) return;
  // Demo reports' credentials are public demo data; printing them lets a newcomer try the follow-up area.
  logInfo("Seeded the demo organisations (see README: Demo data)", {
    reports: result.reports.map((report) => `${report.organisationSlug} ${report.reportId} ${report.password} (${report.status})`),
  });
}
