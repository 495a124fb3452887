import { holdingAny, InvalidatedCache } from "../../lib/invalidated-cache.ts";
import type { Invalidator } from "../../lib/invalidation.ts";
import { MAX_AGE_MS } from "../../lib/session-cache.ts";

/**
 * Reporter sessions by token hash, as every request on an organisation's host resolves them
 * (decision 027). What deletes or changes a session announces it: report_finish (its token hash),
 * a form unlocked (its token hash), a deleted report and the draft cleaner (the submission's id).
 *
 * Only sessions bound to a report are kept. An unbound session (a password form unlocked before the
 * report starts) is bound once, by starting a report, and a copy of it taken before that would
 * still say "no report" elsewhere; read from the database every time, it never can.
 */
const MAX_ENTRIES = 20_000;

export interface CachedReporterSession {
  organisationId: string;
  submissionId: string;
  unlockedFormIds: readonly string[];
  lastSeenAt: Date;
  expiresAt: Date;
}

export class ReporterSessionCache extends InvalidatedCache<CachedReporterSession> {
  constructor(invalidator: Invalidator, options: { now?: () => number } = {}) {
    super(invalidator, {
      maxEntries: MAX_ENTRIES,
      maxAgeMs: MAX_AGE_MS,
      keysNamedBy: (event) => event.tokenHashes,
      endsCopies: (event) => holdingAny(event.submissionIds, (session: CachedReporterSession) => session.submissionId),
      ...options,
    });
  }
}
