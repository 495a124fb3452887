import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisationEmailSubscribers, reportConversationMessages, reportConversations, reportSubmissionAssignees, reportSubmissions, roles, users } from "../../../db/schema/index.ts";

/** Who hears about what: looked up when the event arrives, so a later mute or unassignment counts. */

export interface NoticeReport {
  id: string;
  reportId: string | null;
  formId: string;
  organisationId: string;
}

export interface Notice {
  report: NoticeReport;
  /** The organisation's email subscriber (at most one, spec §9). */
  subscribers: string[];
  /** The report's team members who have not muted its notifications (and are not suspended). */
  team: string[];
}

/** The organisation's subscriber (at most one, spec §9), in a statement over report_submissions. */
export const subscribersOfReport = () =>
  sql<string[]>`array(select ${organisationEmailSubscribers.email} from ${organisationEmailSubscribers} where ${eq(organisationEmailSubscribers.organisationId, reportSubmissions.organisationId)})`;

/** The report's team members who have not muted it and are not suspended, in a statement over report_submissions. */
export const teamOfReport = () =>
  sql<string[]>`array(select ${users.email} from ${reportSubmissionAssignees} join ${users} on ${eq(users.id, reportSubmissionAssignees.userId)} where ${and(eq(reportSubmissionAssignees.submissionId, reportSubmissions.id), eq(reportSubmissionAssignees.isMuted, false), eq(users.suspended, false))})`;

/** The organisation's owners and admins who are not suspended, in a statement over report_submissions: who hears of a report nobody is assigned to. */
export const managersOfReport = () =>
  sql<string[]>`array(select ${users.email} from ${users} join ${roles} on ${eq(roles.id, users.roleId)} where ${and(
    eq(users.organisationId, reportSubmissions.organisationId),
    inArray(roles.name, ["ORGANISATION_OWNER", "ORGANISATION_ADMIN"]),
    eq(users.suspended, false),
  )})`;

/** Whether anyone is assigned to the report, in a statement over report_submissions. */
export const assignedToAnyone = () => sql<boolean>`exists (select 1 from ${reportSubmissionAssignees} where ${eq(reportSubmissionAssignees.submissionId, reportSubmissions.id)})`;

/** A completed, not deleted report with everyone who may hear of it, in one statement; null for anything else. */
export async function noticeOf(db: Database, submissionId: string): Promise<Notice | null> {
  const [row] = await db
    .select({
      id: reportSubmissions.id,
      reportId: reportSubmissions.reportId,
      formId: reportSubmissions.formId,
      organisationId: reportSubmissions.organisationId,
      subscribers: subscribersOfReport(),
      team: teamOfReport(),
    })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.id, submissionId), eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt)))
    .limit(1);
  if (!row) return null;
  const { subscribers: subscriberList, team: teamList, ...report } = row;
  return { report, subscribers: subscriberList, team: teamList };
}

/** The report of a message the reporter wrote (text or image); staff and system messages notify nobody. */
export async function reporterMessageReport(db: Database, messageId: string): Promise<string | null> {
  const [row] = await db
    .select({ submissionId: reportConversations.submissionId })
    .from(reportConversationMessages)
    .innerJoin(reportConversations, eq(reportConversations.id, reportConversationMessages.conversationId))
    .where(and(eq(reportConversationMessages.id, messageId), eq(reportConversationMessages.from, "Guest"), ne(reportConversationMessages.type, "System")))
    .limit(1);
  return row?.submissionId ?? null;
}

/** Each address once, whatever its case: a subscriber who is also on the team gets one mail. */
export function distinctAddresses(addresses: string[]): string[] {
  const seen = new Map<string, string>();
  for (const address of addresses) {
    const key = address.trim().toLowerCase();
    if (key && !seen.has(key)) seen.set(key, address.trim());
  }
  return [...seen.values()];
}
