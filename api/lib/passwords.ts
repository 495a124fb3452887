import { hash, verify } from "@node-rs/argon2";
import { LaneGate, type Lane } from "./lane-gate.ts";

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

export type HashingLane = Lane;

export class HashingBusyError extends Error {
  constructor() {
    super("Too many sign-in attempts are being processed. Please try again in a moment.");
  }
}

const gate = new LaneGate(MAX_CONCURRENT, MAX_QUEUED, () => new HashingBusyError());

/** How full the gate is, 0 (idle) to 1 (the open lane's queue is full). */
export const openLaneLoad = (): number => gate.openLoad();

/** What the gate holds now, for the metrics page: hashes running and waiting per lane. */
export const hashingGateState = (): { running: number; waiting: Record<HashingLane, number> } => gate.state();

const gated = <T>(lane: HashingLane, work: () => Promise<T>): Promise<T> => gate.run(lane, work);

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
