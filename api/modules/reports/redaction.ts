import { and, eq } from "drizzle-orm";
import { reportConversationMessages, reportConversations, reportSubmissionAnswers } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, badInput, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { REDACTION_ALREADY, redactSpan } from "../../shared/redaction.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { messageById, messageTopic, type MessageView } from "../conversations/messages.ts";
import { changeReport } from "./events.ts";
import { managesReportOrganisation } from "./life.ts";
import { REPORT_NOT_FOUND, type ReportAccess } from "./policy.ts";
import type { ReportView } from "./views.ts";

/**
 * Redaction (docs/decisions/053-redaction.md): a span of a reporter's answer or of a chat message is
 * replaced by the marker and the old sealed value overwritten in place, in one transaction with an
 * audit entry that says who and when, never what (not even how long: a length narrows a name down).
 */

export const ANSWER_NOT_FOUND = "Answer is not found";
export const MESSAGE_NOT_FOUND = "Message is not found";
export const ONLY_TEXT_MESSAGES = "Only text a person wrote can be redacted: not a system message or a picture without a caption.";
export const REDACTION_OWN_ORGANISATION = "Only owners and admins of the report's organisation can redact.";

const PERMISSION = "ReportSubmissionRedact";

/** Someone on another organisation's report team holds the permission for their own organisation only. */
function mustManage(access: ReportAccess): void {
  if (!managesReportOrganisation(access) && !isSuperAdmin(access.actor)) throw forbidden(REDACTION_OWN_ORGANISATION);
}

function redacted(text: string, start: number, end: number): string {
  const result = redactSpan(text, start, end);
  if (!result.ok) throw result.problem === REDACTION_ALREADY ? new UserError("CONFLICT", result.problem) : badInput(result.problem, [{ field: "start", message: result.problem }]);
  return result.text;
}

export interface AnswerRedaction {
  widgetID: string;
  index: number;
  start: number;
  end: number;
}

export function redactAnswer(ctx: Ctx, id: unknown, span: AnswerRedaction): Promise<ReportView> {
  requirePermission(ctx, PERMISSION);
  const { widgetID, index } = span;
  // A widget id is the form's, never longer than a short text; a NUL would fail in Postgres as a 500.
  if (widgetID.length === 0 || widgetID.length > TEXT_LIMITS.short.max || widgetID.includes("\0")) throw new UserError("NOT_FOUND", ANSWER_NOT_FOUND);
  return changeReport(ctx, id, PERMISSION, async (tx, access) => {
    mustManage(access);
    const where = and(eq(reportSubmissionAnswers.submissionId, access.submission.id), eq(reportSubmissionAnswers.widgetId, widgetID));
    const [row] = await tx.select({ answer: reportSubmissionAnswers.answer }).from(reportSubmissionAnswers).where(where).for("update");
    if (!row || !Number.isSafeInteger(index) || index < 0 || index >= row.answer.length) throw new UserError("NOT_FOUND", ANSWER_NOT_FOUND);
    const sealer = await ctx.services.keyRing.sealer(tx, access.submission.organisationId);
    const text = redacted(sealer.openText("answer", row.answer[index]!), span.start, span.end);
    // The whole array is written back, the other texts as they were stored: only this one is sealed afresh.
    const answer = row.answer.map((stored, at) => (at === index ? sealer.sealText("answer", text) : stored));
    await tx.update(reportSubmissionAnswers).set({ answer, updatedAt: new Date() }).where(where);
    return { action: "RedactAnswer" };
  });
}

export async function redactMessage(ctx: Ctx, id: unknown, start: number, end: number): Promise<MessageView> {
  requirePermission(ctx, PERMISSION);
  if (!isUuid(id)) throw new UserError("NOT_FOUND", MESSAGE_NOT_FOUND);
  const [found] = await ctx.db
    .select({ submissionId: reportConversations.submissionId })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(eq(reportConversationMessages.id, id));
  if (!found) throw new UserError("NOT_FOUND", MESSAGE_NOT_FOUND);
  try {
    await changeReport(ctx, found.submissionId, PERMISSION, async (tx, access) => {
      mustManage(access);
      const [row] = await tx.select().from(reportConversationMessages).where(eq(reportConversationMessages.id, id)).for("update");
      if (!row) throw new UserError("NOT_FOUND", MESSAGE_NOT_FOUND);
      // System lines are the platform's words; a picture without a caption has no text to redact.
      if (row.type === "System" || row.message === "") throw new UserError("CONFLICT", ONLY_TEXT_MESSAGES);
      const sealer = await ctx.services.keyRing.sealer(tx, access.submission.organisationId);
      const text = redacted(sealer.openText("message", row.message), start, end);
      await tx.update(reportConversationMessages).set({ message: sealer.sealText("message", text) }).where(eq(reportConversationMessages.id, id));
      return { action: "RedactMessage" };
    });
  } catch (error) {
    // A message of a report the caller cannot see is as unknown to them as one that does not exist.
    if (error instanceof UserError && error.message === REPORT_NOT_FOUND) throw new UserError("NOT_FOUND", MESSAGE_NOT_FOUND);
    throw error;
  }
  // Open chats (the staff's and the reporter's) replace the message they show.
  await ctx.services.pubsub.publish(messageTopic(found.submissionId), { action: "redacted", messageId: id }).catch((error: unknown) => logError("Could not publish a redaction", error));
  return (await messageById(ctx, id))!;
}
