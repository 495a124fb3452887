import { eq, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Config } from "../../api/config.ts";
import { extractEmbedded } from "../../api/embedded.ts";
import { createBlobStore } from "../../api/lib/blob-store.ts";
import { rotateAndReseal } from "../../api/lib/key-rotation.ts";
import { KeyRing } from "../../api/lib/key-ring.ts";
import { discardGeneratedKey, loadMasterKeys, type MasterKeys } from "../../api/lib/master-key.ts";
import { hashPassword } from "../../api/lib/passwords.ts";
import { EmailText, personName } from "../../api/modules/profile/inputs.ts";
import { passwordProblem } from "../../api/shared/password-rule.ts";
import { openDatabase, type DatabaseHandle } from "../../db/client.ts";
import { migrateDatabase } from "../../db/migrate.ts";
import { roles, userActivities, users } from "../../db/schema/index.ts";
import { utcToday } from "../../api/lib/day-grain.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { CommandFailure, EXIT } from "./outcome.ts";

/**
 * The commands that open the configured database (DATABASE_URL, else PGlite in DATA_DIR), migrated
 * and with its master key checked, as a server's start does. On the embedded database the opening
 * takes DATA_DIR's lock first: while a server has it, the command is refused in one line naming it
 * (decision 067).
 */
async function withDatabase(config: Config, work: (database: DatabaseHandle, masters: MasterKeys) => Promise<void>): Promise<void> {
  // The single executable carries its migrations and prepared cluster: written out as its server does.
  const embedded = await extractEmbedded(config.dataDir);
  const database = await openDatabase(config.database, embedded ? { migrationsFolder: embedded.migrationsFolder, preparedCluster: embedded.preparedCluster } : {});
  try {
    await migrateDatabase(database, embedded?.migrationsFolder);
    // The seed seals with the master key, and a key that does not fit must stop every command as it stops a start.
    const masters = await loadMasterKeys(config.masterKey);
    await new KeyRing(masters, database.db).verify().catch(async (error: unknown) => {
      await discardGeneratedKey(masters);
      throw error;
    });
    await work(database, masters);
  } finally {
    await database.close();
  }
}

export function migrate(config: Config): Promise<void> {
  return withDatabase(config, async () => console.log("Database is up to date."));
}

export interface SuperAdminInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Checked before the database is opened: a typo costs no wait for PGlite. */
function checkedSuperAdmin(input: SuperAdminInput): SuperAdminInput {
  const email = v.safeParse(EmailText, input.email);
  if (!email.success) throw new CommandFailure("--email must be an email address", EXIT.usage);
  const problem = passwordProblem(input.password);
  if (problem) throw new CommandFailure(`--password: ${problem}`, EXIT.usage);
  const names = (["firstName", "lastName"] as const).map((key) => {
    const name = v.safeParse(personName, input[key]);
    if (!name.success) throw new CommandFailure(`--${key === "firstName" ? "first-name" : "last-name"}: ${name.issues[0].message}`, EXIT.usage);
    return name.output;
  });
  return { email: email.output, password: input.password, firstName: names[0]!, lastName: names[1]! };
}

export async function createSuperAdmin(config: Config, given: SuperAdminInput): Promise<void> {
  const input = checkedSuperAdmin(given);
  await withDatabase(config, async (database) => {
    const existing = await database.db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.email}`);
    if (existing.length > 0) throw new CommandFailure(`A user with the email ${input.email} already exists.`);
    const passwordHash = await hashPassword(input.password);
    await database.db.transaction(async (tx) => {
      const [role] = await tx.select().from(roles).where(eq(roles.name, "SUPER_ADMIN"));
      const [user] = await tx
        .insert(users)
        .values({ email: input.email, firstName: input.firstName, lastName: input.lastName, passwordHash, roleId: role!.id, organisationId: null, verified: true })
        .returning({ id: users.id });
      // Written by no person: kept by the day, as the server writes such entries (decision 064).
      await tx
        .insert(userActivities)
        .values({ userId: null, organisationId: null, objectType: "User", objectId: user!.id, action: "CreateSuperAdmin", metadata: { via: "cli" }, createdAt: utcToday() });
    });
    console.log(`Created super admin ${input.email} (${input.firstName} ${input.lastName}).`);
  });
}

export function seedDemoCommand(config: Config): Promise<void> {
  return withDatabase(config, async (database) => {
    const result = await seedDemo(database.db);
    if (!result.seeded) {
      console.log("The demo organisations already exist; nothing was changed.");
      return;
    }
    console.log("Seeded the demo organisations. Reports you can follow up as a reporter:");
    for (const report of result.reports ?? []) console.log(`  ${report.organisationSlug}: ${report.reportId} / ${report.password} (${report.status})`);
  });
}

/**
 * Safe while servers run: see api/lib/key-rotation.ts. Give the new key as MASTER_KEY and the old one
 * as MASTER_KEY_PREVIOUS (to every server too) to change the master key as well. A shorter delay
 * than the default is safe only when no other server runs (the embedded mode's one server, stopped).
 */
export async function rotateKeys(config: Config, switchDelaySeconds: string | undefined): Promise<void> {
  if (switchDelaySeconds !== undefined && !/^\d{1,6}$/.test(switchDelaySeconds)) throw new CommandFailure("--switch-delay-seconds must be a whole number of seconds", EXIT.usage);
  await withDatabase(config, async (database, masters) => {
    const result = await rotateAndReseal(database.db, masters, createBlobStore(config.blobs), {
      ...(switchDelaySeconds !== undefined ? { switchDelayMs: Number(switchDelaySeconds) * 1000 } : {}),
      onWait: (until) => console.log(`Waiting until ${until.toISOString()}, when every server knows the new keys, to seal everything again with them…`),
    });
    console.log(`Master key ${masters.current.id} now wraps every data key (${result.rewrapped} wrapped again).`);
    console.log(`${result.newKeys - 1} organisations and the platform have a new data key, sealing new data since ${result.activeFrom.toISOString()}.`);
    const { answers, messages, notes, fileNames, files, platformSecrets, failed } = result.resealed;
    console.log(`Sealed again with the new keys: ${answers} answers, ${messages} messages, ${notes} notes, ${fileNames} file names, ${files} files.`);
    console.log(`Sealed again with the platform's new key: ${platformSecrets} authenticator keys and server secrets.`);
    if (failed > 0) console.log(`${failed} values did not open and were left as they were: see the log above.`);
    if (masters.previous) console.log("MASTER_KEY_PREVIOUS is no longer needed: remove it from every server's settings.");
  });
}
