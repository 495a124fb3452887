import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import packageJson from "../../../package.json" with { type: "json" };
import { freePort, waitForReady } from "../../helpers/processes.ts";
import { uploadCleaned } from "../../helpers/served-upload.ts";

/**
 * The single executable (`bun run build`) as an operator meets it (decision 068): a tool whose
 * commands, options and exit codes are listed and kept, that serves with no command and never seeds
 * the demo unless asked. Built once for the file, under NODE_ENV=development, a value the README
 * documents: the build must not depend on it. Every run is on the embedded database, the binary's
 * own paths (its files written into DATA_DIR, the directory's lock, the backup through the server).
 */
const ROOT = join(import.meta.dir, "..", "..", "..");
const work = mkdtempSync(join(tmpdir(), "lantern-binary-"));
const BINARY = join(work, "lantern");
const COMMANDS = ["serve", "create-superadmin", "backup", "restore", "migrate", "rotate-keys", "seed-demo", "version"];
const running = new Set<Subprocess>();

beforeAll(() => {
  const build = Bun.spawnSync(["bun", "run", "build", "--outfile", BINARY], { cwd: ROOT, env: { ...process.env, NODE_ENV: "development" }, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`the binary did not build: ${build.stderr.toString()}`);
}, 600_000);

afterAll(async () => {
  for (const child of running) child.kill(9);
  await Promise.all([...running].map((child) => child.exited));
  rmSync(work, { recursive: true, force: true });
});

/** An empty folder to run the binary in, and the environment an operator would give it there. */
function place(extra: Record<string, string> = {}): { cwd: string; dataDir: string; env: Record<string, string | undefined> } {
  const cwd = mkdtempSync(join(work, "cwd-"));
  const dataDir = join(cwd, "data");
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, APP_DOMAIN: "localhost", LOG_LEVEL: "info", NODE_ENV: undefined, DATABASE_URL: undefined, ...extra };
  return { cwd, dataDir, env };
}

