import { and, asc, eq, inArray } from "drizzle-orm";
import {
  reportConversationMessages,
  reportConversations,
  reportSubmissionAnswers,
  reportSubmissionAttachments,
  reportSubmissionNotes,
  reportSubmissions,
  users,
} from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import type { MessageType, SubmissionStatus } from "../../shared/enums.ts";
import { answeredPages, derivePages, type AnsweredPage, type FormPage } from "../../shared/form-definition.ts";
import { openAnswer } from "../reporting/answers.ts";
import { buildWidgets } from "../reporting/forms.ts";
import type { ReportView } from "../reports/views.ts";

/**
 * Everything an exported report shows, loaded for many reports at once: a zip of 5,000 reports
 * must not cost 5,000 × (answers, build, files, notes, chat) queries. Answers are grouped with
 * `answeredPages`, exactly as the detail page (reports/detail.ts) and the reporter see them.
 * Answers, notes and messages are stored sealed (docs/decisions/049) and opened here, with one
 * sealer per organisation of the batch: a super admin's zip spans organisations.
 */

export interface ExportedNote {
  author: string | null;
  createdAt: Date;
  text: string;
  newStatus: SubmissionStatus | null;
}

export interface ExportedMessage {
  /** 'Reporter', 'System', or a staff member's first name and last initial. */
  sender: string;
  createdAt: Date;
  type: MessageType;
  text: string;
}

export interface ReportDocument {
  report: ReportView;
  pages: AnsweredPage[];
  attachments: { fileName: string; fileSizeBytes: number }[];
  notes: ExportedNote[];
  messages: ExportedMessage[];
}

/** How staff are named outside the console's own screens: the spec shows only a last name's first letter. */
export function shortName(person: { firstName: string; lastName: string }): string {
  const initial = Array.from(person.lastName.trim())[0];
  return initial ? `${person.firstName} ${initial}.` : person.firstName;
}

const groupBy = <T>(rows: T[], key: (row: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
};

/**
 * The documents of already visible reports (the caller checked access and built the views), in
 * the order of `views`. `pagesByBuild` may be shared between calls of one export, as builds repeat.
 */
export async function loadReportDocuments(ctx: Ctx, views: ReportView[], pagesByBuild: Map<string, Promise<FormPage[]>> = new Map()): Promise<ReportDocument[]> {
  if (views.length === 0) return [];
  const ids = views.map((view) => view.id);
  const sealers = await ctx.services.keyRing.sealers(ctx.db, views.map((view) => view.organisation.id));
  const builds = await ctx.db.select({ id: reportSubmissions.id, buildId: reportSubmissions.buildId }).from(reportSubmissions).where(inArray(reportSubmissions.id, ids));
  const answers = await ctx.db
    .select({ submissionId: reportSubmissionAnswers.submissionId, widgetId: reportSubmissionAnswers.widgetId, answer: reportSubmissionAnswers.answer })
    .from(reportSubmissionAnswers)
    .where(inArray(reportSubmissionAnswers.submissionId, ids));
  const attachments = await ctx.db
    .select({ submissionId: reportSubmissionAttachments.submissionId, fileName: reportSubmissionAttachments.fileName, fileSizeBytes: reportSubmissionAttachments.fileSizeBytes })
    .from(reportSubmissionAttachments)
    .where(inArray(reportSubmissionAttachments.submissionId, ids))
    .orderBy(asc(reportSubmissionAttachments.createdAt), asc(reportSubmissionAttachments.id));
  const notes = await ctx.db
    .select({
      submissionId: reportSubmissionNotes.submissionId,
      text: reportSubmissionNotes.note,
      newStatus: reportSubmissionNotes.newStatus,
      createdAt: reportSubmissionNotes.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reportSubmissionNotes)
    .leftJoin(users, eq(users.id, reportSubmissionNotes.authorUserId))
    // Archived notes are deleted as far as the console is concerned; an export shows what the console shows.
    .where(and(inArray(reportSubmissionNotes.submissionId, ids), eq(reportSubmissionNotes.archived, false)))
    .orderBy(asc(reportSubmissionNotes.createdAt), asc(reportSubmissionNotes.id));
  const messages = await ctx.db
    .select({
      submissionId: reportConversations.submissionId,
      from: reportConversationMessages.from,
      type: reportConversationMessages.type,
      text: reportConversationMessages.message,
      createdAt: reportConversationMessages.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .leftJoin(users, eq(users.id, reportConversationMessages.fromUserId))
    .where(inArray(reportConversations.submissionId, ids))
    .orderBy(asc(reportConversationMessages.createdAt), asc(reportConversationMessages.id));

  const buildOf = new Map(builds.map((row) => [row.id, row.buildId]));
  const answersOf = groupBy(answers, (row) => row.submissionId);
  const attachmentsOf = groupBy(attachments, (row) => row.submissionId);
  const notesOf = groupBy(notes, (row) => row.submissionId);
  const messagesOf = groupBy(messages, (row) => row.submissionId);
  const pagesOf = (buildId: string | null | undefined): Promise<FormPage[]> => {
    if (!buildId) return Promise.resolve([]);
    let pages = pagesByBuild.get(buildId);
    if (!pages) pagesByBuild.set(buildId, (pages = buildWidgets(ctx.db, buildId).then(derivePages)));
    return pages;
  };

  return Promise.all(
    views.map(async (report) => {
      const sealer = sealers.get(report.organisation.id)!;
      const answers = Object.fromEntries((answersOf.get(report.id) ?? []).map((row) => [row.widgetId, openAnswer(sealer, row.answer)]));
      return {
        report,
        pages: answeredPages(await pagesOf(buildOf.get(report.id)), answers),
        attachments: (attachmentsOf.get(report.id) ?? []).map(({ fileName, fileSizeBytes }) => ({ fileName: sealer.openText("fileName", fileName), fileSizeBytes })),
        notes: (notesOf.get(report.id) ?? []).map((row) => ({
          author: row.firstName !== null && row.lastName !== null ? shortName({ firstName: row.firstName, lastName: row.lastName }) : null,
          createdAt: row.createdAt,
          text: sealer.openText("note", row.text),
          newStatus: row.newStatus,
        })),
        messages: (messagesOf.get(report.id) ?? []).map((row) => ({
          sender: row.type === "System" ? "System" : row.from === "Guest" ? "Reporter" : row.firstName !== null && row.lastName !== null ? shortName({ firstName: row.firstName, lastName: row.lastName }) : "Staff",
          createdAt: row.createdAt,
          type: row.type,
          text: sealer.openText("message", row.text),
        })),
      };
    }),
  );
}
