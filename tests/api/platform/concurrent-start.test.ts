import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { databaseUrl, usingPostgres } from "../../setup/template.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";

const MAIN = join(import.meta.dir, "..", "..", "..", "api", "main.ts");

// Several processes can only share a database on Postgres; PGlite is one process's own.
describe.if(usingPostgres())("six instances starting together on an empty Postgres", () => {
  test("all come up, the schema is migrated once and the roles exist once", async () => {
    const name = `lantern_concurrent_${randomBytes(4).toString("hex")}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const dataDir = mkdtempSync(join(tmpdir(), "lantern-concurrent-"));
    const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
    const children = ports.map((port) =>
      Bun.spawn(["bun", MAIN], {
        env: { ...process.env, DATABASE_URL: databaseUrl(name), MASTER_KEY: TEST_MASTER_KEY, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "error" },
        stdout: "ignore",
        stderr: "pipe",
      }),
    );
    try {
      const ready = await Promise.all(ports.map((port) => waitForReady(`http://127.0.0.1:${port}`, 60_000)));
      expect(ready).toEqual([true, true, true, true, true, true]);
      const db = postgres(databaseUrl(name), { max: 1, onnotice: () => {} });
      const [migrations] = await db.unsafe(`select count(*)::int as n from public.__lantern_migrations`);
      const [roles] = await db.unsafe(`select count(*)::int as n from roles`);
      const [organisations] = await db.unsafe(`select count(*)::int as n from organisations`);
      await db.end();
      expect(migrations!.n).toBeGreaterThanOrEqual(1);
      expect(roles!.n).toBe(5);
      // A real Postgres is never seeded with demo data by itself.
      expect(organisations!.n).toBe(0);
    } finally {
      for (const child of children) child.kill();
      await Promise.all(children.map((child) => child.exited));
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
