import { eq, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportConversationMessages, reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { logError } from "../../lib/log.ts";
import { recordActivity } from "../audit/service.ts";
import { enqueueJobs } from "../../lib/jobs.ts";
import { newMessageJob } from "../notifications/message-job.ts";
import { publishReportUpdated, recordReportChange } from "../reports/events.ts";
import { insertNote, statusNoteText } from "../reports/notes.ts";
import { isTerminal, reportFor } from "../reports/policy.ts";
import { conversationFor, type ConversationAccess } from "./access.ts";
import { CONVERSATION_CLOSED, messageTopic, viewsOf, type MessageView } from "./messages.ts";

/** The steps every chat message takes, text or image: the same closed rules, the same audit, the same live event. */

export const REOPEN_BEFORE_REPLYING = "Re-open the report before replying.";

/**
 * Chat events are per report; the organisation-level companion lets a dashboard or the
 * Conversations page hear every chat of an organisation without one subscription per report.
 */
export const activityTopic = (organisationId: string) => `conversation.activity.${organisationId}`;
export type ActivityAction = "message" | "presence" | "read";

type MessageRow = typeof reportConversationMessages.$inferSelect;

export interface WrittenMessage {
  message: MessageRow;
  submissionId: string;
  organisationId: string;
  /** The message re-opened its closed report (a staff reply), so the report changed too. */
  reopened: boolean;
}

/** After the commit; a lost event must not turn a committed change into an error. */
export async function publishActivity(ctx: Ctx, organisationId: string, submissionId: string, action: ActivityAction): Promise<void> {
  await ctx.services.pubsub.publish(activityTopic(organisationId), { submissionId, action }).catch((error: unknown) => logError("Could not publish chat activity", error));
}

/**
 * The conversation the caller may write into, with its report locked so a message cannot slip in
 * while staff close it. A reporter cannot write into a closed report. Staff writing into a
 * concluded conversation re-open the report first (spec section 4), when they could re-open it
 * by hand: on the team (conversationFor checks), not a guest, with ReportSubmissionOpen, and the
 * report not archived. Called on `ctx.db` itself (a pre-check outside any transaction, as image
 * messages do before reading the file) it only decides; the re-opening happens in the transaction.
 */
export async function writableConversation(ctx: Ctx, tx: Database, reportSubmissionID: string | null | undefined): Promise<ConversationAccess> {
  const access = await conversationFor(ctx, tx, reportSubmissionID, "ReportConversationCreate");
  const [locked] = await tx.select().from(reportSubmissions).where(eq(reportSubmissions.id, access.submission.id)).for("update");
  const submission = locked ?? access.submission;
  const closed = isTerminal(submission.status) || access.conversation.concluded || submission.archived;
  if (!closed) return { ...access, submission };
  if (access.side === "Guest") throw new UserError("CONFLICT", CONVERSATION_CLOSED);
  const mayReopen = ctx.actor.kind === "staff" && ctx.actor.role !== "GUEST_MEMBER" && ctx.actor.permissions.has("ReportSubmissionOpen") && !submission.archived;
  if (!mayReopen) throw new UserError("CONFLICT", REOPEN_BEFORE_REPLYING);
  if (tx === ctx.db) return { ...access, submission };
  const status = await reopenForReply(ctx, tx, submission.id);
  return { ...access, submission: { ...submission, status }, conversation: { ...access.conversation, concluded: false }, reopened: true };
}

/** What openReport (reports/life.ts) does, inside the message's transaction so reply and re-open commit together. */
async function reopenForReply(ctx: Ctx, tx: Database, submissionId: string) {
  const report = await reportFor(ctx, tx, submissionId, "ReportSubmissionOpen", true);
  await tx.update(reportConversations).set({ concluded: false }).where(eq(reportConversations.submissionId, submissionId));
  const from = report.submission.status;
  // A concluded conversation on a report that is not closed only needs the flag cleared.
  if (!isTerminal(from)) return from;
  const status = report.team.length > 0 ? "Assigned" : "New";
  // Re-opened, as openReport does: retention's count (decision 052) stops until it is closed again.
  await tx.update(reportSubmissions).set({ status, closedAt: null, retentionWarnedAt: null }).where(eq(reportSubmissions.id, submissionId));
  await insertNote(ctx, tx, report, { note: statusNoteText(status), newStatus: status });
  await recordReportChange(tx, report, { action: "Open", metadata: { from, to: status, via: "SendMessage" } });
  return status;
}

/**
 * The reminders' state (notifications/stale-reminders.ts), in the update the message makes anyway:
 * the reporter's first unanswered message starts the wait, and a staff reply ends it.
 */
function awaitingReply(side: ConversationAccess["side"], now: Date) {
  if (side === "Guest") return { awaitingReplySince: sql`coalesce(${reportConversations.awaitingReplySince}, ${now.toISOString()}::timestamptz)` };
  return { awaitingReplySince: null, remindersSent: 0, lastRemindedAt: null };
}

/**
 * The message row, sealed (docs/decisions/049-encryption-at-rest.md), the conversation's and
 * report's timestamps and the audit entry, in the caller's transaction. The row returned holds the
 * sealed text, as stored; `announce` opens it for the sender.
 */
export async function insertMessage(
  ctx: Ctx,
  tx: Database,
  access: ConversationAccess,
  values: { type: "Text" | "Image"; message: string; imageBlobId?: string },
  metadata?: Record<string, unknown>,
): Promise<WrittenMessage> {
  const now = new Date();
  const organisationId = access.submission.organisationId;
  const sealer = await ctx.services.keyRing.sealer(tx, organisationId);
  const [message] = await tx
    .insert(reportConversationMessages)
    .values({ conversationId: access.conversation.id, organisationId, ...values, message: sealer.sealText("message", values.message), from: access.side, fromUserId: access.userId, createdAt: now })
    .returning();
  await tx.update(reportConversations).set({ lastMessageAt: now, ...awaitingReply(access.side, now) }).where(eq(reportConversations.id, access.conversation.id));
  // The first staff message acknowledges the report (decision 050), in the update the message makes anyway.
  const acknowledges = access.side === "User" ? { acknowledgedAt: sql`coalesce(${reportSubmissions.acknowledgedAt}, ${now.toISOString()}::timestamptz)` } : {};
  await tx.update(reportSubmissions).set({ updatedAt: now, ...acknowledges }).where(eq(reportSubmissions.id, access.submission.id));
  await recordActivity(tx, access.userId ? { userId: access.userId } : { kind: "anonymous" }, {
    organisationId: access.submission.organisationId,
    objectType: "ReportSubmission",
    objectId: access.submission.id,
    objectCode: access.submission.reportId,
    action: "SendMessage",
    ...(metadata ? { metadata } : {}),
  });
  // A reporter's message mails the team: the job commits with the message (decision 058).
  if (access.side === "Guest") await enqueueJobs(tx, [newMessageJob(message!.id)]);
  return { message: message!, submissionId: access.submission.id, organisationId: access.submission.organisationId, reopened: access.reopened === true };
}

/** After the commit: the live events for both sides and the organisation, and the message as the sender sees it. */
export async function announce(ctx: Ctx, written: WrittenMessage): Promise<MessageView> {
  await ctx.services.pubsub.publish(messageTopic(written.submissionId), { action: "new", messageId: written.message.id });
  if (written.reopened) await publishReportUpdated(ctx, written.organisationId, written.submissionId);
  await publishActivity(ctx, written.organisationId, written.submissionId, "message");
  return (await viewsOf(ctx, [written.message]))[0]!;
}

/** Staff read the reporter's messages: the unread badges of the organisation's views change. */
export async function announceRead(ctx: Ctx, submissionId: string): Promise<void> {
  const [row] = await ctx.db.select({ organisationId: reportSubmissions.organisationId }).from(reportSubmissions).where(eq(reportSubmissions.id, submissionId));
  if (row) await publishActivity(ctx, row.organisationId, submissionId, "read");
}
