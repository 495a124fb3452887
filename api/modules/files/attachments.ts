import { and, count, eq, sql, sum } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { blobs, reportForms, reportSubmissionAttachments } from "../../../db/schema/index.ts";
import type { Ctx, ReporterActor } from "../../context.ts";
import { badInput, notFound, UserError } from "../../lib/errors.ts";
import { nextInUtcDay } from "../../lib/day-grain.ts";
import { isUuid } from "../../lib/ids.ts";
import { recordActivity } from "../audit/service.ts";
import { removeBlobBytes, storeCheckedFile } from "./stored-blob.ts";
import { ALREADY_SUBMITTED, CREDENTIALS_PROBLEM, lockDraft, requireReporter } from "../reporting/draft.ts";
import { DRAFT_STORAGE_FULL, ORGANISATION_DRAFT_BYTES_CAP, organisationDraftBytes } from "../reporting/draft-limits.ts";
import { allowedTypesText, checkUpload, EMPTY_FILE, type IncomingFile } from "./checked-upload.ts";
import { isKnownExtension } from "./sniff.ts";
import { admitReporterUpload, cleanAdmitted } from "./upload-admission.ts";

/** Spec §5 and §9: ten files, 25,000,000 bytes each and 25,000,000 bytes together. */
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 25_000_000;
export const MAX_TOTAL_ATTACHMENT_BYTES = 25_000_000;

export const TOO_MANY_FILES = "You can attach at most 10 files.";
export { ATTACHMENTS_TOO_LARGE as TOTAL_TOO_LARGE } from "../../shared/messages.ts";
import { ATTACHMENTS_TOO_LARGE as TOTAL_TOO_LARGE } from "../../shared/messages.ts";
export const FILE_TOO_LARGE = "This file is too large: each file can be at most 25 MB.";
export { CONTENT_MISMATCH, EMPTY_FILE, type IncomingFile } from "./checked-upload.ts";

/** The upload's file, and the solved proof-of-work challenge sent beside it when one was asked for (decision 060). */
export interface IncomingAttachment extends IncomingFile {
  verifyToken: string | null;
}
export const UPLOADS_NOT_ALLOWED = "File uploads are not allowed for this form.";
export const FILE_NOT_FOUND = "File not found";

/** 413, so the reporter's page handles an oversized file the way it handles an oversized request. */
class FileTooLargeError extends UserError {
  constructor() {
    super("BAD_USER_INPUT", FILE_TOO_LARGE);
  }
  override get status(): number {
    return 413;
  }
}

export interface AttachmentView {
  id: string;
  fileName: string;
  fileSizeBytes: number;
  mimeType: string;
  /** False when the file's type could not be cleaned and it was stored as sent, so the reporter's page can say so. */
  metadataRemoved: boolean;
}

/**
 * An upload keeps its day and its place after the report's earlier uploads, not its minute (decision
 * 064): staff list a report's files in the order they came.
 */
const uploadedInOrder = (submissionId: string) =>
  nextInUtcDay(sql`(select max(${reportSubmissionAttachments.createdAt}) from ${reportSubmissionAttachments} where ${reportSubmissionAttachments.submissionId} = ${submissionId})`);

/** ".PDF", "pdf" and " .pdf " in a form's settings all mean pdf. */
const normaliseType = (type: string) => type.trim().toLowerCase().replace(/^\./u, "");

/**
 * The reporter's Draft, locked, with its form and what is already attached. Run at the start (to
 * refuse early, before the body is read) and again in the storing transaction, where the lock
 * makes two concurrent uploads take turns so neither can pass the count or the total.
 */
async function uploadState(tx: Database, actor: ReporterActor) {
  const submission = await lockDraft(tx, actor);
  if (submission.deletedAt) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  if (submission.completed || submission.status !== "Draft") throw new UserError("CONFLICT", ALREADY_SUBMITTED);
  const [form] = await tx.select().from(reportForms).where(eq(reportForms.id, submission.formId)).limit(1);
  if (!form?.allowFileUploads || form.type !== "Custom") throw new UserError("FORBIDDEN", UPLOADS_NOT_ALLOWED);
  const [totals] = await tx
    .select({ files: count(), bytes: sum(reportSubmissionAttachments.fileSizeBytes).mapWith(Number) })
    .from(reportSubmissionAttachments)
    .where(eq(reportSubmissionAttachments.submissionId, submission.id));
  // What all of the organisation's unfinished drafts hold, and may still hold (decision 016).
  const organisationBytes = await organisationDraftBytes(tx, actor.organisationId);
  return { submission, form, files: totals?.files ?? 0, bytes: totals?.bytes ?? 0, organisationBytes, organisationRoom: ORGANISATION_DRAFT_BYTES_CAP - organisationBytes };
}

