import { eq } from "drizzle-orm";
import { blobs, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { notFound } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { reportFor } from "../reports/policy.ts";
import { FILE_NOT_FOUND } from "./attachments.ts";
import { openedBlobStream } from "./sealed-files.ts";

export interface AttachmentDownload {
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  body: ReadableStream<Uint8Array>;
}

interface AttachmentOwner {
  submissionId: string;
  organisationId: string;
  deleted: boolean;
}

/** Staff read a report's files exactly when they may see the report (docs/decisions/009-report-access.md). */
async function staffMayRead(ctx: Ctx, owner: AttachmentOwner): Promise<boolean> {
  return reportFor(ctx, ctx.db, owner.submissionId, "ReportSubmissionRead").then(
    () => true,
    () => false,
  );
}

async function mayRead(ctx: Ctx, owner: AttachmentOwner): Promise<boolean> {
  const actor = ctx.actor;
  if (actor.kind === "reporter") return !owner.deleted && actor.submissionId === owner.submissionId && actor.organisationId === owner.organisationId;
  if (actor.kind === "staff") return staffMayRead(ctx, owner);
  return false;
}

/**
 * An attachment's bytes for the reporter of its submission or staff who may read that report.
 * Everyone else, and every id that names nothing, gets the same "not found": whether a file
 * exists is itself not revealed.
 */
export async function openReportAttachment(ctx: Ctx, attachmentId: string): Promise<AttachmentDownload> {
  if (!isUuid(attachmentId) || (ctx.actor.kind !== "reporter" && ctx.actor.kind !== "staff")) throw notFound(FILE_NOT_FOUND);
  const [row] = await ctx.db
    .select({
      submissionId: reportSubmissions.id,
      organisationId: reportSubmissions.organisationId,
      deletedAt: reportSubmissions.deletedAt,
      fileName: reportSubmissionAttachments.fileName,
      mimeType: blobs.mimeType,
      sizeBytes: blobs.sizeBytes,
      storageKey: blobs.storageKey,
      blobOrganisationId: blobs.organisationId,
    })
    .from(reportSubmissionAttachments)
    .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportSubmissionAttachments.submissionId))
    .innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId))
    .where(eq(reportSubmissionAttachments.id, attachmentId))
    .limit(1);
  if (!row || !(await mayRead(ctx, { submissionId: row.submissionId, organisationId: row.organisationId, deleted: row.deletedAt !== null }))) {
    throw notFound(FILE_NOT_FOUND);
  }
  // Sealed with the blob's organisation's key (stored-blob.ts); a value that does not open is thrown, never sent.
  const organisationId = row.blobOrganisationId ?? row.organisationId;
  const body = await openedBlobStream(ctx, organisationId, row.storageKey);
  if (!body) {
    // A row without its bytes is a storage fault worth knowing about; the caller still sees "not found".
    logError("An attachment's bytes are missing from the blob store", undefined, { attachmentId });
    throw notFound(FILE_NOT_FOUND);
  }
  const sealer = await ctx.services.keyRing.sealer(ctx.db, row.organisationId);
  return { fileName: sealer.openText("fileName", row.fileName), mimeType: row.mimeType, sizeBytes: row.sizeBytes, body };
}
