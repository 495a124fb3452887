import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { UserError } from "./errors.ts";

/**
 * Stateless proof-of-work challenges (docs/decisions/016-proof-of-work.md). A challenge is
 * `<payload>.<signature>`: the payload says what it is for (action, subject key), how hard it is
 * (leading zero bits) and until when; the signature is an HMAC with the server secret, so any
 * instance can check a challenge it did not issue. The work is to find a decimal nonce such that
 * SHA-256(signature + nonce) starts with `difficulty` zero bits. A solution is `<challenge>.<nonce>`.
 * The signature (43 characters) plus a nonce fits one SHA-256 block, so each try is one compression.
 */

export const CHALLENGE_ACTIONS = ["login_submit", "forgot_password_submit", "report_login", "report_start", "report_upload", "enquiry", "onboard_submit"] as const;
export type ChallengeAction = (typeof CHALLENGE_ACTIONS)[number];

/** Long enough for a slow phone at the hardest difficulty; short enough that stockpiling is useless. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;

export interface Challenge {
  token: string;
  action: ChallengeAction;
  difficulty: number;
  expiresAt: string;
}

interface Payload {
  a: ChallengeAction;
  s: string;
  d: number;
  e: number;
  r: string;
}

export const CHALLENGE_REQUIRED = "Your browser needs to complete a quick check before this can be sent. Please try again.";

/** 428: the request must be repeated with a solved challenge; the answer carries the challenge. */
export class ChallengeRequiredError extends UserError {
  constructor(readonly challenge: Challenge) {
    super("CHALLENGE_REQUIRED", CHALLENGE_REQUIRED);
  }
}

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(`challenge:${payload}`).digest("base64url");

export function issueChallenge(secret: string, action: ChallengeAction, subjectKey: string, difficulty: number, now: Date): Challenge {
  const expires = now.getTime() + CHALLENGE_LIFETIME_MS;
  const payload: Payload = { a: action, s: subjectKey, d: difficulty, e: expires, r: randomBytes(9).toString("base64url") };
  const encoded = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return { token: `${encoded}.${sign(secret, encoded)}`, action, difficulty, expiresAt: new Date(expires).toISOString() };
}

/** Leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export interface VerifiedSolution {
  /** Identifies the challenge; spent once (see abuse/challenges.ts). */
  signature: string;
  difficulty: number;
  expiresAt: Date;
}

/**
 * Checks a solution against the secret, the action, the subject and the clock, and that the work
 * was done. Returns null for anything forged, expired, meant for something else or unsolved.
 * Costs one HMAC and one SHA-256, so refusing is cheap.
 */
export function checkSolution(secret: string, solution: string, action: ChallengeAction, subjectKey: string, now: Date): VerifiedSolution | null {
  if (solution.length > 400) return null;
  const parts = solution.split(".");
  if (parts.length !== 3) return null;
  const [encoded, signature, nonce] = parts as [string, string, string];
  if (!/^\d{1,16}$/u.test(nonce)) return null;
  const expected = Buffer.from(sign(secret, encoded));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as Payload;
  } catch {
    return null;
  }
  if (payload.a !== action || payload.s !== subjectKey || typeof payload.d !== "number" || typeof payload.e !== "number") return null;
  if (payload.e <= now.getTime()) return null;
  const digest = createHash("sha256").update(signature + nonce).digest();
  if (leadingZeroBits(digest) < payload.d) return null;
  return { signature, difficulty: payload.d, expiresAt: new Date(payload.e) };
}
