import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, waitForReady } from "../../helpers/processes.ts";
import { uploadCleaned } from "../../helpers/served-upload.ts";

/**
 * `bun run build` makes one executable (dist/lantern) that serves everything; run from another
 * folder on a fresh data directory, it serves the demo and cleans an upload in its cleaning worker,
 * which the executable carries as an entry point of its own (decision 060).
 */

const ROOT = join(import.meta.dir, "..", "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "lantern-executable-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("the executable built by bun run build serves the demo and cleans a reporter's upload in its worker", async () => {
  const built = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  expect({ exitCode: built.exitCode, output: built.exitCode === 0 ? "" : built.stderr.toString() }).toEqual({ exitCode: 0, output: "" });
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, PORT: String(port), APP_DOMAIN: "localhost", LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  const child = Bun.spawn([join(ROOT, "dist", "lantern")], { cwd: tmpdir(), env, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  try {
    const origin = `http://127.0.0.1:${port}`;
    expect(await waitForReady(origin, 120_000)).toBe(true);
    const page = await fetch(`${origin}/`, { headers: { Host: `demo.localhost:${port}` } });
    expect(page.status).toBe(200);
    await uploadCleaned({ origin, port }, await page.text());
  } finally {
    child.kill("SIGTERM");
    await child.exited;
  }
}, 300_000);
