import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../../../api/config.ts";
import { verifyArchive } from "../../../api/lib/backup/archive-file.ts";
import { listBackups, makeScheduledBackup, startScheduledBackups } from "../../../api/lib/backup/scheduled.ts";
import { renderMetrics } from "../../../api/lib/metrics.ts";
import { startBanner } from "../../../api/start-banner.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { fetchingServer, lanternHome, spawnLantern, type LanternHome } from "../../helpers/lantern-process.ts";
import { loginAs } from "../../helpers/session.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * The embedded database's own backups (decision 070): made on a timer by the server, checked,
 * the oldest removed beyond the number kept; a start on a directory that does not open names the newest.
 */

let server: TestServer;
let directory: string;
beforeAll(async () => {
  server = await startTestServer();
  directory = join(server.dataDir, "backups");
});
afterAll(() => server.stop());

const database = () => server.lantern.services.database;
const blobs = () => server.lantern.services.blobs;

describe("automatic backups", () => {
  test("are the CLI's archive, whole and checked, named by when they were made, and only the last BACKUP_KEEP stay", async () => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, "notes.txt"), "the operator's own file");
    const made = [];
    for (let day = 1; day <= 4; day++) made.push(await makeScheduledBackup(database(), blobs(), { directory, keep: 3 }, new Date(`2026-11-0${day}T03:00:00Z`)));

    expect(listBackups(directory).map((backup) => backup.madeAt.toISOString())).toEqual(["2026-11-04T03:00:00.000Z", "2026-11-03T03:00:00.000Z", "2026-11-02T03:00:00.000Z"]);
    expect(readdirSync(directory).sort()).toEqual(["lantern-2026-11-02T03-00-00Z.tar.gz", "lantern-2026-11-03T03-00-00Z.tar.gz", "lantern-2026-11-04T03-00-00Z.tar.gz", "notes.txt"]);
    const manifest = await verifyArchive(made[3]!.path);
    // Every table of the schema, as `bun run cli backup` writes them.
    expect(manifest.tables.map((table) => table.name)).toContain("report_submissions");
    expect(manifest.tables.reduce((rows, table) => rows + table.rows, 0)).toBeGreaterThan(0);
    expect(renderMetrics()).toContain(`lantern_backup_last_timestamp_seconds ${Date.parse("2026-11-04T03:00:00Z") / 1000}`);
  }, 60_000);

  test("the timer counts from the newest archive, not from the start: due at once here, then every interval", async () => {
    let now = Date.parse("2026-11-05T03:00:00Z");
    const stop = startScheduledBackups(database(), blobs(), { directory, keep: 3, everyMs: 24 * 3_600_000 }, () => now);
    // The newest (4 November, 03:00) is a day old: the next is due now.
    expect(await holdsWithin(() => listBackups(directory)[0]!.madeAt.getTime() === now, 20_000)).toBe(true);
    await stop();
    now += 60_000;
    const quiet = startScheduledBackups(database(), blobs(), { directory, keep: 3, everyMs: 24 * 3_600_000 }, () => now);
    await Bun.sleep(500);
    await quiet();
    // Made a minute ago: nothing new.
    expect(listBackups(directory)[0]!.madeAt.getTime()).toBe(now - 60_000);
    expect(readdirSync(directory).filter((name) => name.endsWith(".partial"))).toEqual([]);
  }, 60_000);

  test("settings: on by default on the embedded database (daily, 7 kept, DATA_DIR/backups), off on Postgres or with 0; bad values are one line", () => {
    expect(parseConfig({ DATA_DIR: "/srv/lantern" }).backups).toEqual({ directory: "/srv/lantern/backups", everyMs: 86_400_000, keep: 7 });
    expect(parseConfig({ DATA_DIR: "/srv/lantern", BACKUP_INTERVAL_MINUTES: "0" }).backups).toBeNull();
    expect(parseConfig({ DATA_DIR: "/srv/lantern", DATABASE_URL: "postgres://localhost/lantern", MASTER_KEY: TEST_MASTER_KEY }).backups).toBeNull();
    expect(parseConfig({ DATA_DIR: "/srv/lantern", BACKUP_INTERVAL_MINUTES: "60", BACKUP_KEEP: "48", BACKUP_DIR: "/mnt/safe" }).backups).toEqual({ directory: "/mnt/safe", everyMs: 3_600_000, keep: 48 });
    expect(() => parseConfig({ BACKUP_INTERVAL_MINUTES: "daily" })).toThrow("Invalid configuration: BACKUP_INTERVAL_MINUTES must be a whole number of minutes (0 turns automatic backups off)");
    expect(() => parseConfig({ BACKUP_KEEP: "0" })).toThrow("Invalid configuration: BACKUP_KEEP must be at least 1");
  });

  test("the start banner says where they go and when the newest was made", () => {
    const config = parseConfig({ DATA_DIR: server.dataDir });
    const line = startBanner(config, 3000, { kind: "existing", demo: true }, "bun run cli create-superadmin").find((text) => text.includes("Automatic backups"));
    expect(line).toBe(`  Automatic backups:   every 24 h into ${directory}, the last 7 kept (newest ${listBackups(directory)[0]!.madeAt.toISOString()})`);
  });
});

