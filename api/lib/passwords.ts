import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id at OWASP's m=19 MiB, t=2, p=1. One hash costs 40–75 ms of a core, so hashing runs
 * behind a small gate: at most two at once, a bounded queue behind them, and anything beyond
 * that is refused at once instead of queueing in front of every other request.
 */
// 2 is Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const MAX_CONCURRENT = 2;
const MAX_QUEUED = 64;

export class HashingBusyError extends Error {
  constructor() {
    super("Too many sign-in attempts are being processed. Please try again in a moment.");
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (waiting.length >= MAX_QUEUED) throw new HashingBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return gated(() => hash(password, OPTIONS));
}

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  // Hash anyway when there is no account, so timing does not reveal which emails exist.
  const target = storedHash ?? DUMMY_HASH;
  const ok = await gated(() => verify(target, password).catch(() => false));
  return storedHash !== null && ok;
}

/** A valid Argon2id hash of a random string, used to spend equal time on unknown accounts. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$nrbEzPAaHPi0jQzlj3tB5A$6vOE9k6/poXEteTJd8fl6MN9b1Cdtk2B8bXA5aLWfxI";
