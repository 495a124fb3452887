import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { loadConfigOrExit } from "../api/config.ts";
import { hashPassword } from "../api/lib/passwords.ts";
import { utcToday } from "../api/lib/day-grain.ts";
import { rotateAndReseal } from "../api/lib/key-rotation.ts";
import { createBlobStore } from "../api/lib/blob-store.ts";
import { discardGeneratedKey, loadMasterKeys } from "../api/lib/master-key.ts";
import { KeyRing } from "../api/lib/key-ring.ts";
import { passwordProblem } from "../api/shared/password-rule.ts";
import { openDatabase } from "../db/client.ts";
import { DataDirLockedError } from "../db/data-dir-lock.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { roles, userActivities, users } from "../db/schema/index.ts";
import { seedDemo } from "../db/seed/demo.ts";

/** Operators' commands. Each opens the configured database (DATABASE_URL, else PGlite in DATA_DIR). */
const USAGE = `Usage:
  bun run cli migrate
  bun run cli create-superadmin --email EMAIL --password PASSWORD
  bun run cli seed-demo
  bun run cli rotate-keys [--switch-delay-seconds N]
  bun run cli backup --to FILE
  bun run cli restore --from FILE`;

const [command, ...rest] = process.argv.slice(2);
const config = loadConfigOrExit();

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// A backup may go through the running server, and a restore needs its target untouched: neither opens the database here.
if (command === "backup" || command === "restore") {
  const { runBackupCommand } = await import("./backup/commands.ts");
  process.exit(await runBackupCommand(command, rest, config));
}

if (!["migrate", "create-superadmin", "seed-demo", "rotate-keys"].includes(command ?? "")) fail(USAGE);

// The embedded directory is one process's: while a server has it, refuse in one line naming it (decision 067).
const database = await openDatabase(config.database).catch((error: unknown) => fail(error instanceof DataDirLockedError ? error.message : String(error)));
try {
  await migrateDatabase(database);
  // Every command checks the master key fits, as a server's start does; the seed seals with it.
  const masters = await loadMasterKeys(config.masterKey).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
  const keyRing = new KeyRing(masters, database.db);
  await keyRing.verify().catch(async (error: unknown) => {
    await discardGeneratedKey(masters);
    fail(error instanceof Error ? error.message : String(error));
  });
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
        // Written by no person: kept by the day, as the server writes such entries (decision 064).
        await tx
          .insert(userActivities)
          .values({ userId: null, organisationId: null, objectType: "User", objectId: user!.id, action: "CreateSuperAdmin", metadata: { via: "cli" }, createdAt: utcToday() });
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
    case "rotate-keys": {
      // Safe while servers run: see api/lib/key-rotation.ts. Give the new key as MASTER_KEY and the
      // old one as MASTER_KEY_PREVIOUS (to every server too) to change the master key as well.
      // A shorter delay than the default is safe only when no other server runs (the embedded mode's one server, stopped).
      const { values } = parseArgs({ args: rest, options: { "switch-delay-seconds": { type: "string" } } });
      const delay = values["switch-delay-seconds"];
      if (delay !== undefined && !/^\d{1,6}$/.test(delay)) fail("--switch-delay-seconds must be a whole number of seconds");
      const result = await rotateAndReseal(database.db, masters, createBlobStore(config.blobs), {
        ...(delay !== undefined ? { switchDelayMs: Number(delay) * 1000 } : {}),
        onWait: (until) => console.log(`Waiting until ${until.toISOString()}, when every server knows the new keys, to seal everything again with them…`),
      });
      console.log(`Master key ${masters.current.id} now wraps every data key (${result.rewrapped} wrapped again).`);
      console.log(`${result.newKeys - 1} organisations and the platform have a new data key, sealing new data since ${result.activeFrom.toISOString()}.`);
      const { answers, messages, notes, fileNames, files, platformSecrets, failed } = result.resealed;
      console.log(`Sealed again with the new keys: ${answers} answers, ${messages} messages, ${notes} notes, ${fileNames} file names, ${files} files.`);
      console.log(`Sealed again with the platform's new key: ${platformSecrets} authenticator keys and server secrets.`);
      if (failed > 0) console.log(`${failed} values did not open and were left as they were: see the log above.`);
      if (masters.previous) console.log("MASTER_KEY_PREVIOUS is no longer needed: remove it from every server's settings.");
      break;
    }
    default:
      fail(USAGE);
  }
} finally {
  await database.close();
}
