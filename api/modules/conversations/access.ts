import { and, eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { reportFor } from "../reports/policy.ts";
import { CREDENTIALS_PROBLEM } from "../reporting/draft.ts";

export const SUBMISSION_NOT_FOUND = "Report Submission is not found";

export interface ConversationAccess {
  side: "Guest" | "User";
  userId: string | null;
  submission: typeof reportSubmissions.$inferSelect;
  conversation: typeof reportConversations.$inferSelect;
  /** Set by writableConversation when a staff reply re-opened the closed report in its transaction. */
  reopened?: boolean;
}

/**
 * Which conversation a caller may use: a reporter only their own report's (any id they pass is
 * ignored), staff a report of an organisation they can reach with conversation permission. Team
 * membership rules for staff are applied by the console's report policy.
 */
export async function conversationFor(ctx: Ctx, db: Database, reportSubmissionID: string | null | undefined, permission: "ReportConversationRead" | "ReportConversationCreate"): Promise<ConversationAccess> {
  let submissionId: string;
  let side: "Guest" | "User";
  let userId: string | null = null;
  if (ctx.actor.kind === "reporter") {
    if (!ctx.actor.submissionId) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
    submissionId = ctx.actor.submissionId;
    side = "Guest";
  } else if (ctx.actor.kind === "staff") {
    if (!ctx.actor.permissions.has(permission)) throw new UserError("FORBIDDEN", "You do not have permission to do this.");
    if (!isUuid(reportSubmissionID)) throw new UserError("NOT_FOUND", SUBMISSION_NOT_FOUND);
    submissionId = reportSubmissionID;
    side = "User";
    userId = ctx.actor.userId;
  } else {
    throw new UserError("UNAUTHENTICATED", "You must login to view this page");
  }
  const [row] = await db
    .select({ submission: reportSubmissions, conversation: reportConversations })
    .from(reportSubmissions)
    .innerJoin(reportConversations, eq(reportConversations.submissionId, reportSubmissions.id))
    .where(and(eq(reportSubmissions.id, submissionId), eq(reportSubmissions.completed, true)))
    .limit(1);
  if (!row || row.submission.deletedAt) throw new UserError("NOT_FOUND", SUBMISSION_NOT_FOUND);
  if (ctx.actor.kind === "reporter") {
    if (row.submission.organisationId !== ctx.actor.organisationId) throw new UserError("NOT_FOUND", SUBMISSION_NOT_FOUND);
    return { side, userId, submission: row.submission, conversation: row.conversation };
  }
  // Staff see a report's chat exactly when they may see the report (docs/decisions/009), and only
  // its team writes in it (spec: chat replying is only for users assigned to the report).
  const report = await reportFor(ctx, db, submissionId, permission);
  if (permission === "ReportConversationCreate" && !report.assigned) throw new UserError("FORBIDDEN", "Only members of the report team can reply.");
  return { side, userId, submission: row.submission, conversation: row.conversation };
}
