import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { users } from "../../../db/schema/index.ts";
import { openDatabase } from "../../../db/client.ts";
import { DataDirLockedError, lockDataDir } from "../../../db/data-dir-lock.ts";
import { lanternHome, spawnLantern, type LanternHome } from "../../helpers/lantern-process.ts";
import { freePort } from "../../helpers/processes.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * One process per embedded data directory (decision 067). The unstartable directory an outside
 * tester left was two processes' work: a second one opened the directory the server was serving,
 * wrote its end-of-recovery checkpoint at the end of the WAL, and the server then wrote its own
 * records over that checkpoint. Every way in must now be refused while another process has it.
 */

const ROOT = join(import.meta.dir, "..", "..", "..");
const CLI = join(ROOT, "scripts", "cli.ts");

/** A process that opens DATA_DIR's database as the server does, writes one row, says so, and keeps it open. */
function holdDatabase(dataDir: string) {
  const script = `
    import { openDatabase } from ${JSON.stringify(join(ROOT, "db", "client.ts"))};
    const handle = await openDatabase({ kind: "pglite", dataDir: ${JSON.stringify(join(dataDir, "pglite"))} }, { preparedCluster: null });
    await handle.db.execute("create table if not exists held (pid int)");
    await handle.db.execute("insert into held values (" + process.pid + ")");
    console.log("held");
    await Bun.sleep(600_000);
  `;
  const child = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const ready = (async () => {
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes("held")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the holder ended: ${await new Response(child.stderr).text()}`);
      seen += new TextDecoder().decode(value);
    }
  })();
  return { child, ready };
}

function runCli(args: string[], env: Record<string, string>) {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete merged.DATABASE_URL;
  const child = Bun.spawnSync(["bun", CLI, ...args], { env: merged, stdout: "pipe", stderr: "pipe" });
  return { code: child.exitCode, stdout: child.stdout.toString(), stderr: child.stderr.toString() };
}

describe("the embedded directory's lock", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "lantern-lock-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("a second process is refused by name while the first has the database open, and takes it once the first is killed", async () => {
    const holder = holdDatabase(dataDir);
    await holder.ready;

    const refused = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite") }, { preparedCluster: null }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).holderPid).toBe(holder.child.pid);
    expect((refused as Error).message).toContain(`(pid ${holder.child.pid})`);

    // Killed as hard as a process can be: the kernel lets go of the lock, nothing stale is left to clear.
    holder.child.kill(9);
    await holder.child.exited;
    const handle = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite") }, { preparedCluster: null });
    try {
      const result = (await handle.db.execute(sql`select pid from held`)) as unknown as { rows: { pid: number }[] };
      expect(result.rows.map((row) => Number(row.pid))).toEqual([holder.child.pid]);
    } finally {
      await handle.close();
    }
  }, 60_000);

  test("within one process too, a second opening of the directory is refused until the first is closed", async () => {
    const first = await openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite") }, { preparedCluster: null });
    await expect(openDatabase({ kind: "pglite", dataDir: join(dataDir, "pglite") }, { preparedCluster: null })).rejects.toBeInstanceOf(DataDirLockedError);
    await first.close();
    const again = await lockDataDir(dataDir);
    again.release();
  }, 60_000);

  test("waiting for the holder: the lock is taken as soon as the holder lets go", async () => {
    const held = await lockDataDir(dataDir);
    let told: number | null = null;
    const waiting = lockDataDir(dataDir, { waitMs: 30_000, onWaiting: (pid) => (told = pid) });
    await Bun.sleep(300);
    held.release();
    const taken = await waiting;
    expect(told as number | null).toBe(process.pid);
    taken.release();
  });
});

describe("the operator's commands beside a running server", () => {
  let home: LanternHome;
  beforeAll(async () => {
    home = await lanternHome();
  }, 120_000);
  afterAll(() => home.remove());

  test(usingPostgres() ? "on Postgres the commands run beside the server" : "on the embedded database every command that would open the directory is refused in one line naming the server", async () => {
    const server = await spawnLantern(home);
    const email = "late-super@lantern.test";
    const created = runCli(["create-superadmin", "--email", email, "--first-name", "Late", "--last-name", "Super", "--password", "a-long-enough-password-42"], home.env);
    const others = [["migrate"], ["seed-demo"], ["rotate-keys", "--switch-delay-seconds", "0"]].map((args) => runCli(args, home.env));
    if (usingPostgres()) {
      expect(created).toMatchObject({ code: 0 });
      expect(others.map((result) => result.code)).toEqual([0, 0, 0]);
    } else {
      const line = `is in use by another Lantern process (pid ${server.child.pid})`;
      expect(created.code).toBe(75);
      expect(created.stderr.trim().split("\n")).toEqual([expect.stringContaining(line)]);
      for (const result of others) expect({ code: result.code, stderr: result.stderr.trim() }).toEqual({ code: 75, stderr: expect.stringContaining(line) });
    }
    // The server served on, untouched.
    expect((await server.fetch("/readyz")).status).toBe(200);
    server.child.kill("SIGTERM");
    expect(await server.child.exited).toBe(0);
    const superAdmins = await home.withDatabase((db) => db.select({ id: users.id }).from(users).where(eq(users.email, email)));
    expect(superAdmins.length).toBe(usingPostgres() ? 1 : 0);
  }, 180_000);

  test("a start right after a stop waits for the old server to let go, then serves", async () => {
    const first = await spawnLantern(home);
    const port = await freePort();
    const secondStarting = spawnLantern(home, { port });
    if (!usingPostgres()) {
      // Not beside the first: the second opens nothing while the first holds the directory.
      await Bun.sleep(1_500);
      expect(await fetch(`http://127.0.0.1:${port}/healthz`).then(() => "answered", () => "not listening")).toBe("not listening");
    }
    first.child.kill("SIGTERM");
    expect(await first.child.exited).toBe(0);
    const second = await secondStarting;
    expect((await second.fetch("/readyz")).status).toBe(200);
    second.child.kill("SIGTERM");
    expect(await second.child.exited).toBe(0);
  }, 180_000);
});
