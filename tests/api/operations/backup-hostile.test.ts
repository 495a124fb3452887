import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLantern } from "../../../api/boot.ts";
import { decodeMasterKeyText, parseConfig } from "../../../api/config.ts";
import { masterKeyId } from "../../../api/lib/master-key.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { usingPostgres } from "../../setup/template.ts";
import { cli, emptyInstallation, hasTables, installationOf, startRestored, tellStory, type Installation } from "./backup-support.ts";

/**
 * What an operator meets when an archive or a target is not what it should be: one clear line,
 * exit 1, and nothing written to the target.
 */

const archives = mkdtempSync(join(tmpdir(), "lantern-archives-"));
const plain = join(archives, "lantern.tar");
const compressed = join(archives, "lantern.tar.gz");
const targets: { remove(): Promise<void> }[] = [];
let source: TestServer;

beforeAll(async () => {
  source = await startTestServer();
  await tellStory(source);
  for (const file of [plain, compressed]) expect((await cli(installationOf(source), "backup", "--to", file)).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await source.stop();
  for (const target of targets) await target.remove();
  rmSync(archives, { recursive: true, force: true });
}, 60_000);

async function emptyTarget(): Promise<Installation> {
  const target = await emptyInstallation();
  targets.push(target);
  return target;
}

/** A restore that must fail: one line, exit 1, no database and no blob written. */
async function expectRefused(archive: string, expected: string, target?: Installation): Promise<void> {
  const into = target ?? (await emptyTarget());
  const result = await cli(into, "restore", "--from", archive);
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 1, stdout: "" });
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toContain(expected);
  if (!target) {
    expect(await hasTables(into)).toBe(false);
    expect(readdirSync(into.dataDir).filter((name) => name !== "pglite")).toEqual([]);
  }
}

describe("a damaged archive", () => {
  test("a truncated archive is refused before anything is written", async () => {
    const bytes = new Uint8Array(await Bun.file(plain).arrayBuffer());
    const truncated = join(archives, "truncated.tar");
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectRefused(truncated, "truncated");
    const zipped = new Uint8Array(await Bun.file(compressed).arrayBuffer());
    const truncatedGzip = join(archives, "truncated.tar.gz");
    writeFileSync(truncatedGzip, zipped.subarray(0, Math.floor(zipped.length * 0.6)));
    await expectRefused(truncatedGzip, "The archive is");
  }, 120_000);

  test("one flipped byte, in a table's rows or in a file, is refused before anything is written", async () => {
    const bytes = new Uint8Array(await Bun.file(plain).arrayBuffer());
    // 600: the first entry's data (a table's rows); three quarters in: among the blobs or the last tables.
    for (const offset of [600, Math.floor(bytes.length * 0.75)]) {
      const flipped = bytes.slice();
      flipped[offset] = flipped[offset]! ^ 0x20;
      const path = join(archives, `flipped-${offset}.tar`);
      writeFileSync(path, flipped);
      await expectRefused(path, "The archive is damaged");
    }
    const zipped = new Uint8Array(await Bun.file(compressed).arrayBuffer());
    zipped[Math.floor(zipped.length / 2)] = zipped[Math.floor(zipped.length / 2)]! ^ 0x01;
    const path = join(archives, "flipped.tar.gz");
    writeFileSync(path, zipped);
    await expectRefused(path, "The archive is");
  }, 120_000);

  test("a file that is not an archive, or is missing, is one clear line", async () => {
    const text = join(archives, "notes.txt");
    writeFileSync(text, "not a backup\n".repeat(100));
    await expectRefused(text, "The archive is");
    await expectRefused(join(archives, "missing.tar"), "does not exist");
  }, 60_000);
});

describe("a target that is not empty", () => {
  test("a second restore onto a restored installation is refused and changes nothing", async () => {
    const target = await emptyTarget();
    expect((await cli(target, "restore", "--from", plain)).code).toBe(0);
    await expectRefused(plain, usingPostgres() ? "The target database is not empty" : "The data directory already holds a database", target);
  }, 120_000);

  test("a blob store holding another file is refused before the database is touched", async () => {
    const target = await emptyTarget();
    mkdirSync(join(target.dataDir, "blobs", "attachments"), { recursive: true });
    writeFileSync(join(target.dataDir, "blobs", "attachments", "someone-else"), "x");
    const result = await cli(target, "restore", "--from", plain);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toStartWith("The blob store is not empty");
    expect(await hasTables(target)).toBe(false);
  }, 60_000);

  test("restoring while the embedded server runs on that DATA_DIR is refused", async () => {
    // An embedded server on disk, whichever database this run uses: that is where the CLI must not write.
    const dataDir = mkdtempSync(join(tmpdir(), "lantern-embedded-"));
    const running = await startLantern(parseConfig({ DATA_DIR: dataDir, MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: "silent", NODE_ENV: "test" }), { port: 0, hostname: "127.0.0.1" });
    try {
      const result = await cli({ dataDir, databaseUrl: null, settings: {} }, "restore", "--from", plain);
      expect(result.code).toBe(75);
      expect(result.stderr.trim()).toBe(`A Lantern server is running on ${dataDir}: restore into an empty DATA_DIR with no server on it`);
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("after a restore", () => {
  test("a server started with another master key stops with one line naming both key ids", async () => {
    const target = await emptyTarget();
    expect((await cli(target, "restore", "--from", compressed)).code).toBe(0);
    const otherKey = Buffer.alloc(32, 9).toString("base64");
    const refused = await startRestored(target, otherKey).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refused).toStartWith("The master key does not match this database");
    expect(refused).toContain(masterKeyId(decodeMasterKeyText(TEST_MASTER_KEY)!));
    expect(refused).toContain(masterKeyId(decodeMasterKeyText(otherKey)!));
    expect(refused!.split("\n")).toHaveLength(1);
  }, 60_000);
});
