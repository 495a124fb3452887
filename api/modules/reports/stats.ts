import { and, count, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { guestMemberships, guestReportInvites, reportConversationMessages, reportConversations, reportSubmissionAssignees, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { forbidden } from "../../lib/errors.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import { requirePermission, requireStaff } from "../access/policy.ts";
import { completedWithin, endOfDay, parseDateFilter, reportScope, scopedReports, startOfDay, type DateFilter } from "./list.ts";
import { addressedTo } from "./guest-invites.ts";
import { queryKey } from "./live-share.ts";

/**
 * The dashboard's and sidebar's numbers. Each is first prepared for a caller (permission, scope
 * and arguments checked once) as a `LiveQuery`, which the query fields run once and the live
 * subscriptions run again on events, shared by every subscriber whose query has the same key.
 */

export interface LiveQuery<T> {
  /** The SQL text and parameters it runs: equal keys give equal values (live-share.ts). */
  key: string;
  run(): Promise<T>;
}

export interface ReportStats {
  totalReports: number;
  newReports: number;
  assignedReports: number;
  closedReports: number;
  /** Reports received per day over the period. */
  newReportsDailyAverage: number;
  /** Reports of the period now closed, per day of the period. */
  closedReportsDailyAverage: number;
}

export interface ReportStatsArgs {
  organisationID?: string | null;
  dateFilter?: DateFilter;
}

export interface OrganisationUserStats {
  unreadMessages: number;
  unassignedReports: number;
}

export interface UserStats {
  guestOrganisationCount: number;
  pendingInvites: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** count(*) of the rows also meeting `condition`, in the same scan as the other counts. */
const countWhere = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;

const roundTwo = (value: number) => Math.round(value * 100) / 100;

/** Whole UTC days from `from` to `to`, both included; never less than one. */
function daysBetween(from: Date, to: Date): number {
  return Math.max(1, Math.ceil((to.getTime() - from.getTime()) / DAY_MS));
}

/**
 * Dashboard tiles over the actor's visible, non-archived, non-test reports completed within the
 * filter (all time by default). The averages spread over the filter's days, or, without a start
 * date, the days since the first such report. Guests have no dashboard (spec section 6).
 */
export async function reportStatsQuery(ctx: Ctx, args: ReportStatsArgs): Promise<LiveQuery<ReportStats>> {
  const actor = requirePermission(ctx, "ReportSubmissionList");
  if (actor.role === "GUEST_MEMBER") throw forbidden();
  const range = parseDateFilter(args.dateFilter);
  const organisationId = await reportScope(ctx, actor, args.organisationID);
  const base = and(scopedReports(actor, organisationId), eq(reportSubmissions.archived, false), eq(reportSubmissions.isTest, false));
  const inPeriod = and(...completedWithin(range)) ?? sql`true`;
  const build = () =>
    ctx.db
      .select({
        total: countWhere(inPeriod),
        fresh: countWhere(and(inPeriod, eq(reportSubmissions.status, "New"))!),
        assigned: countWhere(and(inPeriod, eq(reportSubmissions.status, "Assigned"))!),
        closed: countWhere(and(inPeriod, inArray(reportSubmissions.status, [...TERMINAL_SUBMISSION_STATUSES]))!),
        // Over all time, not the period: it only dates the start of an open-ended period.
        first: sql<Date | null>`min(${reportSubmissions.completedAt})`.mapWith(reportSubmissions.completedAt),
      })
      .from(reportSubmissions)
      .where(base);
  const run = async (): Promise<ReportStats> => {
    const [row] = await build();
    const total = row?.total ?? 0;
    const closed = row?.closed ?? 0;
    const now = new Date();
    const first = row?.first ?? null;
    const start = range.from ? startOfDay(range.from) : first ? startOfDay(first.toISOString().slice(0, 10)) : null;
    const end = range.to ? endOfDay(range.to) : endOfDay(now.toISOString().slice(0, 10));
    const days = start ? daysBetween(start, end) : 1;
    return {
      totalReports: total,
      newReports: row?.fresh ?? 0,
      assignedReports: row?.assigned ?? 0,
      closedReports: closed,
      newReportsDailyAverage: roundTwo(total / days),
      closedReportsDailyAverage: roundTwo(closed / days),
    };
  };
  return { key: queryKey(build()), run };
}

export async function reportStats(ctx: Ctx, args: ReportStatsArgs): Promise<ReportStats> {
  return (await reportStatsQuery(ctx, args)).run();
}

/** The sidebar's badges: unread reporter messages and reports nobody has taken yet. */
export async function organisationUserStatsQuery(ctx: Ctx, args: { organisationID?: string | null }): Promise<LiveQuery<OrganisationUserStats>> {
  const actor = requirePermission(ctx, "ReportSubmissionList");
  const organisationId = await reportScope(ctx, actor, args.organisationID);
  const visible = scopedReports(actor, organisationId);
  const build = () =>
    [
      ctx.db
        .select({ n: count() })
        .from(reportConversationMessages)
        .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
        .innerJoin(reportSubmissions, eq(reportSubmissions.id, reportConversations.submissionId))
        // The same messages loadReportViews counts as a report's unread ones.
        .where(and(visible, eq(reportConversationMessages.from, "Guest"), eq(reportConversationMessages.state, "New"), ne(reportConversationMessages.type, "System"))),
      ctx.db
        .select({ n: count() })
        .from(reportSubmissions)
        .where(
          and(
            visible,
            eq(reportSubmissions.status, "New"),
            sql`not exists (select 1 from ${reportSubmissionAssignees} where ${reportSubmissionAssignees.submissionId} = ${reportSubmissions.id})`,
          ),
        ),
    ] as const;
  const run = async (): Promise<OrganisationUserStats> => {
    const [[unread], [unassigned]] = await Promise.all(build());
    return { unreadMessages: unread?.n ?? 0, unassignedReports: unassigned?.n ?? 0 };
  };
  return { key: queryKey(...build()), run };
}

export async function organisationUserStats(ctx: Ctx, args: { organisationID?: string | null }): Promise<OrganisationUserStats> {
  return (await organisationUserStatsQuery(ctx, args)).run();
}

/** The Guest Access menu: organisations the user is a guest of, and report invites awaiting an answer. */
export function userStatsQuery(ctx: Ctx): LiveQuery<UserStats> {
  const actor = requireStaff(ctx);
  const build = () =>
    [
      ctx.db
        .select({ n: count() })
        .from(guestMemberships)
        .where(and(eq(guestMemberships.userId, actor.userId), eq(guestMemberships.archived, false))),
      ctx.db
        .select({ n: count() })
        .from(guestReportInvites)
        // The invites page's own rows: only a guest account can hold invites, so nobody else
        // is shown a count of invites they could neither see nor answer.
        .where(and(actor.role === "GUEST_MEMBER" ? addressedTo(actor.userId, actor.email) : sql`false`, eq(guestReportInvites.status, "Opened"), eq(guestReportInvites.archived, false))),
    ] as const;
  const run = async (): Promise<UserStats> => {
    const [[organisationsRow], [invitesRow]] = await Promise.all(build());
    return { guestOrganisationCount: organisationsRow?.n ?? 0, pendingInvites: invitesRow?.n ?? 0 };
  };
  return { key: queryKey(...build()), run };
}

export async function userStats(ctx: Ctx, _args: Record<string, never> = {}): Promise<UserStats> {
  return userStatsQuery(ctx).run();
}
