import { builder } from "../../graphql/builder.ts";
import { PRIORITIES, REPORT_LIST_FILTERS, SORT_DIRECTIONS, SORT_KEYS, SUBMISSION_STATUSES, FORM_TYPES } from "../../shared/enums.ts";
import { RoleNameEnum } from "../users/graphql.ts";
import type { ReportView, TeamMemberView } from "./views.ts";

export const SubmissionStatusEnum = builder.enumType("SubmissionStatus", { values: SUBMISSION_STATUSES });
export const PriorityEnum = builder.enumType("Priority", { values: PRIORITIES });
export const ReportListFilterEnum = builder.enumType("ReportListFilter", { values: REPORT_LIST_FILTERS });
export const SortKeyEnum = builder.enumType("SortKey", { values: SORT_KEYS });
export const SortDirectionEnum = builder.enumType("SortDirection", { values: SORT_DIRECTIONS });
export const FormTypeEnum = builder.enumType("FormType", { values: FORM_TYPES });

const TeamUserType = builder.objectRef<TeamMemberView["user"]>("ReportTeamUser").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    firstName: t.exposeString("firstName"),
    lastName: t.exposeString("lastName"),
    email: t.exposeString("email"),
    suspended: t.exposeBoolean("suspended"),
    role: t.expose("role", { type: RoleNameEnum }),
    organisationID: t.exposeID("organisationId", { nullable: true }),
    organisationName: t.exposeString("organisationName", { nullable: true }),
  }),
});

export const TeamMemberType = builder.objectRef<TeamMemberView>("ReportTeamMember").implement({
  fields: (t) => ({ owner: t.exposeBoolean("owner"), user: t.expose("user", { type: TeamUserType }) }),
});

const ReportTagType = builder.objectRef<ReportView["tags"][number]>("ReportTag").implement({
  fields: (t) => ({ id: t.exposeID("id"), name: t.exposeString("name"), isInternal: t.exposeBoolean("isInternal") }),
});

const SubmissionFormType = builder.objectRef<ReportView["form"] & { organisation: ReportView["organisation"] }>("SubmissionForm").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    type: t.expose("type", { type: FormTypeEnum }),
    hasChat: t.exposeBoolean("hasChat"),
    allowChatFileUploads: t.exposeBoolean("allowChatFileUploads"),
    organisationID: t.field({ type: "ID", resolve: (form) => form.organisation.id }),
    organisationName: t.field({ type: "String", resolve: (form) => form.organisation.name }),
  }),
});

/** A report as staff see it; the detail-only parts (answers, attachments) resolve on demand. */
export const ReportSubmissionType = builder.objectRef<ReportView>("ReportSubmission").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    reportID: t.exposeString("reportID"),
    status: t.expose("status", { type: SubmissionStatusEnum }),
    priority: t.expose("priority", { type: PriorityEnum }),
    completed: t.exposeBoolean("completed"),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    deletedAt: t.expose("deletedAt", { type: "DateTime", nullable: true }),
    deletedByUserID: t.exposeID("deletedByUserID", { nullable: true }),
    internalReference: t.exposeString("internalReference", { nullable: true }),
    isOwner: t.exposeBoolean("isOwner"),
    isMuted: t.exposeBoolean("isMuted"),
    hasChat: t.boolean({ resolve: (report) => report.form.hasChat }),
    attachmentsCount: t.exposeInt("attachmentsCount"),
    unreadMessages: t.exposeInt("unreadMessages"),
    assignedUsers: t.expose("assignedUsers", { type: [TeamMemberType] }),
    tags: t.expose("tags", { type: [ReportTagType] }),
    submissionForm: t.field({ type: SubmissionFormType, resolve: (report) => ({ ...report.form, organisation: report.organisation }) }),
  }),
});

export const ReportListType = builder.objectRef<{ total: number; list: ReportView[] }>("ReportSubmissionList").implement({
  fields: (t) => ({ total: t.exposeInt("total"), list: t.expose("list", { type: [ReportSubmissionType] }) }),
});
