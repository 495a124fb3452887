import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { loadConfigOrExit } from "../api/config.ts";
import { hashPassword } from "../api/lib/passwords.ts";
import { passwordProblem } from "../api/shared/password-rule.ts";
import { openDatabase } from "../db/client.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { roles, userActivities, users } from "../db/schema/index.ts";
import { seedDemo } from "../db/seed/demo.ts";

/** Operators' commands. Each opens the configured database (DATABASE_URL, else PGlite in DATA_DIR). */
const USAGE = `Usage:
  bun run cli migrate
  bun run cli create-superadmin --email EMAIL --password PASSWORD
  bun run cli seed-demo`;

const [command, ...rest] = process.argv.slice(2);
const config = loadConfigOrExit();

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const database = await openDatabase(config.database);
try {
  await migrateDatabase(database);
  switch (command) {
    case "migrate":
      console.log("Database is up to date.");
      break;
    case "create-superadmin": {
      const { values } = parseArgs({ args: rest, options: { email: { type: "string" }, password: { type: "string" } } });
      const email = values.email?.trim();
      if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) fail("--email must be an email address");
      const problem = passwordProblem(values.password ?? "");
      if (problem) fail(`--password: ${problem}`);
      const existing = await database.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      if (existing.length > 0) fail(`A user with the email ${email} already exists.`);
      const passwordHash = await hashPassword(values.password!);
      await database.db.transaction(async (tx) => {
        const [role] = await tx.select().from(roles).where(eq(roles.name, "SUPER_ADMIN"));
        const [user] = await tx
          .insert(users)
          .values({ email, firstName: "Super", lastName: "Admin", passwordHash, roleId: role!.id, organisationId: null, verified: true })
          .returning({ id: users.id });
        await tx.insert(userActivities).values({ userId: null, organisationId: null, objectType: "User", objectId: user!.id, action: "CreateSuperAdmin", metadata: { via: "cli" } });
      });
      console.log(`Created super admin ${email}.`);
      break;
    }
    case "seed-demo": {
      const result = await seedDemo(database.db);
      if (!result.seeded) console.log("The demo organisations already exist; nothing was changed.");
      else {
        console.log("Seeded the demo organisations. Reports you can follow up as a reporter:");
        for (const report of result.reports ?? []) console.log(`  ${report.organisationSlug}: ${report.reportId} / ${report.password} (${report.status})`);
      }
      break;
    }
    default:
      fail(USAGE);
  }
} finally {
  await database.close();
}
