import { dlopen, FFIType } from "bun:ffi";
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * One process per embedded data directory (docs/decisions/067-one-process-per-data-directory.md).
 * PGlite is a whole Postgres inside one process with no postmaster to refuse a second one: two
 * processes on one directory each replay the other's WAL, write checkpoints the other then
 * overwrites, and lose acknowledged writes or leave a directory that no longer starts.
 *
 * The lock is the kernel's (flock on DATA_DIR/lantern.lock), not a file's existence: it is let go
 * when the process ends however it ends (SIGKILL, a crash, a power cut), so a stale lock cannot
 * exist and nothing has to guess whether a pid still runs. The holder's pid is written in the file
 * only to name it in the refusal.
 */

export const LOCK_FILE_NAME = "lantern.lock";

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
const RETRY_MS = 100;

export class DataDirLockedError extends Error {
  constructor(
    readonly directory: string,
    readonly holderPid: number | null,
  ) {
    super(`${directory} is in use by another Lantern process${holderPid ? ` (pid ${holderPid})` : ""}: stop it first`);
  }
}

type Flock = (fd: number, operation: number) => number;

let flockCall: Flock | null = null;

/** libc's flock through Bun's FFI: neither Bun nor Node exposes it. Linux (glibc, musl) and macOS. */
function flock(): Flock {
  if (flockCall) return flockCall;
  const candidates = process.platform === "darwin" ? ["libc.dylib", "libSystem.B.dylib"] : ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"];
  for (const name of candidates) {
    try {
      const { symbols } = dlopen(name, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
      flockCall = (fd, operation) => symbols.flock(fd, operation);
      return flockCall;
    } catch {
      // The next name: libc is called differently by each C library.
    }
  }
  throw new Error("The embedded database needs flock(2) to keep other processes out of its directory, and this system's C library was not found");
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

function readHolder(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function tryLock(path: string): DataDirLock | null {
  // Opened without truncating: the holder's pid stays readable to the process that is refused.
  const fd = openSync(path, "a+", 0o600);
  if (flock()(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd);
    return null;
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${process.pid}\n`, 0);
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      // Emptied first, so a reader between the unlock and the close never names this process.
      ftruncateSync(fd, 0);
      flock()(fd, LOCK_UN);
      closeSync(fd);
    },
  };
}

export interface LockOptions {
  /** How long to wait for another process to let go (a server still stopping); 0 refuses at once. */
  waitMs?: number;
  /** Called once, when the wait begins. */
  onWaiting?: (holderPid: number | null) => void;
}

/** Takes the data directory's lock, or throws DataDirLockedError naming the process that holds it. */
export async function lockDataDir(directory: string, options: LockOptions = {}): Promise<DataDirLock> {
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  const path = join(directory, LOCK_FILE_NAME);
  const deadline = Date.now() + (options.waitMs ?? 0);
  let told = false;
  for (;;) {
    const lock = tryLock(path);
    if (lock) return lock;
    if (Date.now() >= deadline) throw new DataDirLockedError(directory, readHolder(path));
    if (!told) {
      told = true;
      options.onWaiting?.(readHolder(path));
    }
    await Bun.sleep(RETRY_MS);
  }
}
