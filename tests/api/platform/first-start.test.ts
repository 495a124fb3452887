import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";

/**
 * The first minutes on the embedded database: what the start log tells a newcomer, and that a
 * production start never seeds (or prints) the demo's public passwords.
 */
const MAIN = join(import.meta.dir, "..", "..", "..", "api", "main.ts");
const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the server on a new DATA_DIR, tries the demo super admin's sign-in, stops it, and returns its log. */
async function firstStart(env: Record<string, string>): Promise<{ port: number; log: string; demoSignInStatus: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "lantern-first-"));
  dataDirs.push(dataDir);
  const port = await freePort();
  const childEnv: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info", ...env };
  delete childEnv.DATABASE_URL;
  const child = Bun.spawn(["bun", MAIN], { env: childEnv, stdout: "pipe", stderr: "pipe" });
  const origin = `http://127.0.0.1:${port}`;
  try {
    expect(await waitForReady(origin, 90_000)).toBe(true);
    const signIn = await fetch(`${origin}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "admin@lantern.test", password: DEMO_PASSWORD, verifyToken: "" }),
    });
    child.kill("SIGTERM");
    await child.exited;
    const log = (await new Response(child.stdout).text()) + (await new Response(child.stderr).text());
    return { port, log, demoSignInStatus: signIn.status };
  } finally {
    child.kill("SIGKILL");
  }
}

describe("first start", () => {
  test("outside production the start log shows where to go, how to sign in, and the demo's report IDs", async () => {
    const { port, log, demoSignInStatus } = await firstStart({ NODE_ENV: "development" });
    expect(demoSignInStatus).toBe(200);
    expect(log).toContain(`Admin console:       http://localhost:${port}/admin`);
    expect(log).toContain(`Demo organisation:   http://demo.localhost:${port}/`);
    expect(log).toContain(`Report login:        http://login.localhost:${port}/`);
    expect(log).toContain(`owner@demo.test / ${DEMO_PASSWORD}`);
    expect(log).toContain(`each with the password ${DEMO_REPORT_PASSWORD}`);
    // One readable line per seeded report: its ID, organisation and status.
    const reportLines = log.split("\n").filter((line) => /^\s+[0-9A-Z]{5}-[0-9A-Z]{5}\s+(demo|northwind)\s+\w+/.test(line));
    expect(reportLines.length).toBeGreaterThanOrEqual(8);
  }, 120_000);

  test("a production start on an empty embedded database seeds nothing and prints no password", async () => {
    const { log, demoSignInStatus } = await firstStart({ NODE_ENV: "production" });
    expect(demoSignInStatus).toBe(401);
    expect(log).not.toContain(DEMO_PASSWORD);
    expect(log).not.toContain(DEMO_REPORT_PASSWORD);
    expect(log).not.toContain("demo.localhost");
    expect(log).toContain("No staff account exists yet");
    expect(log).toContain("bun run cli create-superadmin");
  }, 120_000);
});
