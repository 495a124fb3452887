import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { serverBundleIsCurrent } from "../../../scripts/server-build.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";
import { uploadCleaned } from "../../helpers/served-upload.ts";

/**
 * The README's first command, as a first-time user runs it: `bun run start` on a fresh data
 * directory builds what is missing (the server bundle included, decision 023) and serves the demo
 * on the embedded database, from the bundle; a second start on the same directory serves it again.
 * A reporter's upload is cleaned by the bundle's own cleaning worker (decision 060).
 */

const ROOT = join(import.meta.dir, "..", "..", "..");
const dataDir = mkdtempSync(join(tmpdir(), "lantern-quick-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function start(): Promise<{ origin: string; port: number; stop: () => Promise<{ code: number; output: string }> }> {
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, PORT: String(port), APP_DOMAIN: "localhost", LOG_LEVEL: "info" };
  delete env.DATABASE_URL;
  const child = Bun.spawn(["bun", "run", "start"], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]).then((parts) => parts.join("\n"));
  const origin = `http://127.0.0.1:${port}`;
  if (!(await waitForReady(origin, 120_000))) {
    child.kill(9);
    throw new Error(`bun run start did not become ready: ${await output}`);
  }
  return {
    origin,
    port,
    stop: async () => {
      child.kill("SIGTERM");
      return { code: await child.exited, output: await output };
    },
  };
}

test("bun run start serves the demo from the server bundle, on a fresh data directory and again on the same one", async () => {
  for (const run of ["fresh", "existing"]) {
    const server = await start();
    try {
      const login = await fetch(`${server.origin}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Host: `localhost:${server.port}`, Origin: `http://localhost:${server.port}` },
        body: JSON.stringify({ email: "owner@demo.test", password: DEMO_PASSWORD, verifyToken: "" }),
      });
      expect({ run, status: login.status }).toEqual({ run, status: 200 });
      const page = await fetch(`${server.origin}/`, { headers: { Host: `demo.localhost:${server.port}` } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Demo Organisation");
      if (run === "fresh") await uploadCleaned(server, html);
    } finally {
      const stopped = await server.stop();
      expect(stopped.code).toBe(0);
      // The bundle was current, so nothing fell back to the sources.
      expect(stopped.output).not.toContain("starting from the sources instead");
      if (run === "fresh") expect(stopped.output).toContain("Lantern is ready on the embedded database.");
    }
  }
  expect(serverBundleIsCurrent()).toBe(true);
}, 240_000);