/** `bun run cli …` on the home, as its operator runs it (no server on it). */
function runCli(home: LanternHome, ...args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env, ...home.env, LOG_LEVEL: "error" };
  if (!home.env.DATABASE_URL) delete env.DATABASE_URL;
  const child = Bun.spawnSync(["bun", join(import.meta.dir, "..", "..", "..", "scripts", "cli.ts"), ...args], { env, stdout: "pipe", stderr: "pipe" });
  return { code: child.exitCode, stdout: child.stdout.toString(), stderr: child.stderr.toString() };
}

describe("a start on a directory that does not open", () => {
  let home: LanternHome;
  beforeAll(async () => {
    home = await lanternHome();
  }, 120_000);
  afterAll(() => home.remove());

  test(usingPostgres() ? "on Postgres there is no embedded directory to damage" : "says so in one line and names the newest automatic backup", async () => {
    if (usingPostgres()) {
      expect(parseConfig({ ...home.env }).backups).toBeNull();
      return;
    }
    const backups = join(home.dataDir, "backups");
    mkdirSync(backups, { recursive: true });
    // A backup as the server makes them (the same archive as the CLI's), before the damage.
    const made = runCli(home, "backup", "--to", join(backups, "lantern-2026-11-27T03-00-00Z.tar.gz"));
    expect(made.code).toBe(0);
    // The control file is what the damaged directory lacked: no checkpoint can be found.
    writeFileSync(join(home.dataDir, "pglite", "global", "pg_control"), new Uint8Array(8192));
    const child = Bun.spawn(["bun", join(import.meta.dir, "..", "..", "..", "api", "main.ts")], {
      env: { ...process.env, ...home.env, DATABASE_URL: undefined, PORT: "0" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    expect(code).toBe(74);
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`The embedded database in ${join(home.dataDir, "pglite")} could not be opened (`);
    expect(lines[0]).toContain(`The newest automatic backup is ${join(backups, "lantern-2026-11-27T03-00-00Z.tar.gz")} (made 2026-11-27T03:00:00.000Z)`);

    // The command the line names brings it back: the damaged database moved aside, the backup restored, the server starts.
    const restored = runCli(home, "restore", "--latest");
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: "" });
    const aside = readdirSync(home.dataDir).find((name) => name.startsWith("pglite.damaged-"));
    expect(aside).toBeDefined();
    expect(restored.stdout).toContain(`Moved the database that does not open aside to ${join(home.dataDir, aside!)}.`);
    const server = await spawnLantern(home);
    const owner = await loginAs(fetchingServer(server), "owner@demo.test", DEMO_PASSWORD);
    expect((await owner.gql<{ viewer: { email: string } }>("{ viewer { email } }")).data?.viewer.email).toBe("owner@demo.test");
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(0);
    // Given twice, or neither, is one line and the usage's exit code.
    expect(runCli(home, "restore")).toMatchObject({ code: 64, stderr: "give either --from FILE or --latest\n" });
  }, 180_000);
});
