import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { eq, sql } from "drizzle-orm";
import { rotateAndReseal } from "../../../api/lib/key-rotation.ts";
import { isSealedText, PLATFORM_KEYS, Sealer } from "../../../api/lib/key-ring.ts";
import { loadMasterKeys } from "../../../api/lib/master-key.ts";
import { serverSecret } from "../../../api/modules/abuse/secret.ts";
import { platformKeys, proofOfWorkKeys, users } from "../../../db/schema/index.ts";
import { createOrganisation, createUser } from "../../factories/users.ts";
import { filesHolding, filesUnder, tablesHolding } from "../../helpers/plain-search.ts";
import { nextStart, startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { authenticator } from "../../helpers/two-factor.ts";
import { usingPostgres } from "../../setup/template.ts";
import { cli, emptyInstallation, startRestored } from "../operations/backup-support.ts";

/**
 * Authenticator keys and the proof-of-work secret are sealed with the platform's key, each bound to
 * its row (docs/decisions/062-sealed-account-secrets.md): after two-factor setup through the real
 * calls, the base32 key is in no table, no file of the embedded database (WAL included) and no
 * backup, while passcodes verify, after a restart, a rotation and a restore alike.
 */

const SECRET_QUERY = "{ twoFactorAuthenticationSecret { secret } }";
// Turning two-factor on asks for the account's password again (decision 061).
const TURN_ON = "mutation ($password: String) { changeDetails(input: { twoFactorAuthenticationActivated: true, password: $password }) { id } }";
const VIEWER = "{ viewer { pass2FA } }";

type Account = Awaited<ReturnType<typeof createUser>>;

const sendPasscode = (client: StaffClient, passcode: string) =>
  client.fetch("/api/auth/two_factor/verification", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ passcode }) });

/** Two-factor turned on and set up as its owner does it, through GraphQL and the verification call; returns the key shown. */
async function setUpTwoFactor(server: TestServer, account: Account): Promise<string> {
  const client = await loginAs(server, account.email, account.password);
  expect((await client.gql(TURN_ON, { password: account.password })).errors).toBeUndefined();
  const secret = (await client.gql<{ twoFactorAuthenticationSecret: { secret: string } }>(SECRET_QUERY)).data!.twoFactorAuthenticationSecret.secret;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect((await sendPasscode(client, authenticator(secret).nextPasscode())).status).toBe(200);
  return secret;
}

/**
 * A new sign-in that gives a passcode of `secret`: whether the session passed. A passcode's time
 * step is accepted once, so the account first forgets the step it last accepted, as it would once
 * that step had passed: the sign-ins of one test come within the same half minute.
 */
async function signInWithPasscode(server: TestServer, account: Account, secret: string): Promise<boolean> {
  await server.db.update(users).set({ twoFactorLastStep: null }).where(eq(users.id, account.id));
  const client = await loginAs(server, account.email, account.password);
  const given = await sendPasscode(client, authenticator(secret).nextPasscode());
  const passed = (await client.gql<{ viewer: { pass2FA: boolean } }>(VIEWER)).data?.viewer.pass2FA ?? false;
  expect(passed).toBe(given.status === 200);
  return passed;
}

async function storedSecretOf(server: TestServer, userId: string): Promise<string | null> {
  const [row] = await server.db.select({ secret: users.twoFactorSecret }).from(users).where(eq(users.id, userId));
  return row!.secret;
}

