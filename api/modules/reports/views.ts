import { and, count, eq, inArray, ne } from "drizzle-orm";
import {
  organisations,
  reportConversationMessages,
  reportConversations,
  reportForms,
  reportSubmissionAssignees,
  reportSubmissionAttachments,
  reportSubmissions,
  reportSubmissionTags,
  roles,
  tags,
  users,
} from "../../../db/schema/index.ts";
import type { Ctx, StaffActor } from "../../context.ts";
import type { FormType, Priority, RoleName, SubmissionStatus } from "../../shared/enums.ts";

export interface TeamMemberView {
  owner: boolean;
  muted: boolean;
  user: { id: string; firstName: string; lastName: string; email: string; suspended: boolean; role: RoleName; organisationId: string | null; organisationName: string | null };
}

export interface ReportView {
  id: string;
  reportID: string;
  status: SubmissionStatus;
  priority: Priority;
  completed: boolean;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  archived: boolean;
  deletedAt: Date | null;
  deletedByUserID: string | null;
  /** Hidden from super admins and guest members (spec). */
  internalReference: string | null;
  isTest: boolean;
  form: { id: string; name: string; type: FormType; hasChat: boolean; allowChatFileUploads: boolean };
  organisation: { id: string; name: string; slug: string };
  assignedUsers: TeamMemberView[];
  tags: { id: string; name: string; isInternal: boolean }[];
  attachmentsCount: number;
  unreadMessages: number;
  /** The acting user's own relation to the report. */
  isOwner: boolean;
  isMuted: boolean;
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));

/** Builds the views of many reports in a fixed number of queries, in the order of `ids`. */
export async function loadReportViews(ctx: Ctx, actor: StaffActor, ids: string[]): Promise<ReportView[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ submission: reportSubmissions, form: reportForms, organisation: { id: organisations.id, name: organisations.name, slug: organisations.slug } })
    .from(reportSubmissions)
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(inArray(reportSubmissions.id, ids));
  const team = await ctx.db
    .select({
      submissionId: reportSubmissionAssignees.submissionId,
      owner: reportSubmissionAssignees.isOwner,
      muted: reportSubmissionAssignees.isMuted,
      createdAt: reportSubmissionAssignees.createdAt,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email, suspended: users.suspended, role: roles.name, organisationId: users.organisationId, organisationName: organisations.name },
    })
    .from(reportSubmissionAssignees)
    .innerJoin(users, eq(users.id, reportSubmissionAssignees.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(organisations, eq(organisations.id, users.organisationId))
    .where(inArray(reportSubmissionAssignees.submissionId, ids))
    .orderBy(reportSubmissionAssignees.createdAt);
  const tagRows = await ctx.db
    .select({ submissionId: reportSubmissionTags.submissionId, id: tags.id, name: tags.name, isInternal: tags.isInternal })
    .from(reportSubmissionTags)
    .innerJoin(tags, eq(tags.id, reportSubmissionTags.tagId))
    .where(and(inArray(reportSubmissionTags.submissionId, ids), eq(tags.archived, false)))
    .orderBy(tags.name);
  const attachmentCounts = await ctx.db
    .select({ submissionId: reportSubmissionAttachments.submissionId, n: count() })
    .from(reportSubmissionAttachments)
    .where(inArray(reportSubmissionAttachments.submissionId, ids))
    .groupBy(reportSubmissionAttachments.submissionId);
  const unread = await ctx.db
    .select({ submissionId: reportConversations.submissionId, n: count() })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(and(inArray(reportConversations.submissionId, ids), eq(reportConversationMessages.from, "Guest"), eq(reportConversationMessages.state, "New"), ne(reportConversationMessages.type, "System")))
    .groupBy(reportConversations.submissionId);

  const hideReference = actor.role === "SUPER_ADMIN" || actor.role === "GUEST_MEMBER";
  const found = byId(rows.map((row) => ({ id: row.submission.id, ...row })));
  return ids.flatMap((id) => {
    const row = found.get(id);
    if (!row) return [];
    const { submission, form, organisation } = row;
    const members = team.filter((member) => member.submissionId === id);
    const mine = members.find((member) => member.user.id === actor.userId);
    return [
      {
        id,
        reportID: submission.reportId ?? "",
        status: submission.status,
        priority: submission.priority,
        completed: submission.completed,
        completedAt: submission.completedAt,
        createdAt: submission.createdAt,
        updatedAt: submission.updatedAt,
        archived: submission.archived,
        deletedAt: submission.deletedAt,
        deletedByUserID: submission.deletedByUserId,
        internalReference: hideReference ? null : submission.internalReference,
        isTest: submission.isTest,
        form: { id: form.id, name: form.name, type: form.type, hasChat: form.hasChat, allowChatFileUploads: form.allowChatFileUploads },
        organisation,
        assignedUsers: members.map(({ owner, muted, user }) => ({ owner, muted, user })),
        tags: tagRows.filter((tag) => tag.submissionId === id).map(({ id: tagId, name, isInternal }) => ({ id: tagId, name, isInternal })),
        attachmentsCount: attachmentCounts.find((c) => c.submissionId === id)?.n ?? 0,
        unreadMessages: unread.find((c) => c.submissionId === id)?.n ?? 0,
        isOwner: Boolean(mine?.owner),
        isMuted: Boolean(mine?.muted),
      },
    ];
  });
}
