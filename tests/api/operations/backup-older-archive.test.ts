import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { saveArchive } from "../../../api/lib/backup/archive-file.ts";
import { backupStream } from "../../../api/lib/backup/create.ts";
import { lastMigration } from "../../../api/lib/backup/schema-tables.ts";
import { createBlobStore } from "../../../api/lib/blob-store.ts";
import { wrapPglite } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { migrateDatabase, MIGRATIONS_FOLDER } from "../../../db/migrate.ts";
import { pgliteExtensions } from "../../../db/pglite-assets.ts";
import { cli, emptyInstallation, startRestored } from "./backup-support.ts";

/** An archive made by an earlier Lantern (fewer migrations) restores, and ends up on this version's schema. */

const work = mkdtempSync(join(tmpdir(), "lantern-older-"));
const targets: { remove(): Promise<void> }[] = [];

afterAll(async () => {
  for (const target of targets) await target.remove();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("an archive from an older schema", () => {
  test("loads at its own migration, then this version's later migrations run, and a server starts on it", async () => {
    const all = readdirSync(MIGRATIONS_FOLDER).sort();
    const older = all.slice(0, -3);
    const folder = join(work, "migrations");
    mkdirSync(folder);
    for (const name of older) symlinkSync(join(MIGRATIONS_FOLDER, name), join(folder, name), "dir");

    // The earlier Lantern: its database holds one organisation.
    const handle = wrapPglite(await PGlite.create({ extensions: await pgliteExtensions() }));
    await migrateDatabase(handle, folder);
    await handle.db.execute(sql`insert into organisations (name, slug) values ('Older Ltd', 'older')`);
    const archive = join(work, "older.tar");
    await saveArchive(backupStream(handle, createBlobStore({ kind: "local", directory: join(work, "blobs") })), archive);
    await handle.close();

    const target = await emptyInstallation();
    targets.push(target);
    const restored = await cli(target, "restore", "--from", archive);
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: "" });
    const server = await startRestored(target);
    try {
      expect(await lastMigration(server.db)).toBe(all.at(-1)!);
      expect(resultRows(await server.db.execute(sql`select name from organisations where slug = 'older'`))).toEqual([{ name: "Older Ltd" }]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
