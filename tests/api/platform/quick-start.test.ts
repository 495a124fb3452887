import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { serverBundleIsCurrent } from "../../../scripts/server-build.ts";
import { upload } from "../../fixtures/attachments.ts";
import { containsText, pngWithText } from "../../fixtures/files.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";
import { ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";

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

/** A reporter starts a report on the demo's main form and attaches a picture with an author: it is stored without it. */
async function uploadCleaned(server: { origin: string; port: number }, organisationPage: string): Promise<void> {
  // The main form's row: its name, then its link (other forms may ask for a password first).
  const formId = /<td>Workplace Misconduct Report<\/td>[^]*?\/report\/([0-9a-f-]{36})/.exec(organisationPage)?.[1];
  expect(formId).toBeString();
  const http = {
    fetch(path: string, init: RequestInit & { host?: string } = {}) {
      const { host, ...rest } = init;
      const headers = new Headers(rest.headers);
      headers.set("Host", `${host ?? "localhost"}:${server.port}`);
      return fetch(`${server.origin}${path}`, { ...rest, headers, redirect: "manual" });
    },
  } as TestServer;
  // As a browser sends it: the server started by `bun run start` is not a test's, and checks the origin of every change.
  const reporter = new ReporterClient(http, "demo.localhost", { Origin: `http://demo.localhost:${server.port}` });
  expect(await reporter.post("/api/auth/report_start", { reportFormID: formId })).toMatchObject({ status: 200 });
  const picture = pngWithText();
  expect(containsText(picture, "Jane Reporter")).toBe(true);
  const answer = await upload(reporter, "evidence.png", picture);
  expect(answer).toMatchObject({ status: 200, body: { fileName: "evidence.png", metadataRemoved: true } });
  // The author's text chunk and the time went: the worker cleaned it.
  expect(answer.body.fileSizeBytes).toBeLessThan(picture.length);
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
