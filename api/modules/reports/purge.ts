import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import {
  blobs,
  guestReportInvites,
  reportConversationMessages,
  reportConversations,
  reportSubmissionAnswers,
  reportSubmissionAttachments,
  reportSubmissionNotes,
  reportSubmissions,
  reporterHandoffs,
  reporterSessions,
} from "../../../db/schema/index.ts";
import type { Services } from "../../context.ts";
import { logError } from "../../lib/log.ts";

/**
 * The one way a report's content goes for good: the owner's hard delete (life.ts) and retention
 * (decision 052) both take it. What could identify anyone goes (answers, files, chat, notes,
 * reporter sessions, the login password, the internal reference, which the list searches); the
 * row stays with its report ID, status and dates, so the audit trail still names what was deleted.
 */

export interface PurgedReport {
  /** How many stored files went (the audit entry's only detail: counts, never content). */
  files: number;
  /** After the commit: ends cached reporter sessions everywhere, then removes the files' bytes. */
  afterCommit: () => Promise<void>;
}

/** Inside the caller's transaction, the report already locked; `deletedByUserId` is null for the system. */
export async function purgeReport(
  tx: Database,
  services: Pick<Services, "invalidator" | "blobs">,
  submissionId: string,
  deletedByUserId: string | null,
  deletedAt = new Date(),
): Promise<PurgedReport> {
  const keys = await purgeContent(tx, submissionId);
  // The reporter's sessions went with the content: no instance may keep serving a cached one.
  const sessionsEnded = await services.invalidator.announce(tx, { submissionIds: [submissionId] });
  await tx
    .update(reportSubmissions)
    .set({ deletedAt, deletedByUserId, passwordHash: null, internalReference: "" })
    .where(eq(reportSubmissions.id, submissionId));
  return {
    files: keys.length,
    // Rows first, bytes after commit: an orphaned file is unreachable, a row without its file is an error.
    afterCommit: async () => {
      await sessionsEnded();
      for (const key of keys) await services.blobs.delete(key).catch((error: unknown) => logError("Could not remove the bytes of a deleted report", error));
    },
  };
}

/** Deletes the report's content rows; returns the storage keys of the blobs whose rows went. */
async function purgeContent(tx: Database, submissionId: string): Promise<string[]> {
  const attachmentBlobs = await tx
    .select({ id: blobs.id, key: blobs.storageKey })
    .from(reportSubmissionAttachments)
    .innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId))
    .where(eq(reportSubmissionAttachments.submissionId, submissionId));
  const imageBlobs = await tx
    .select({ id: blobs.id, key: blobs.storageKey })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .innerJoin(blobs, eq(blobs.id, reportConversationMessages.imageBlobId))
    .where(eq(reportConversations.submissionId, submissionId));
  await tx.delete(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, submissionId));
  await tx.delete(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, submissionId));
  // The conversation row goes too (its messages cascade), so no chat list can show an empty shell.
  await tx.delete(reportConversations).where(eq(reportConversations.submissionId, submissionId));
  const blobIds = [...attachmentBlobs, ...imageBlobs].map((blob) => blob.id);
  if (blobIds.length > 0) await tx.delete(blobs).where(inArray(blobs.id, blobIds));
  await tx.delete(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, submissionId));
  await tx.delete(reporterSessions).where(eq(reporterSessions.submissionId, submissionId));
  await tx.delete(reporterHandoffs).where(eq(reporterHandoffs.submissionId, submissionId));
  // A pending guest invite would otherwise still lead someone to a report that no longer exists.
  await tx
    .update(guestReportInvites)
    .set({ status: "Aborted" })
    .where(and(eq(guestReportInvites.submissionId, submissionId), eq(guestReportInvites.status, "Opened")));
  return [...attachmentBlobs, ...imageBlobs].map((blob) => blob.key);
}
