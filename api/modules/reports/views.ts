import { eq, inArray, sql, type Column } from "drizzle-orm";
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

/** A team member as the view query builds it (json_build_array), in this order. */
type TeamTuple = [owner: boolean, muted: boolean, id: string, firstName: string, lastName: string, email: string, suspended: boolean, role: RoleName, organisationId: string | null, organisationName: string | null];
type TagTuple = [id: string, name: string, isInternal: boolean];

const VIEW_COLUMNS = ["id", "organisationId", "formId", "reportId", "status", "priority", "completed", "completedAt", "createdAt", "updatedAt", "archived", "deletedAt", "deletedByUserId", "internalReference", "isTest"] as const;
type ViewColumn = (typeof VIEW_COLUMNS)[number];

/** The columns a page of reports must carry so that `viewFields` can build their views. */
export const viewColumns = () => columnsOf(reportSubmissions);
const columnsOf = <Report extends Record<ViewColumn, Column>>(report: Report) => Object.fromEntries(VIEW_COLUMNS.map((name) => [name, report[name]])) as Pick<Report, ViewColumn>;

/**
 * Everything a view needs, as the fields of one select over `report`: the team and the tags as
 * JSON built per report, so a page of views is one statement (each further query is a round
 * trip, and on a small machine its fixed cost is most of what a list request costs). `report` is
 * the reports table or a page of it (list.ts).
 * The counts (attachments, unread messages) only when asked: the console's list shows neither.
 */
export function viewFields<Report extends Record<ViewColumn, Column>>(report: Report, withCounts: boolean) {
  return {
    ...columnsOf(report),
    form: { id: reportForms.id, name: reportForms.name, type: reportForms.type, hasChat: reportForms.hasChat, allowChatFileUploads: reportForms.allowChatFileUploads },
    organisation: { id: organisations.id, name: organisations.name, slug: organisations.slug },
    team: sql<TeamTuple[]>`(select coalesce(json_agg(json_build_array(a.is_owner, a.is_muted, u.id, u.first_name, u.last_name, u.email, u.suspended, r.name, u.organisation_id, uo.name) order by a.created_at, a.user_id), '[]')
      from ${reportSubmissionAssignees} a join ${users} u on u.id = a.user_id join ${roles} r on r.id = u.role_id left join ${organisations} uo on uo.id = u.organisation_id
      where a.submission_id = ${report.id})`,
    // Archived tags are not shown on reports.
    tags: sql<TagTuple[]>`(select coalesce(json_agg(json_build_array(t.id, t.name, t.is_internal) order by t.name), '[]')
      from ${reportSubmissionTags} st join ${tags} t on t.id = st.tag_id where st.submission_id = ${report.id} and not t.archived)`,
    attachmentsCount: withCounts ? sql<number>`(select count(*)::int from ${reportSubmissionAttachments} at where at.submission_id = ${report.id})` : sql<number>`0`,
    unreadMessages: withCounts
      ? sql<number>`(select count(*)::int from ${reportConversationMessages} m join ${reportConversations} c on c.id = m.conversation_id
          where c.submission_id = ${report.id} and m."from" = 'Guest' and m.state = 'New' and m.type <> 'System')`
      : sql<number>`0`,
  };
}

/** Builds the view of one row of `viewFields`, as the acting user sees it. */
export function toReportView(actor: StaffActor, row: {
  id: string; reportId: string | null; status: SubmissionStatus; priority: Priority; completed: boolean; completedAt: Date | null; createdAt: Date; updatedAt: Date;
  archived: boolean; deletedAt: Date | null; deletedByUserId: string | null; internalReference: string; isTest: boolean;
  form: ReportView["form"]; organisation: ReportView["organisation"]; team: TeamTuple[]; tags: TagTuple[]; attachmentsCount: number; unreadMessages: number;
}): ReportView {
  const hideReference = actor.role === "SUPER_ADMIN" || actor.role === "GUEST_MEMBER";
  const members = row.team.map(([owner, muted, id, firstName, lastName, email, suspended, role, organisationId, organisationName]) => ({
    owner,
    muted,
    user: { id, firstName, lastName, email, suspended, role, organisationId, organisationName },
  }));
  const mine = members.find((member) => member.user.id === actor.userId);
  return {
    id: row.id,
    reportID: row.reportId ?? "",
    status: row.status,
    priority: row.priority,
    completed: row.completed,
    completedAt: row.completedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    archived: row.archived,
    deletedAt: row.deletedAt,
    deletedByUserID: row.deletedByUserId,
    internalReference: hideReference ? null : row.internalReference,
    isTest: row.isTest,
    form: row.form,
    organisation: row.organisation,
    assignedUsers: members,
    tags: row.tags.map(([id, name, isInternal]) => ({ id, name, isInternal })),
    attachmentsCount: row.attachmentsCount,
    unreadMessages: row.unreadMessages,
    isOwner: Boolean(mine?.owner),
    isMuted: Boolean(mine?.muted),
  };
}

/** Builds the views of many reports in one statement, in the order of `ids`. */
export async function loadReportViews(ctx: Ctx, actor: StaffActor, ids: string[]): Promise<ReportView[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select(viewFields(viewColumns(), true))
    .from(reportSubmissions)
    .innerJoin(reportForms, eq(reportForms.id, reportSubmissions.formId))
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(inArray(reportSubmissions.id, ids));
  const found = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = found.get(id);
    return row ? [toReportView(actor, row)] : [];
  });
}
