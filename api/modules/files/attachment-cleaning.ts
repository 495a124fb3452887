import { eq } from "drizzle-orm";
import { blobs, reportSubmissionAttachments } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";

/**
 * Whether an attachment's identifying metadata was removed before it was stored (decision 048).
 * Only called for an attachment its parent field has already authorised (a report staff may read,
 * or the reporter's own submission), so it checks nothing itself; a missing row reads as not removed.
 */
export async function attachmentMetadataRemoved(ctx: Ctx, attachmentId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ metadataRemoved: blobs.metadataRemoved })
    .from(reportSubmissionAttachments)
    .innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId))
    .where(eq(reportSubmissionAttachments.id, attachmentId))
    .limit(1);
  return row?.metadataRemoved ?? false;
}