function run(args: string[], at: { cwd: string; env: Record<string, string | undefined> } = place()) {
  const child = Bun.spawnSync([BINARY, ...args], { cwd: at.cwd, env: at.env, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  return { code: child.exitCode, stdout: child.stdout.toString(), stderr: child.stderr.toString() };
}

async function serve(at: ReturnType<typeof place>, args: string[] = []) {
  const port = await freePort();
  const child = Bun.spawn([BINARY, ...args], { cwd: at.cwd, env: { ...at.env, PORT: String(port) }, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  running.add(child);
  const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]).then((parts) => parts.join("\n"));
  const origin = `http://127.0.0.1:${port}`;
  if (!(await waitForReady(origin, 90_000))) {
    child.kill(9);
    throw new Error(`the binary did not become ready: ${await output}`);
  }
  const stop = async () => {
    child.kill("SIGTERM");
    const code = await child.exited;
    running.delete(child);
    return { code, output: await output };
  };
  return { origin, stop };
}

async function signIn(origin: string, email: string, password: string): Promise<{ status: number; cookie: string | undefined }> {
  const response = await fetch(`${origin}/api/auth/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password, verifyToken: "" }) });
  return { status: response.status, cookie: response.headers.getSetCookie()[0]?.split(";")[0] };
}

describe("the binary's command line", () => {
  test("--help lists every command and the exit codes; each command has its own --help; version prints the version; none of them touches the folder", () => {
    const at = place();
    const help = run(["--help"], at);
    expect(help.code).toBe(0);
    expect(help.stdout).toStartWith("Usage: lantern [COMMAND] [OPTIONS]");
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    for (const code of ["0", "1", "64", "75", "78"]) expect(help.stdout).toMatch(new RegExp(`^  ${code} +\\S`, "m"));
    for (const command of COMMANDS) {
      const own = run([command, "--help"], at);
      expect({ command, code: own.code, stderr: own.stderr }).toEqual({ command, code: 0, stderr: "" });
      expect(own.stdout).toStartWith(`Usage: lantern ${command}`);
      expect(own.stdout).toContain("-h, --help");
    }
    expect(run(["create-superadmin", "--help"], at).stdout).toContain("--first-name NAME");
    expect(run(["serve", "--help"], at).stdout).toContain("--demo");
    const version = run(["version"], at);
    expect({ code: version.code, stdout: version.stdout.trim() }).toEqual({ code: 0, stdout: `Lantern ${packageJson.version} (Bun ${Bun.version})` });
    expect(readdirSync(at.cwd)).toEqual([]);
  }, 60_000);

  test("an unknown command, an unknown option, an extra argument or a missing value is refused with exit code 64, one line naming it and the usage; nothing starts", () => {
    const at = place();
    const cases: [string[], string, string][] = [
      [["backupp", "--to", "x.tgz"], "lantern: unknown command 'backupp' (lantern --help lists them)", ""],
      [["--to", "x.tgz"], "lantern serve: unknown option '--to'", "Usage: lantern serve [--demo]"],
      [["backup", "--tox", "x.tgz"], "lantern backup: unknown option '--tox'", "Usage: lantern backup --to FILE"],
      [["backup", "--to"], "lantern backup: --to needs a value (FILE)", "Usage: lantern backup --to FILE"],
      [["backup"], "lantern backup: --to FILE is required", "Usage: lantern backup --to FILE"],
      [["migrate", "now"], "lantern migrate: unexpected argument 'now'", "Usage: lantern migrate"],
      [["serve", "--demo=yes"], "lantern serve: --demo takes no value", "Usage: lantern serve [--demo]"],
      [["create-superadmin", "--email", "a@b.test", "--email", "c@d.test"], "lantern create-superadmin: --email is given twice", "Usage: lantern create-superadmin --email EMAIL"],
    ];
    for (const [args, line, usage] of cases) {
      const result = run(args, at);
      const lines = result.stderr.trim().split("\n");
      expect({ args, code: result.code, first: lines[0], stdout: result.stdout }).toEqual({ args, code: 64, first: line, stdout: "" });
      if (usage) expect(lines).toEqual([line, expect.stringContaining(usage)]);
      else expect(lines).toEqual([line]);
    }
    // The first-time operator's `./lantern --help` and `./lantern backup --to x.tgz` once started a server here and wrote a master key.
    expect(readdirSync(at.cwd)).toEqual([]);
  }, 60_000);
});

describe("the binary serving", () => {
  test("a plain start on an empty DATA_DIR seeds no demo; backup goes through it; create-superadmin waits for it to stop, and the console shows the names given", async () => {
    const at = place();
    const first = await serve(at);
    let banner: string;
    try {
      expect((await signIn(first.origin, "admin@lantern.test", DEMO_PASSWORD)).status).toBe(401);
      expect((await signIn(first.origin, "owner@demo.test", DEMO_PASSWORD)).status).toBe(401);
      expect((await fetch(`${first.origin}/`, { headers: { Host: "demo.localhost" } })).status).toBe(404);

      const archive = join(at.cwd, "first.tgz");
      const backup = run(["backup", "--to", archive], at);
      expect({ code: backup.code, stderr: backup.stderr }).toEqual({ code: 0, stderr: "" });
      expect(backup.stdout).toContain("through the running server");
      expect(existsSync(archive)).toBe(true);
      expect(run(["backup", "--to", archive], at)).toMatchObject({ code: 1, stderr: `${archive} already exists: name a new file\n` });

      const refused = run(["create-superadmin", "--email", "ops@example.org", "--first-name", "Ada", "--last-name", "Lovelace", "--password", "operator-pass-1"], at);
      expect(refused.code).toBe(75);
      expect(refused.stderr.trim().split("\n")).toEqual([expect.stringContaining("is in use by another Lantern process")]);
    } finally {
      const stopped = await first.stop();
      expect(stopped.code).toBe(0);
      banner = stopped.output;
    }
    expect(banner).toContain("No staff account exists yet");
    expect(banner).toContain("lantern create-superadmin --email");
    expect(banner).not.toContain(DEMO_PASSWORD);

    const weak = run(["create-superadmin", "--email", "ops@example.org", "--first-name", "Ada", "--last-name", "Lovelace", "--password", "short"], at);
    expect({ code: weak.code, stderr: weak.stderr }).toEqual({ code: 64, stderr: "--password: Password must contain at least 8 characters\n" });
    const created = run(["create-superadmin", "--email", "Ops@Example.org", "--first-name", "Ada", "--last-name", "Lovelace", "--password", "operator-pass-1"], at);
    expect({ code: created.code, stdout: created.stdout, stderr: created.stderr }).toEqual({ code: 0, stdout: "Created super admin ops@example.org (Ada Lovelace).\n", stderr: "" });
    expect(run(["create-superadmin", "--email", "ops@example.org", "--first-name", "Ada", "--last-name", "Lovelace", "--password", "operator-pass-1"], at)).toMatchObject({ code: 1, stderr: "A user with the email ops@example.org already exists.\n" });

    const second = await serve(at, ["serve"]);
    try {
      const { status, cookie } = await signIn(second.origin, "ops@example.org", "operator-pass-1");
      expect(status).toBe(200);
      const viewer = await fetch(`${second.origin}/api/gql/query`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie! },
        body: JSON.stringify({ query: "{ viewer { firstName lastName email } }" }),
      });
      expect(await viewer.json()).toEqual({ data: { viewer: { firstName: "Ada", lastName: "Lovelace", email: "ops@example.org" } } });
    } finally {
      expect((await second.stop()).code).toBe(0);
    }
  }, 240_000);

  test("serve --demo seeds the demo into an empty DATA_DIR, as the binary's only way besides seed-demo; a reporter's upload is cleaned in the worker the binary carries", async () => {
    const at = place();
    const server = await serve(at, ["serve", "--demo"]);
    try {
      expect((await signIn(server.origin, "owner@demo.test", DEMO_PASSWORD)).status).toBe(200);
      // The cleaning worker is an entry point of its own inside the executable (decision 060).
      const port = Number(new URL(server.origin).port);
      const page = await fetch(`${server.origin}/`, { headers: { Host: `demo.localhost:${port}` } });
      expect(page.status).toBe(200);
      await uploadCleaned({ origin: server.origin, port }, await page.text());
    } finally {
      const stopped = await server.stop();
      expect(stopped.code).toBe(0);
      expect(stopped.output).toContain(`owner@demo.test / ${DEMO_PASSWORD}`);
    }
  }, 180_000);
});

test("the binary built under NODE_ENV=development carries graphql's production build, not its development mode", () => {
  // graphql's development mode checks every object against other copies of graphql (decision 023's addendum); its message is in no production build.
  expect(readFileSync(BINARY).includes("Ensure that there is only one instance of")).toBe(false);
});
