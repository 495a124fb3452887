import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { databaseUrl, usingPostgres } from "../../setup/template.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "lantern-cli-"));
let databaseName: string | null = null;

/** The CLI and the server share one environment: DATABASE_URL on the Postgres run, else PGlite in DATA_DIR. */
async function environment(): Promise<Record<string, string | undefined>> {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "info" };
  delete env.DATABASE_URL;
  if (usingPostgres()) {
    databaseName ??= `lantern_cli_${randomBytes(4).toString("hex")}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${databaseName}`).catch(() => undefined);
    await admin.end();
    env.DATABASE_URL = databaseUrl(databaseName);
    env.MASTER_KEY = TEST_MASTER_KEY;
  }
  return env;
}

async function cli(...args: string[]) {
  const child = Bun.spawn(["bun", join(ROOT, "scripts", "cli.ts"), ...args], { env: await environment(), stdout: "pipe", stderr: "pipe" });
  const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code, stdout, stderr };
}

afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseName) {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
  }
});

describe("operators' CLI", () => {
  test("create-superadmin enforces the password rule, creates once, and the account signs in", async () => {
    const names = ["--first-name", "Grace", "--last-name", "Hopper"];
    const weak = await cli("create-superadmin", "--email", "ops@lantern.test", ...names, "--password", "short");
    expect(weak.code).toBe(64);
    expect(weak.stderr).toContain("Password must contain at least 8 characters");

    const created = await cli("create-superadmin", "--email", "ops@lantern.test", ...names, "--password", "operator-pass-1");
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("Created super admin ops@lantern.test (Grace Hopper)");

    const again = await cli("create-superadmin", "--email", "OPS@lantern.test", ...names, "--password", "operator-pass-1");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");

    expect((await cli("migrate")).stdout).toContain("Database is up to date.");
    const seeded = await cli("seed-demo");
    expect(seeded.stdout).toContain("Seeded the demo organisations");
    expect((await cli("seed-demo")).stdout).toContain("already exist");
    expect(await cli("no-such-command")).toMatchObject({ code: 64, stderr: "bun run cli: unknown command 'no-such-command' (bun run cli --help lists them)\n" });
    expect(await cli("create-superadmin", "--email", "other@lantern.test", "--password", "operator-pass-1")).toMatchObject({ code: 64, stderr: expect.stringContaining("bun run cli create-superadmin: --first-name NAME is required\n") });

    // The server on the same database: the operator signs in; the access log holds no address or user agent.
    const port = await freePort();
    const server = Bun.spawn(["bun", join(ROOT, "api", "main.ts")], { env: { ...(await environment()), PORT: String(port) }, stdout: "pipe", stderr: "pipe" });
    try {
      expect(await waitForReady(`http://127.0.0.1:${port}`, 60_000)).toBe(true);
      const login = await fetch(`http://127.0.0.1:${port}/api/auth/login?token=secret-in-query`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": "Identifying-Browser/1.0", "X-Forwarded-For": "203.0.113.7" },
        body: JSON.stringify({ email: "ops@lantern.test", password: "operator-pass-1", verifyToken: "" }),
      });
      expect(login.status).toBe(200);
      await fetch(`http://127.0.0.1:${port}/`, { headers: { Host: `demo.localhost:${port}`, "User-Agent": "Identifying-Browser/1.0" } });
    } finally {
      server.kill("SIGTERM");
      await server.exited;
    }
    const log = (await new Response(server.stdout).text()) + (await new Response(server.stderr).text());
    expect(log).toContain('"path":"/api/auth/login"');
    for (const secret of ["Identifying-Browser", "203.0.113.7", "127.0.0.1", "secret-in-query", "operator-pass-1"]) expect(log).not.toContain(secret);
  }, 120_000);
});
