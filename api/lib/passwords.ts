import { hash, verify } from "@node-rs/argon2";

/**
 * Argon2id at OWASP's m=19 MiB, t=2, p=1. One hash costs 40–75 ms of a core, so hashing runs
 * behind a small gate: at most two at once, and a bounded queue per lane behind them.
 *
 * Two lanes, so an unpaid flood cannot starve real users (docs/decisions/016-proof-of-work.md):
 * - "open": anonymous sign-in attempts that carried no proof of work. A short queue; when it is
 *   full the caller is refused at once (and answers with a challenge, not an error page).
 * - "trusted": attempts that paid with a solved challenge, and signed-in or internal work. A
 *   longer queue, always served first when a slot frees.
 */
// 2 is Algorithm.Argon2id; the package exports it as a const enum, which isolated modules cannot read.
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
const MAX_CONCURRENT = 2;
const MAX_QUEUED = { trusted: 256, open: 16 } as const;

export type HashingLane = keyof typeof MAX_QUEUED;

export class HashingBusyError extends Error {
  constructor() {
    super("Too many sign-in attempts are being processed. Please try again in a moment.");
  }
}

let running = 0;
const waiting: Record<HashingLane, (() => void)[]> = { trusted: [], open: [] };

/** How full the gate is, 0 (idle) to 1 (the open lane's queue is full). */
export function openLaneLoad(): number {
  return waiting.open.length / MAX_QUEUED.open;
}

/** What the gate holds now, for the metrics page: hashes running and waiting per lane. */
export function hashingGateState(): { running: number; waiting: Record<HashingLane, number> } {
  return { running, waiting: { trusted: waiting.trusted.length, open: waiting.open.length } };
}

async function gated<T>(lane: HashingLane, work: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT) running += 1;
  else {
    if (waiting[lane].length >= MAX_QUEUED[lane]) throw new HashingBusyError();
    // The finishing hash hands its slot straight over, so no newcomer can slip in between.
    await new Promise<void>((resolve) => waiting[lane].push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = waiting.trusted.shift() ?? waiting.open.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string, lane: HashingLane = "trusted"): Promise<string> {
  return gated(lane, () => hash(password, OPTIONS));
}

export async function verifyPassword(storedHash: string | null, password: string, lane: HashingLane = "trusted"): Promise<boolean> {
  // Hash anyway when there is no account, so timing does not reveal which emails exist.
  const target = storedHash ?? DUMMY_HASH;
  const ok = await gated(lane, () => verify(target, password).catch(() => false));
  return storedHash !== null && ok;
}

/** A valid Argon2id hash of a random string, used to spend equal time on unknown accounts. */
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$nrbEzPAaHPi0jQzlj3tB5A$6vOE9k6/poXEteTJd8fl6MN9b1Cdtk2B8bXA5aLWfxI";
