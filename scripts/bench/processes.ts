import { fileURLToPath } from "node:url";
import type { Subprocess } from "bun";

/** The repository root, so children run with the same relative paths as `bun run` would give them. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** How long a server may take to answer its readiness URL (a fresh PGlite also migrates and seeds). */
const READY_TIMEOUT_MS = 120_000;
/** Short, so start-to-ready is measured to about this precision. */
const READY_POLL_MS = 10;
const STOP_TIMEOUT_MS = 15_000;
/** Only the end of a child's output is kept: it is shown when the child fails, nothing more. */
const OUTPUT_TAIL_CHARS = 4000;

export interface Child {
  name: string;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** performance.now() just before spawning: the zero for start-to-ready. */
  startedAt: number;
  /** The last few thousand characters the child wrote to stdout and stderr. */
  outputTail(): string;
}

/**
 * A clean environment for children: PATH and HOME from ours plus what the caller sets, so a
 * DATABASE_URL, S3_ or SMTP_ variable in the shell cannot change what is measured.
 */
export function childEnv(vars: Record<string, string>): Record<string, string> {
  const base: Record<string, string> = {};
  for (const key of ["PATH", "HOME", "TMPDIR"] as const) {
    const value = process.env[key];
    if (value) base[key] = value;
  }
  return { ...base, ...vars };
}

/** Asks the kernel for a free loopback port (a tiny race with other programs is acceptable here). */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(null) });
  const port = probe.port;
  void probe.stop(true);
  if (!port) throw new Error("could not find a free port");
  return port;
}

export function spawnChild(name: string, cmd: string[], env: Record<string, string>): Child {
  let tail = "";
  const startedAt = performance.now();
  const proc = Bun.spawn({ cmd, cwd: REPO_ROOT, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  // Drained continuously so a chatty child never blocks on a full pipe.
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) tail = (tail + decoder.decode(chunk, { stream: true })).slice(-OUTPUT_TAIL_CHARS);
  };
  void drain(proc.stdout).catch(() => {});
  void drain(proc.stderr).catch(() => {});
  return { name, proc, startedAt, outputTail: () => tail.trim() };
}

/** Runs a command to completion; throws with its output when it exits non-zero. */
export async function runCommand(name: string, cmd: string[], env: Record<string, string>): Promise<void> {
  const child = spawnChild(name, cmd, env);
  const code = await child.proc.exited;
  // Let the drains take the last chunks before the output is read.
  await Bun.sleep(20);
  if (code !== 0) throw new Error(`${name} exited with code ${code}: ${child.outputTail() || "(no output)"}`);
}

/**
 * Polls `url` until it answers 200 and returns the milliseconds since the child was spawned.
 * Fails early with the child's output if it exits first.
 */
export async function waitUntilReady(child: Child, url: string): Promise<number> {
  const deadline = child.startedAt + READY_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (child.proc.exitCode !== null || child.proc.signalCode !== null) {
      await Bun.sleep(20);
      throw new Error(`${child.name} exited before it was ready: ${child.outputTail() || "(no output)"}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - child.startedAt;
    } catch {
      // Not listening yet (connection refused) or too slow to answer: poll again.
    }
    await Bun.sleep(READY_POLL_MS);
  }
  throw new Error(`${child.name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Resident memory of one process in KiB, from /proc (Linux only, which is where this runs). */
export async function readRssKib(pid: number): Promise<number> {
  const status = await Bun.file(`/proc/${pid}/status`).text();
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

/** SIGTERM, then wait; SIGKILL only if the child ignores SIGTERM for too long. Safe to call twice. */
export async function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill("SIGTERM");
  const exited = await Promise.race([child.proc.exited.then(() => true), Bun.sleep(STOP_TIMEOUT_MS).then(() => false)]);
  if (!exited) {
    console.error(`bench: ${child.name} did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; sending SIGKILL`);
    child.proc.kill("SIGKILL");
    await child.proc.exited;
  }
}
