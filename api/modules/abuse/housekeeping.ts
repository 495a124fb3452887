import { lt } from "drizzle-orm";
import { proofOfWorkRedemptions } from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { logError } from "../../lib/log.ts";
import { declareJob, observeJob } from "../../lib/metrics.ts";
import { sweepAbandonedDrafts } from "../reporting/draft-cleaner.ts";
import { forgetExpiredMailedTokens } from "../account-access/mailed-tokens.ts";
import { forgetExpiredEmailChanges } from "../account-access/email-change.ts";
import { forgetOldFailures } from "./failures.ts";
import { forgetStaleProspects } from "../onboarding/start.ts";

export const HOUSEKEEPING_INTERVAL_MS = 10 * 60 * 1000;

/** One round: abandoned drafts and their files, spent challenges past expiry, decayed failure counts, expired mailed links and email changes. */
export async function runHousekeeping(services: Services, now = new Date()): Promise<void> {
  const db = services.database.db;
  await sweepAbandonedDrafts(services, now);
  await db.delete(proofOfWorkRedemptions).where(lt(proofOfWorkRedemptions.expiresAt, now));
  await forgetOldFailures(db, now);
  await forgetExpiredMailedTokens(db, now);
  await forgetExpiredEmailChanges(db, now);
  await forgetStaleProspects(db, now);
}

/**
 * Runs housekeeping every ten minutes on every instance; each round's deletes are safe to run on
 * several instances at once (drafts are claimed with SKIP LOCKED, the rest are idempotent). The
 * returned stop waits for a round under way, so the database is not closed beneath it.
 */
export function startHousekeeping(services: Services, intervalMs = HOUSEKEEPING_INTERVAL_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  declareJob("housekeeping");
  const timer = setInterval(() => {
    if (running) return;
    running = observeJob("housekeeping", runHousekeeping(services))
      .catch((error: unknown) => logError("Housekeeping failed", error))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref?.();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