function checkRoom(state: { files: number; bytes: number; organisationRoom: number }, size: number): void {
  if (state.files >= MAX_ATTACHMENTS) throw badInput(TOO_MANY_FILES);
  if (state.bytes + size > MAX_TOTAL_ATTACHMENT_BYTES) throw badInput(TOTAL_TOO_LARGE);
  if (size > state.organisationRoom) throw badInput(DRAFT_STORAGE_FULL);
}

/** Checks, strips and stores one file for the reporter's Draft (docs/decisions/008-reporter-api.md, Files). */
export async function addReportAttachment(ctx: Ctx, read: () => Promise<IncomingAttachment>): Promise<AttachmentView> {
  const actor = requireReporter(ctx);
  const before = await ctx.db.transaction((tx) => uploadState(tx, actor));
  if (before.files >= MAX_ATTACHMENTS) throw badInput(TOO_MANY_FILES);

  const file = await read();
  if (file.size === 0) throw badInput(EMPTY_FILE);
  if (file.size > MAX_ATTACHMENT_BYTES) throw new FileTooLargeError();
  checkRoom(before, file.size);

  const allowed = before.form.allowedFileTypes.map(normaliseType).filter(isKnownExtension);
  const typeRefused = `Files of this type cannot be attached.${allowed.length > 0 ? ` ${allowedTypesText(allowed)}` : ""}`;
  // Cleaning is the costly part: it is what proof of work pays for, past the drafts' free level or while the pool is busy.
  const admission = await admitReporterUpload(ctx, before.submission.id, before.organisationBytes, file.verifyToken);
  const { fileName, mimeType, bytes: stored, metadataRemoved } = await cleanAdmitted(ctx, admission, (lane) => checkUpload(file, allowed, typeRefused, lane));

  // The bytes go in first (a blob store cannot join a database transaction); if the rows are not
  // written, the bytes are removed again, so no file is left without its row (stored-blob.ts).
  const checked = { purpose: "Attachment" as const, organisationId: actor.organisationId, fileName, mimeType, bytes: stored, metadataRemoved };
  return storeCheckedFile(ctx, checked, (insertBlobRow, storedFileName) =>
    ctx.db.transaction(async (tx) => {
      const state = await uploadState(tx, actor);
      // The limits count what was sent, as the reporter's page does; the rows record what was kept.
      checkRoom(state, file.size);
      const blobId = await insertBlobRow(tx);
      const [attachment] = await tx
        .insert(reportSubmissionAttachments)
        .values({ submissionId: state.submission.id, blobId, fileName: storedFileName, fileSizeBytes: stored.length, mimeType, createdAt: uploadedInOrder(state.submission.id) })
        .returning();
      // No file name in the audit log: it is the reporter's words and may name them.
      await recordActivity(tx, actor, {
        organisationId: actor.organisationId,
        objectType: "ReportSubmission",
        objectId: state.submission.id,
        action: "AddAttachment",
        metadata: { attachment_id: attachment!.id, mime_type: mimeType, size_bytes: stored.length },
      });
      return { id: attachment!.id, fileName, fileSizeBytes: stored.length, mimeType, metadataRemoved };
    }),
  );
}

/** Removes one attachment of the reporter's Draft: its rows in one transaction with the audit entry, then its bytes. */
export async function deleteReportAttachment(ctx: Ctx, attachmentId: string): Promise<void> {
  const actor = requireReporter(ctx);
  if (!isUuid(attachmentId)) throw notFound(FILE_NOT_FOUND);
  const storageKey = await ctx.db.transaction(async (tx) => {
    const submission = await lockDraft(tx, actor);
    const [row] = await tx
      .select({ id: reportSubmissionAttachments.id, blobId: blobs.id, storageKey: blobs.storageKey })
      .from(reportSubmissionAttachments)
      .innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId))
      .where(and(eq(reportSubmissionAttachments.id, attachmentId), eq(reportSubmissionAttachments.submissionId, submission.id)))
      .limit(1);
    if (!row || submission.deletedAt) throw notFound(FILE_NOT_FOUND);
    if (submission.completed || submission.status !== "Draft") throw new UserError("CONFLICT", ALREADY_SUBMITTED);
    await tx.delete(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.id, row.id));
    await tx.delete(blobs).where(eq(blobs.id, row.blobId));
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, action: "DeleteAttachment", metadata: { attachment_id: row.id } });
    return row.storageKey;
  });
  // The rows are gone, so the bytes are unreachable even if this delete fails; it is logged for housekeeping.
  await removeBlobBytes(ctx, storageKey, "a deleted attachment");
}
