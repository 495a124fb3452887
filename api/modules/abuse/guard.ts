import type { Database } from "../../../db/client.ts";
import { proofOfWorkRedemptions } from "../../../db/schema/index.ts";
import { HashingBusyError, openLaneLoad, type HashingLane } from "../../lib/passwords.ts";
import { checkSolution, ChallengeRequiredError, issueChallenge, type ChallengeAction, type VerifiedSolution } from "../../lib/proof-of-work.ts";
import { failureScore, notePressure, recentPressure } from "./failures.ts";
import { serverSecret } from "./secret.ts";

/**
 * How much work an anonymous attempt costs (docs/decisions/016-proof-of-work.md). Difficulty is
 * in leading zero bits of SHA-256: each bit doubles the expected work. The cap is what a phone
 * browser still solves in a few seconds; the first step is a fraction of a second.
 */
export const MAX_DIFFICULTY = 19;
const FIRST_STEP = 12;
/** This many recent failures of one subject cost nothing: a typo or two is never punished. */
export const FREE_FAILURES = 3;
/** Failures per minute on this instance that cost nothing extra to everyone else. */
const CALM_PRESSURE = 30;
/** What everyone pays while the hashing queue (or the cleaning queue, for uploads) for unpaid attempts is full. */
export const BUSY_DIFFICULTY = 14;

/** Grows by two bits (four times the work) with each failure past the free ones. */
export function failureDifficulty(score: number): number {
  // Rounded: three failures a moment ago have decayed a hair below three, and still count as three.
  const failures = Math.round(score);
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DIFFICULTY, FIRST_STEP + 2 * (failures - FREE_FAILURES));
}

/** Grows by two bits each time the instance's failure rate doubles past calm. */
export function pressureDifficulty(failuresPerMinute: number): number {
  if (failuresPerMinute <= CALM_PRESSURE) return 0;
  return Math.min(MAX_DIFFICULTY, FIRST_STEP - 2 + 2 * Math.floor(Math.log2(failuresPerMinute / CALM_PRESSURE)));
}

/**
 * Work for a shared resource that fills up (open drafts, recent enquiries): nothing below `free`,
 * then the first step, and two more bits each time the count doubles.
 */
export function loadDifficulty(count: number, free: number): number {
  if (count < free) return 0;
  return Math.min(MAX_DIFFICULTY, FIRST_STEP + 2 * Math.floor(Math.log2(count / free)));
}

/**
 * The count below which `loadDifficulty(count, free)` asks no more than `difficulty`: a solution of
 * that difficulty pays for any load under it (Infinity once the difficulty reaches the cap).
 */
export function loadAllowedBelow(difficulty: number, free: number): number {
  if (difficulty >= MAX_DIFFICULTY) return Infinity;
  if (difficulty < FIRST_STEP) return free;
  return free * 2 ** (Math.floor((difficulty - FIRST_STEP) / 2) + 1);
}

const SIGN_IN_ACTIONS: readonly ChallengeAction[] = ["login_submit", "forgot_password_submit", "report_login", "onboard_submit"];

export interface Attempt {
  action: ChallengeAction;
  subjectKey: string;
  /** The solution the client sent (`verifyToken`), if any. */
  solution: string | null | undefined;
  /** Work the caller requires on its own grounds (e.g. many open drafts). */
  minimumDifficulty?: number;
  now: Date;
}

export interface Admission {
  /** The hashing lane this attempt may use: the trusted one only when it paid. */
  lane: HashingLane;
}

/** Spends a solution: true the first time across all instances, false for a replay. */
async function redeem(db: Database, solution: VerifiedSolution): Promise<boolean> {
  const rows = await db.insert(proofOfWorkRedemptions).values({ signature: solution.signature, expiresAt: solution.expiresAt }).onConflictDoNothing().returning({ signature: proofOfWorkRedemptions.signature });
  return rows.length === 1;
}

async function requiredDifficulty(db: Database, attempt: Attempt, floor: number): Promise<number> {
  const own = Math.max(floor, attempt.minimumDifficulty ?? 0);
  // Sign-in failures (one subject's and the instance's) weigh on sign-ins only.
  if (!SIGN_IN_ACTIONS.includes(attempt.action)) return own;
  const score = await failureScore(db, attempt.subjectKey, attempt.now);
  return Math.max(own, failureDifficulty(score), pressureDifficulty(recentPressure(db, attempt.now)));
}

/** The attempt's solution if it is genuine and meant for it (not yet spent: the caller redeems it). */
export async function verifiedSolution(db: Database, attempt: Attempt): Promise<VerifiedSolution | null> {
  return attempt.solution ? checkSolution(await serverSecret(db), attempt.solution, attempt.action, attempt.subjectKey, attempt.now) : null;
}

/** A fresh challenge of this difficulty for the attempt's action and subject, as an error to throw. */
export async function challenge(db: Database, attempt: Attempt, difficulty: number): Promise<ChallengeRequiredError> {
  return new ChallengeRequiredError(issueChallenge(await serverSecret(db), attempt.action, attempt.subjectKey, difficulty, attempt.now));
}

/**
 * Decides, before any password hashing, whether an attempt may go ahead. With no work required it
 * goes ahead unpaid; with work required it must carry a fresh, unspent solution of a challenge for
 * this action and subject at least as hard as required now, or it is answered with a new challenge
 * (cheap: no hashing, one database read). Whatever the password, paying is always enough to be heard.
 */
export async function admit(db: Database, attempt: Attempt): Promise<Admission> {
  const required = await requiredDifficulty(db, attempt, 0);
  const solved = await verifiedSolution(db, attempt);
  if (solved && solved.difficulty >= required && (await redeem(db, solved))) return { lane: "trusted" };
  // A full open lane raises the price of unpaid attempts only: the paid ones do not queue there.
  const busy = openLaneLoad() >= 1 && SIGN_IN_ACTIONS.includes(attempt.action);
  if (required === 0 && !busy) return { lane: "open" };
  throw await challenge(db, attempt, Math.max(required, busy ? BUSY_DIFFICULTY : 0));
}

/**
 * Runs the attempt's hashing in its lane. If the lane is full the attempt is not turned away with
 * an error: it is answered with a challenge at least as hard as the busy level, and paying it moves
 * the repeat into the trusted lane.
 */
export async function hashInLane<T>(db: Database, attempt: Attempt, admission: Admission, work: (lane: HashingLane) => Promise<T>): Promise<T> {
  try {
    return await work(admission.lane);
  } catch (error) {
    if (!(error instanceof HashingBusyError)) throw error;
    notePressure(db, attempt.now);
    throw await challenge(db, attempt, await requiredDifficulty(db, attempt, BUSY_DIFFICULTY));
  }
}

const partiesHashing = new Set<string>();

/**
 * Hashing for an anonymous party that holds a session (a reporter changing its password): one
 * hash at a time in the trusted lane; anything it sends meanwhile waits in the open lane, so one
 * session cannot fill the lane paying sign-ins rely on.
 */
export async function hashForParty<T>(party: string, work: (lane: HashingLane) => Promise<T>): Promise<T> {
  if (partiesHashing.has(party)) return work("open");
  partiesHashing.add(party);
  try {
    return await work("trusted");
  } finally {
    partiesHashing.delete(party);
  }
}