describe("an authenticator key set up through the real calls", () => {
  let server: TestServer;
  let superAdmin: Account;
  let member: Account;
  let secret: string;
  const archives = mkdtempSync(join(tmpdir(), "lantern-account-secrets-"));
  const archive = join(archives, "lantern.tar");
  const targets: { remove(): Promise<void> }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ embeddedOnDisk: true });
    // A super admin belongs to no organisation: the platform's key seals their key as anyone's.
    superAdmin = await createUser(server.db, { role: "SUPER_ADMIN", organisationId: null });
    member = await createUser(server.db, { role: "MEMBER", organisationId: (await createOrganisation(server.db)).id });
    secret = await setUpTwoFactor(server, superAdmin);
  });
  afterAll(async () => {
    await server.stop();
    for (const target of targets) await target.remove();
    rmSync(archives, { recursive: true, force: true });
  });

  test("is stored sealed, and found in no row of any table", async () => {
    const stored = await storedSecretOf(server, superAdmin.id);
    expect(isSealedText(stored!)).toBe(true);
    expect(await server.db.select().from(platformKeys)).toHaveLength(1);
    // The search sees what is written: the account's email is in plain, in its row.
    expect(await tablesHolding(server.db, superAdmin.email)).toContain("users");
    expect(await tablesHolding(server.db, secret)).toEqual([]);
  });

  test("is in no file of the data directory after a checkpoint, write-ahead log included", async () => {
    if (!usingPostgres()) await server.db.execute(sql`checkpoint`);
    // On the embedded database its files, WAL segments among them, are here, and hold the plain email.
    if (!usingPostgres()) {
      expect(filesUnder(server.dataDir).some((file) => file.split(sep).includes("pg_wal"))).toBe(true);
      expect(filesHolding(server.dataDir, superAdmin.email).length).toBeGreaterThan(0);
    }
    expect(filesHolding(server.dataDir, secret)).toEqual([]);
  });

  test("the proof-of-work secret is sealed too, and found nowhere in plain", async () => {
    const opened = await serverSecret(server.db);
    const [row] = await server.db.select().from(proofOfWorkKeys);
    expect(isSealedText(row!.secret)).toBe(true);
    expect(await tablesHolding(server.db, opened)).toEqual([]);
  });

  test("a backup archive holds the sealed key, never the key", async () => {
    const backup = await cli({ dataDir: server.dataDir, databaseUrl: server.databaseUrl, settings: {} }, "backup", "--to", archive);
    expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
    const bytes = Buffer.from(await Bun.file(archive).arrayBuffer());
    expect(bytes.includes(Buffer.from(superAdmin.email))).toBe(true);
    expect(bytes.includes(Buffer.from((await storedSecretOf(server, superAdmin.id))!))).toBe(true);
    expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  test("passcodes of the key still verify at the next sign-in", async () => {
    expect(await signInWithPasscode(server, superAdmin, secret)).toBe(true);
  });

  test("the sealed key copied into another account's row does not verify there", async () => {
    const stored = await storedSecretOf(server, superAdmin.id);
    await server.db
      .update(users)
      .set({ twoFactorAuthenticationActivated: true, twoFactorAuthenticationIsSet: true, twoFactorSecret: stored })
      .where(eq(users.id, member.id));
    expect(await signInWithPasscode(server, member, secret)).toBe(false);
    // The same key in plain, as from before sealing, would have let it in: the binding refused it.
    await server.db.update(users).set({ twoFactorSecret: secret }).where(eq(users.id, member.id));
    expect(await signInWithPasscode(server, member, secret)).toBe(true);
  });

  test("after rotate-keys the key is sealed with the platform's new key, and passcodes verify", async () => {
    const masters = await loadMasterKeys(server.lantern.services.config.masterKey);
    const result = await rotateAndReseal(server.db, masters, server.lantern.services.blobs, { switchDelayMs: 50 });
    expect(result.resealed.failed).toBe(0);
    expect(result.resealed.platformSecrets).toBeGreaterThanOrEqual(2);
    const keys = await server.db.select().from(platformKeys);
    const newest = keys.toSorted((a, b) => b.activeFrom.getTime() - a.activeFrom.getTime())[0]!;
    expect(keys).toHaveLength(2);
    expect(Sealer.keyIdOfText((await storedSecretOf(server, superAdmin.id))!)).toBe(newest.id);
    // This instance learns the new key when its list of keys is next loaded (every 30 s; at once here).
    server.lantern.services.keyRing.forget(PLATFORM_KEYS);
    expect(await signInWithPasscode(server, superAdmin, secret)).toBe(true);
  });

  test("restored from the backup with the same master key, the passcode verifies", async () => {
    const target = await emptyInstallation();
    targets.push(target);
    const restored = await cli(target, "restore", "--from", archive);
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: "" });
    const again = await startRestored(target);
    try {
      expect(await signInWithPasscode(again, superAdmin, secret)).toBe(true);
    } finally {
      await again.stop();
    }
  });
});

describe("an authenticator key stored in plain, from before sealing", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-plain-secret-"));
  let first: TestServer;
  let second: TestServer | null = null;
  let account: Account;
  let secret: string;

  beforeAll(async () => {
    // The second start must find the first one's database: one DATA_DIR for both.
    first = await startTestServer({ embeddedOnDisk: true, env: { DATA_DIR: dataDir } });
    account = await createUser(first.db, { role: "ORGANISATION_OWNER", organisationId: (await createOrganisation(first.db)).id });
    secret = await setUpTwoFactor(first, account);
    await first.db.update(users).set({ twoFactorSecret: secret }).where(eq(users.id, account.id));
  });
  afterAll(async () => {
    await second?.stop();
    await first.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("reads as it is, is sealed by the next start, and then verifies", async () => {
    expect(await signInWithPasscode(first, account, secret)).toBe(true);
    second = await nextStart(first, dataDir);
    const counts = await second.lantern.legacySealing;
    expect(counts?.failed).toBe(0);
    expect(counts?.platformSecrets).toBeGreaterThanOrEqual(1);
    const stored = await storedSecretOf(second, account.id);
    expect(isSealedText(stored!)).toBe(true);
    expect(stored).not.toContain(secret);
    expect(await signInWithPasscode(second, account, secret)).toBe(true);
  });
});
