import { and, count, eq } from "drizzle-orm";
import { organisations, reportConversationMessages, reportConversations, reportForms, reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { TERMINAL_SUBMISSION_STATUSES, type SubmissionStatus, type WidgetType } from "../../shared/enums.ts";
import { answeredPages, derivePages } from "../../shared/form-definition.ts";
import { formTextName } from "../../shared/translation.ts";
import { chatUploadsAllowed } from "../conversations/upload-policy.ts";
import { storedAnswers } from "./answers.ts";
import { buildWidgets } from "./forms.ts";

export interface ReporterAnswer {
  widgetID: string;
  title: string;
  type: WidgetType;
  answer: string[];
}

/**
 * Where a report stands, as its reporter may know it. A staff status can say more than the
 * organisation chose to tell the reporter (an outcome such as NotSubstantiated or Rejected), so
 * only these three values ever leave the server.
 */
export const REPORTER_STATUSES = ["RECEIVED", "IN_PROGRESS", "CLOSED"] as const;
export type ReporterStatus = (typeof REPORTER_STATUSES)[number];

const isTerminal = (status: SubmissionStatus) => (TERMINAL_SUBMISSION_STATUSES as readonly string[]).includes(status);

export function reporterStatusOf(status: SubmissionStatus): ReporterStatus {
  if (isTerminal(status)) return "CLOSED";
  return status === "Assigned" ? "IN_PROGRESS" : "RECEIVED";
}

export interface ReporterSubmissionView {
  id: string;
  /** The organisation and form, so the follow-up area can ask for their texts in the reporter's language. */
  organisationID: string;
  formID: string;
  reportID: string | null;
  completed: boolean;
  completedAt: Date | null;
  formName: string;
  organisationName: string;
  reporterStatus: ReporterStatus;
  /** The form's own message for where the report stands (sanitised HTML; '' when it has none). */
  standingMessage: string;
  /** The translation item name of that message (form.assignedToSupportMessage, form.reportClosedMessage); null when there is none. */
  standingMessageName: string | null;
  hasChat: boolean;
  allowChatFileUploads: boolean;
  conversationClosed: boolean;
  unreadMessages: number;
  pages: { name: string; answers: ReporterAnswer[] }[];
  attachments: { id: string; fileName: string; fileSizeBytes: number; mimeType: string; fileURL: string }[];
}

type StandingMessageField = "assignedToSupportMessage" | "reportClosedMessage";

/** Which of the form's messages tells where the report stands: being handled, assigned-to-support; closed, report-closed; else none. */
function standingMessageField(status: ReporterStatus): StandingMessageField | null {
  if (status === "IN_PROGRESS") return "assignedToSupportMessage";
  return status === "CLOSED" ? "reportClosedMessage" : null;
}

export function standingMessageOf(status: ReporterStatus, form: Record<StandingMessageField, string>): string {
  const field = standingMessageField(status);
  return field ? form[field] : "";
}

/** The message's translation item name (api/shared/translation.ts), when the form has a message there to translate. */
export function standingMessageNameOf(status: ReporterStatus, form: Record<StandingMessageField, string>): string | null {
  const field = standingMessageField(status);
  return field && form[field].trim() !== "" ? formTextName(field) : null;
}

export const attachmentUrl = (id: string) => `/api/files/report-attachments/${id}`;

/** The reporter's own submission, for the follow-up area; null without a session that holds one. */
export async function loadReporterSubmission(ctx: Ctx): Promise<ReporterSubmissionView | null> {
  if (ctx.actor.kind !== "reporter" || !ctx.actor.submissionId) return null;
  const [row] = await ctx.db
    .select({ submission: reportSubmissions, form: reportForms, organisationName: organisations.name, enquiryUploads: organisations.allowGeneralEnquiryChatFileUploads })
    .from(reportSubmissions)
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(reportSubmissions.id, ctx.actor.submissionId), eq(reportSubmissions.organisationId, ctx.actor.organisationId)))
    .limit(1);
  if (!row || row.submission.deletedAt) return null;
  const { submission, form } = row;
  const widgets = submission.buildId ? await buildWidgets(ctx.db, submission.buildId) : [];
  const sealer = await ctx.services.keyRing.sealer(ctx.db, submission.organisationId);
  const answers = await storedAnswers(ctx.db, sealer, submission.id);
  const pages = answeredPages(derivePages(widgets), answers);
  const attachments = await ctx.db
    .select()
    .from(reportSubmissionAttachments)
    .where(eq(reportSubmissionAttachments.submissionId, submission.id))
    .orderBy(reportSubmissionAttachments.createdAt);
  const [conversation] = await ctx.db.select().from(reportConversations).where(eq(reportConversations.submissionId, submission.id)).limit(1);
  const [unread] = conversation
    ? await ctx.db
        .select({ n: count() })
        .from(reportConversationMessages)
        .where(and(eq(reportConversationMessages.conversationId, conversation.id), eq(reportConversationMessages.from, "User"), eq(reportConversationMessages.state, "New")))
    : [{ n: 0 }];
  const closed = isTerminal(submission.status);
  const reporterStatus = reporterStatusOf(submission.status);
  return {
    id: submission.id,
    organisationID: submission.organisationId,
    formID: form.id,
    reportID: submission.reportId,
    completed: submission.completed,
    completedAt: submission.completedAt,
    formName: form.name,
    organisationName: row.organisationName,
    reporterStatus,
    standingMessage: standingMessageOf(reporterStatus, form),
    standingMessageName: standingMessageNameOf(reporterStatus, form),
    hasChat: form.hasChat,
    allowChatFileUploads: chatUploadsAllowed(form, { allowGeneralEnquiryChatFileUploads: row.enquiryUploads }),
    conversationClosed: closed || Boolean(conversation?.concluded) || submission.archived,
    unreadMessages: unread?.n ?? 0,
    pages,
    attachments: attachments.map((a) => ({ id: a.id, fileName: sealer.openText("fileName", a.fileName), fileSizeBytes: a.fileSizeBytes, mimeType: a.mimeType, fileURL: attachmentUrl(a.id) })),
  };
}
