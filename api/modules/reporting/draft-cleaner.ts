import { and, eq, inArray, lt } from "drizzle-orm";
import { blobs, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { SYSTEM_ACTOR } from "../../context.ts";
import { logError, logInfo } from "../../lib/log.ts";
import { recordActivity } from "../audit/service.ts";
import { REPORTER_ABSOLUTE_TIMEOUT_MS } from "./session-policy.ts";

/**
 * A Draft untouched this long is abandoned: its session ended long before (reporter sessions last at
 * most four hours), and nothing can reach it again.
 */
export const ABANDONED_DRAFT_AGE_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

// The bound must outlive every session that could still be writing to the draft.
if (ABANDONED_DRAFT_AGE_MS <= REPORTER_ABSOLUTE_TIMEOUT_MS) throw new Error("Abandoned drafts must outlive reporter sessions");

/**
 * Deletes one batch of abandoned Drafts with their answers, attachments and blob rows in one
 * transaction (with an audit entry per organisation), then their bytes after commit: an
 * unreachable file is harmless, a row without its file is not. Rows are claimed with
 * FOR UPDATE SKIP LOCKED, so instances sharing one database never take the same draft, and a draft
 * a reporter is saving at this moment is skipped (and then no longer old). Returns how many it deleted.
 */
async function sweepBatch(services: Services, cutoff: Date): Promise<number> {
  const db = services.database.db;
  const swept = await db.transaction(async (tx) => {
    const drafts = await tx
      .select({ id: reportSubmissions.id, organisationId: reportSubmissions.organisationId })
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.status, "Draft"), eq(reportSubmissions.completed, false), lt(reportSubmissions.updatedAt, cutoff)))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (drafts.length === 0) return { count: 0, storageKeys: [] as string[], sessionsEnded: async () => {} };
    const ids = drafts.map((draft) => draft.id);
    const files = await tx
      .select({ blobId: blobs.id, storageKey: blobs.storageKey })
      .from(reportSubmissionAttachments)
      .innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId))
      .where(inArray(reportSubmissionAttachments.submissionId, ids));
    if (files.length > 0) await tx.delete(blobs).where(inArray(blobs.id, files.map((file) => file.blobId)));
    // Answers, attachments and any session still bound go with the submission (cascades); so does
    // any cached copy of such a session, on every instance.
    await tx.delete(reportSubmissions).where(inArray(reportSubmissions.id, ids));
    const sessionsEnded = await services.invalidator.announce(tx, { submissionIds: ids });
    const perOrganisation = new Map<string, number>();
    for (const draft of drafts) perOrganisation.set(draft.organisationId, (perOrganisation.get(draft.organisationId) ?? 0) + 1);
    for (const [organisationId, count] of perOrganisation) {
      await recordActivity(tx, SYSTEM_ACTOR, { organisationId, objectType: "ReportSubmission", action: "DeleteAbandonedDrafts", metadata: { count } });
    }
    return { count: drafts.length, storageKeys: files.map((file) => file.storageKey), sessionsEnded };
  });
  await swept.sessionsEnded();
  for (const key of swept.storageKeys) await services.blobs.delete(key).catch((error: unknown) => logError("Could not remove the bytes of an abandoned draft's attachment", error));
  return swept.count;
}

/** Deletes every Draft untouched since `now` minus the bound, batch by batch. */
export async function sweepAbandonedDrafts(services: Services, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ABANDONED_DRAFT_AGE_MS);
  let total = 0;
  for (;;) {
    const count = await sweepBatch(services, cutoff);
    total += count;
    if (count < BATCH) break;
  }
  if (total > 0) logInfo("Deleted abandoned drafts", { count: total });
  return total;
}
