import { eq, lt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { signInFailures } from "../../../db/schema/index.ts";

/**
 * Failed sign-ins, per subject (in the database, shared by all instances) and overall (per
 * instance, the one whose hashing they load). Both decay: a subject's score halves every hour,
 * the overall count covers the last minute.
 */
export const FAILURE_HALF_LIFE_MS = 60 * 60 * 1000;

const decayed = (score: number, updatedAt: Date, now: Date) => score * 0.5 ** (Math.max(0, now.getTime() - updatedAt.getTime()) / FAILURE_HALF_LIFE_MS);

export async function failureScore(db: Database, key: string, now: Date): Promise<number> {
  const [row] = await db.select().from(signInFailures).where(eq(signInFailures.subjectKey, key));
  return row ? decayed(row.score, row.updatedAt, now) : 0;
}

/**
 * `pressure: false` for counts that hash nothing (reset-link requests): they make their own
 * subject pay, but must not raise the price of everyone's sign-in.
 */
export async function recordFailure(db: Database, key: string, now: Date, options: { pressure?: boolean } = {}): Promise<void> {
  const hours = sql`greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - ${signInFailures.updatedAt})) * 1000 / ${FAILURE_HALF_LIFE_MS})`;
  await db
    .insert(signInFailures)
    .values({ subjectKey: key, score: 1, updatedAt: now })
    .onConflictDoUpdate({ target: signInFailures.subjectKey, set: { score: sql`${signInFailures.score} * power(0.5, ${hours}) + 1`, updatedAt: now } });
  if (options.pressure !== false) notePressure(db, now);
}

export async function clearFailures(db: Database, key: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.subjectKey, key));
}

/** Rows whose score has decayed to nothing (a day is 24 half-lives); the housekeeping job calls this. */
export async function forgetOldFailures(db: Database, now: Date): Promise<void> {
  await db.delete(signInFailures).where(lt(signInFailures.updatedAt, new Date(now.getTime() - 24 * FAILURE_HALF_LIFE_MS)));
}

const WINDOW_SECONDS = 60;

/** Per-second counts over the last minute: failures, and attempts refused because hashing was full. */
class PressureWindow {
  private readonly counts = new Array<number>(WINDOW_SECONDS).fill(0);
  private readonly seconds = new Array<number>(WINDOW_SECONDS).fill(-1);

  add(now: Date): void {
    const second = Math.floor(now.getTime() / 1000);
    const slot = second % WINDOW_SECONDS;
    if (this.seconds[slot] !== second) {
      this.seconds[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += 1;
  }

  total(now: Date): number {
    const second = Math.floor(now.getTime() / 1000);
    let sum = 0;
    for (let slot = 0; slot < WINDOW_SECONDS; slot += 1) if (second - this.seconds[slot]! < WINDOW_SECONDS) sum += this.counts[slot]!;
    return sum;
  }
}

// Keyed by database handle: one per running instance (and per test server in one test process).
const windows = new WeakMap<Database, PressureWindow>();

function windowOf(db: Database): PressureWindow {
  let window = windows.get(db);
  if (!window) windows.set(db, (window = new PressureWindow()));
  return window;
}

export function notePressure(db: Database, now: Date): void {
  windowOf(db).add(now);
}

/** Failed or refused sign-ins on this instance in the last minute. */
export function recentPressure(db: Database, now: Date): number {
  return windowOf(db).total(now);
}
