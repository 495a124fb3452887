import { and, eq, isNull, ne } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisationEmailSubscribers, reportConversationMessages, reportConversations, reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";

/** Who hears about what: looked up when the event arrives, so a later mute or unassignment counts. */

export interface NoticeReport {
  id: string;
  reportId: string | null;
  formId: string;
  organisationId: string;
}

/** A completed, not deleted report: events for anything else are ignored. */
export async function noticeReport(db: Database, submissionId: string): Promise<NoticeReport | null> {
  const [row] = await db
    .select({ id: reportSubmissions.id, reportId: reportSubmissions.reportId, formId: reportSubmissions.formId, organisationId: reportSubmissions.organisationId })
    .from(reportSubmissions)
    .where(and(eq(reportSubmissions.id, submissionId), eq(reportSubmissions.completed, true), isNull(reportSubmissions.deletedAt)))
    .limit(1);
  return row ?? null;
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

/** The report's team members who have not muted its notifications (and are not suspended). */
export async function teamAddresses(db: Database, submissionId: string): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(reportSubmissionAssignees)
    .innerJoin(users, eq(users.id, reportSubmissionAssignees.userId))
    .where(and(eq(reportSubmissionAssignees.submissionId, submissionId), eq(reportSubmissionAssignees.isMuted, false), eq(users.suspended, false)));
  return rows.map((row) => row.email);
}

/** The organisation's email subscriber (at most one, spec §9). */
export async function subscriberAddresses(db: Database, organisationId: string): Promise<string[]> {
  const rows = await db.select({ email: organisationEmailSubscribers.email }).from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, organisationId));
  return rows.map((row) => row.email);
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
