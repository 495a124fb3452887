import { builder } from "../../graphql/builder.ts";
import { GUEST_INVITE_STATUSES } from "../../shared/enums.ts";
// Tags register with the report team: schema.ts imports this module only.
import "../tags/graphql.ts";
import { UserListType } from "../users/graphql.ts";
import { ReportSubmissionType, TeamMemberType } from "./graphql-types.ts";
import { answerInvite, inviteGuest, myInvites, removeInvite, reportInvites, type GuestInviteView } from "./guest-invites.ts";
import { assignableUsers, assignUser, changeOwner, joinTeam, leaveReport, reportTeam, unassignUser } from "./team.ts";

const GuestInviteStatusEnum = builder.enumType("GuestReportInviteStatus", { values: GUEST_INVITE_STATUSES });

const GuestReportInviteType = builder.objectRef<GuestInviteView>("GuestReportInvite").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    reportSubmissionID: t.exposeID("reportSubmissionID"),
    reportID: t.exposeString("reportID"),
    email: t.exposeString("email"),
    status: t.expose("status", { type: GuestInviteStatusEnum }),
    organisationName: t.exposeString("organisationName"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    archived: t.exposeBoolean("archived"),
    archivedAt: t.expose("archivedAt", { type: "DateTime", nullable: true }),
  }),
});

builder.queryFields((t) => ({
  reportSubmissionUsers: t.field({
    type: [TeamMemberType],
    description: "The report's team, owner first.",
    args: { reportSubmissionID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => reportTeam(ctx, String(args.reportSubmissionID)),
  }),
  reportSubmissionAssignableUsers: t.field({
    type: UserListType,
    description: "The Assign Users dialog: people who may join the team, alphabetical, 5 a page by default.",
    args: { reportSubmissionID: t.arg.id({ required: true }), search: t.arg.string(), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => assignableUsers(ctx, { ...args, reportSubmissionID: String(args.reportSubmissionID) }),
  }),
  reportSubmissionInvites: t.field({
    type: [GuestReportInviteType],
    args: { reportSubmissionID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => reportInvites(ctx, String(args.reportSubmissionID)),
  }),
  guestMemberReportInvites: t.field({
    type: [GuestReportInviteType],
    description: "The signed-in guest member's report invites; empty for everyone else.",
    authScopes: { staff: true },
    resolve: (_root, _args, ctx) => myInvites(ctx),
  }),
}));

builder.mutationFields((t) => ({
  reportSubmissionAssignUser: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), userID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => assignUser(ctx, String(args.id), String(args.userID)),
  }),
  reportSubmissionUnassignUser: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), userID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => unassignUser(ctx, String(args.id), String(args.userID)),
  }),
  reportSubmissionChangeOwner: t.field({
    type: ReportSubmissionType,
    args: { id: t.arg.id({ required: true }), userID: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => changeOwner(ctx, String(args.id), String(args.userID)),
  }),
  reportSubmissionJoin: t.field({
    type: ReportSubmissionType,
    description: "Join Team / take ownership: an owner or admin of the report's organisation.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => joinTeam(ctx, String(args.id)),
  }),
  reportSubmissionLeave: t.boolean({
    description: "Leave Report: an assigned guest member gives up their access.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionRead" },
    resolve: (_root, args, ctx) => leaveReport(ctx, String(args.id)),
  }),
  reportSubmissionInviteUser: t.field({
    type: GuestReportInviteType,
    args: { id: t.arg.id({ required: true }), email: t.arg.string({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => inviteGuest(ctx, String(args.id), args.email),
  }),
  reportSubmissionInviteRemove: t.field({
    type: GuestReportInviteType,
    description: "Withdraws an invite (by the invite's id).",
    args: { id: t.arg.id({ required: true }) },
    authScopes: { permission: "ReportSubmissionUpdate" },
    resolve: (_root, args, ctx) => removeInvite(ctx, String(args.id)),
  }),
  guestMemberReportInviteAccept: t.field({
    type: GuestReportInviteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => answerInvite(ctx, String(args.id), true),
  }),
  guestMemberReportInviteReject: t.field({
    type: GuestReportInviteType,
    args: { id: t.arg.id({ required: true }) },
    authScopes: { staff: true },
    resolve: (_root, args, ctx) => answerInvite(ctx, String(args.id), false),
  }),
}));
