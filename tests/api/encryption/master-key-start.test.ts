import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForReady } from "../../helpers/processes.ts";

/**
 * The master key as an operator meets it on the embedded database: created on the first start with
 * owner-only permissions, and a start with a key that does not fit the data ends with one line.
 */
const ROOT = join(import.meta.dir, "..", "..", "..");
const MAIN = join(ROOT, "api", "main.ts");
const CLI = join(ROOT, "scripts", "cli.ts");
const dataDir = mkdtempSync(join(tmpdir(), "lantern-master-key-"));
const keyFile = join(dataDir, "master.key");

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function childEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DATABASE_URL;
  delete env.MASTER_KEY;
  delete env.MASTER_KEY_FILE;
  return { ...env, DATA_DIR: dataDir, LOG_LEVEL: "info", NODE_ENV: "development", ...extra };
}

/** Starts the server; returns whether it became ready, its exit code if it ended, and its output. */
async function start(extra: Record<string, string> = {}): Promise<{ ready: boolean; code: number | null; stderr: string; stdout: string }> {
  const port = await freePort();
  const child = Bun.spawn(["bun", MAIN], { env: childEnv({ PORT: String(port), ...extra }), stdout: "pipe", stderr: "pipe" });
  const ready = await Promise.race([waitForReady(`http://127.0.0.1:${port}`, 90_000), child.exited.then(() => false)]);
  if (ready) child.kill("SIGTERM");
  const code = await child.exited;
  return { ready, code: ready ? null : code, stdout: await new Response(child.stdout).text(), stderr: await new Response(child.stderr).text() };
}

describe("the master key on the embedded database", () => {
  test("the first start creates it, readable by its owner only, and says to back it up", async () => {
    const first = await start();
    expect(first.ready).toBe(true);
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, "utf8").trim(), "base64").length).toBe(32);
    expect(first.stdout + first.stderr).toContain("back it up apart from the data directory");
  }, 120_000);

  test("rotate-keys gives every organisation a data key; the next start keeps the same master key", async () => {
    const before = readFileSync(keyFile, "utf8");
    // No server runs here, so the new keys may seal at once.
    const rotate = Bun.spawn(["bun", CLI, "rotate-keys", "--switch-delay-seconds", "0"], { env: childEnv(), stdout: "pipe", stderr: "pipe" });
    expect(await rotate.exited).toBe(0);
    const printed = await new Response(rotate.stdout).text();
    expect(printed).toContain("have a new data key");
    expect(printed).toMatch(/Waiting until \d{4}-\d{2}-\d{2}T/);
    expect(printed).toMatch(/Sealed again with the new keys: \d+ answers, \d+ messages, \d+ notes, \d+ file names, \d+ files\./);
    expect((await start()).ready).toBe(true);
    expect(readFileSync(keyFile, "utf8")).toBe(before);
  }, 120_000);

  test("another master key stops the start with one line, naming neither key's bytes", async () => {
    const other = Buffer.alloc(32, 3).toString("base64");
    const wrong = await start({ MASTER_KEY: other });
    expect(wrong.ready).toBe(false);
    expect(wrong.code).toBe(78);
    const lines = wrong.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("The master key does not match this database");
    expect(wrong.stderr).not.toContain(other);
    expect(wrong.stderr).not.toContain(readFileSync(keyFile, "utf8").trim());
  }, 120_000);

  test("a lost key file is not silently replaced: the start stops and leaves no new key behind", async () => {
    renameSync(keyFile, `${keyFile}.backup`);
    try {
      const lost = await start();
      expect(lost.ready).toBe(false);
      expect(lost.code).toBe(78);
      expect(lost.stderr).toContain("The master key does not match this database");
      expect(existsSync(keyFile)).toBe(false);
    } finally {
      renameSync(`${keyFile}.backup`, keyFile);
    }
    expect((await start()).ready).toBe(true);
  }, 120_000);

  test("MASTER_KEY_FILE names the key; a file that is missing or not a key is one clear line", async () => {
    expect((await start({ MASTER_KEY_FILE: keyFile })).ready).toBe(true);
    const missing = await start({ MASTER_KEY_FILE: join(dataDir, "nowhere.key") });
    expect(missing.code).toBe(78);
    expect(missing.stderr.trim()).toBe(`MASTER_KEY_FILE ${join(dataDir, "nowhere.key")} does not exist`);
  }, 120_000);
});
