import { rm } from "node:fs/promises";
import { join } from "node:path";

/** Suits a 2-core machine: one wrk thread per core and enough connections to keep the server busy. */
export const WRK_THREADS = 2;
export const WRK_CONNECTIONS = 64;
/** Run first and discarded, so JIT warm-up and connection setup do not count. */
export const WARMUP_SECONDS = 2;

export interface WrkRequest {
  url: string;
  method: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
}

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses with a status outside 2xx/3xx: a figure built on errors is not the figure asked for. */
  non2xx: number;
  socketErrors: number;
}

/** Finds wrk, installing the Debian package when it is missing (saying so on stderr). */
export async function ensureWrk(): Promise<string> {
  const found = Bun.which("wrk");
  if (found) return found;
  console.error("bench: wrk not found; installing it: apt-get update && apt-get install -y wrk");
  for (const cmd of [["apt-get", "update"], ["apt-get", "install", "-y", "wrk"]]) {
    console.error(`bench: $ ${cmd.join(" ")}`);
    // apt's output goes to stderr (fd 2) so stdout stays just the table.
    const proc = Bun.spawn({ cmd, stdin: "ignore", stdout: 2, stderr: 2 });
    if ((await proc.exited) !== 0) throw new Error(`"${cmd.join(" ")}" failed; install wrk by hand (it must be on PATH)`);
  }
  const installed = Bun.which("wrk");
  if (!installed) throw new Error("wrk is still not on PATH after apt-get install");
  return installed;
}

/** Lua string literal for wrk's script; escapes what would end or break the literal. */
function luaString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

/** wrk sends a body or custom headers only from a Lua script; this writes the smallest one. */
export function wrkScript(request: WrkRequest): string {
  const lines = [`wrk.method = ${luaString(request.method)}`];
  if (request.body !== undefined) lines.push(`wrk.body = ${luaString(request.body)}`);
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  return `${lines.join("\n")}\n`;
}

/**
 * Runs wrk for `seconds` against one request and parses its summary. The Lua script lives in
 * `scratchDir` only for the run, since it may hold a session cookie.
 */
export async function runWrk(wrk: string, request: WrkRequest, seconds: number, scratchDir: string): Promise<WrkResult> {
  const scriptPath = join(scratchDir, `wrk-${crypto.randomUUID()}.lua`);
  await Bun.write(scriptPath, wrkScript(request));
  try {
    const cmd = [wrk, `-t${WRK_THREADS}`, `-c${WRK_CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", scriptPath, request.url];
    const proc = Bun.spawn({ cmd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    // wrk stops itself after `seconds`; the timer only guards against it hanging.
    const guard = setTimeout(() => proc.kill("SIGKILL"), (seconds + 30) * 1000);
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(guard);
    if (code !== 0) throw new Error(`wrk exited with code ${code}: ${(stderr || stdout).trim()}`);
    return parseWrkOutput(stdout);
  } finally {
    await rm(scriptPath, { force: true });
  }
}

/** Converts wrk's durations ("812.00us", "1.23ms", "2.01s", "1.00m") to milliseconds. */
export function parseDurationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  if (!match?.[1] || !match[2]) throw new Error(`unexpected wrk duration "${text}"`);
  const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as "us" | "ms" | "s" | "m" | "h"];
  return Number(match[1]) * factor;
}

/** Reads the figures from wrk's text summary (run with --latency for the percentile lines). */
export function parseWrkOutput(text: string): WrkResult {
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(text)?.[1];
  const p50 = /^\s+50%\s+(\S+)/m.exec(text)?.[1];
  const p99 = /^\s+99%\s+(\S+)/m.exec(text)?.[1];
  const requests = /^\s+(\d+) requests in /m.exec(text)?.[1];
  if (!rate || !p50 || !p99 || !requests) throw new Error(`could not read wrk's output:\n${text}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1];
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(rate),
    p50Ms: parseDurationMs(p50),
    p99Ms: parseDurationMs(p99),
    requests: Number(requests),
    non2xx: non2xx ? Number(non2xx) : 0,
    socketErrors,
  };
}

/** A discarded warm-up run, then the measured one. */
export async function measure(wrk: string, request: WrkRequest, seconds: number, scratchDir: string): Promise<WrkResult> {
  await runWrk(wrk, request, WARMUP_SECONDS, scratchDir);
  return runWrk(wrk, request, seconds, scratchDir);
}
