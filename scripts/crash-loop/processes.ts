import { join } from "node:path";
import type { Subprocess } from "bun";
import type { LanternHome } from "../../tests/helpers/lantern-process.ts";
import type { CyclePlan } from "./schedule.ts";

/**
 * The server processes of the crash loop: `bun api/main.ts` as an orchestrator starts it, or
 * `bun run start` in a process group of its own as a terminal or a supervisor does, and the ways
 * each is stopped.
 */

const ROOT = join(import.meta.dir, "..", "..");
const MAIN = join(ROOT, "api", "main.ts");
/** A start must be ready within this, the wait for a stopping predecessor's lock included (decision 067). */
const START_TIMEOUT_MS = 120_000;
/** A graceful stop has the grace (10 s) and then its close; anything longer is a hang. */
const STOP_TIMEOUT_MS = 60_000;

export interface ServerProcess {
  child: Subprocess<"ignore", "ignore", "pipe">;
  /** Started as `bun run start`, leader of its own process group. */
  viaStart: boolean;
  stderr: Promise<string>;
}

/** Every process started here and not yet gone, so that a failure never leaves one behind. */
const running = new Set<ServerProcess>();

export function launch(home: Pick<LanternHome, "env">, port: number, viaStart: boolean): ServerProcess {
  const env: Record<string, string | undefined> = { ...process.env, ...home.env, PORT: String(port) };
  if (!home.env.DATABASE_URL) delete env.DATABASE_URL;
  const command = viaStart ? ["bun", "run", "start"] : ["bun", MAIN];
  const child = Bun.spawn(command, { cwd: ROOT, env, stdout: "ignore", stderr: "pipe", stdin: "ignore", detached: viaStart });
  const server: ServerProcess = { child, viaStart, stderr: new Response(child.stderr).text() };
  running.add(server);
  void child.exited.then(() => running.delete(server));
  return server;
}

/** Polls /readyz until it answers 200; fails with the process's own words if it exits or takes too long. */
export async function waitUntilReady(server: ServerProcess, origin: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`the server exited during its start (${server.child.exitCode ?? server.child.signalCode}): ${(await server.stderr).trim()}`);
    }
    const ready = await fetch(`${origin}/readyz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) return;
    await Bun.sleep(50);
  }
  await kill(server, "SIGKILL");
  throw new Error(`the server was not ready within ${START_TIMEOUT_MS / 1000} s: ${(await server.stderr).trim()}`);
}

function signal(server: ServerProcess, name: NodeJS.Signals, toGroup = false): void {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  try {
    // The group's id is its leader's pid: `bun run start` was spawned detached, as a group of its own.
    process.kill(toGroup ? -server.child.pid : server.child.pid, name);
  } catch {
    // Already gone.
  }
}

async function kill(server: ServerProcess, name: NodeJS.Signals): Promise<void> {
  signal(server, name, server.viaStart);
  await server.child.exited;
}

/** Whether any process of the group of `bun run start` still runs (the server under `bun run`). */
function groupAlive(server: ServerProcess): boolean {
  try {
    process.kill(-server.child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface StopOutcome {
  /** The exit code of the process signalled (for `bun run start`, `bun run`'s, which is its server's), or the signal that ended it. */
  ended: number | string;
  graceful: boolean;
}

/** Stops the server the way the plan says, and waits until every process of it is gone. */
export async function stop(server: ServerProcess, plan: CyclePlan): Promise<StopOutcome> {
  switch (plan.kind) {
    case "sigterm":
      signal(server, "SIGTERM");
      break;
    case "group-sigterm":
      signal(server, "SIGTERM", true);
      break;
    case "double-sigterm":
    case "group-double-sigterm":
      signal(server, "SIGTERM", server.viaStart);
      await Bun.sleep(50);
      signal(server, "SIGTERM", server.viaStart);
      break;
    case "sigkill":
    case "sigkill-starting":
      signal(server, "SIGKILL", server.viaStart);
      break;
  }
  let timer: Timer | undefined;
  const timedOut = await Promise.race([server.child.exited.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS)))]);
  clearTimeout(timer);
  if (timedOut) {
    await kill(server, "SIGKILL");
    throw new Error(`${plan.kind}: the server did not stop within ${STOP_TIMEOUT_MS / 1000} s`);
  }
  // `bun run` ends with its server, but the server must not outlive it.
  for (let waited = 0; server.viaStart && groupAlive(server); waited += 50) {
    if (waited > STOP_TIMEOUT_MS) throw new Error(`${plan.kind}: a process of \`bun run start\` outlived it`);
    await Bun.sleep(50);
  }
  const ended = server.child.exitCode ?? server.child.signalCode ?? "unknown";
  return { ended, graceful: ended === 0 };
}

/** Ends whatever is still running: the loop's failure must not leave a server behind. */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((server) => kill(server, "SIGKILL")));
}
