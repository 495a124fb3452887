import { and, eq, isNotNull } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { reportConversations, reportSubmissionAssignees, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError, badInput, forbidden } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { TEXT_LIMITS } from "../../shared/limits.ts";
import { parseWith } from "../../lib/validation.ts";
import { CLOSE_OUTCOMES, type Priority, type SubmissionStatus } from "../../shared/enums.ts";
import { isSuperAdmin, requirePermission } from "../access/policy.ts";
import { changeReport } from "./events.ts";
import { markFeedbackGiven } from "../legal-clocks/hooks.ts";
import { cleanNote, insertNote, statusNoteText } from "./notes.ts";
import { isOrganisationManager, isTerminal, type ReportAccess } from "./policy.ts";
import { purgeReport } from "./purge.ts";
import type { ReportView } from "./views.ts";

/** Close, re-open, archive, hard delete, priority, identifiers and mute: docs/decisions/009-report-access.md. */

export const TEAM_ONLY = "Only members of the report team can do this.";
export const ALREADY_CLOSED = "Report is already closed";
export const INVALID_STATUS = "Invalid status";
export const UNABLE_TO_OPEN = "Unable to Open Report, please try again";
export const NOT_CLOSED_FOR_ARCHIVE = "Cannot archive a report that has not been closed or completed.";
export const ALREADY_ARCHIVED = "Report is already archived.";
export const NOT_ARCHIVED = "Report is not archived.";
export const ONLY_ARCHIVED_DELETE = "Only archived reports can be deleted.";
export const ALREADY_DELETED = "Report has already been deleted";
export const JOIN_TO_MUTE = "Join the report team to change its notifications.";
export const MAX_INTERNAL_REFERENCE = TEXT_LIMITS.internalReference.max;

/** Working a report (close, re-open, priority) is for its team, never a guest. */
const onTeamNotGuest = (access: ReportAccess) => access.assigned && access.actor.role !== "GUEST_MEMBER";

/** An owner or admin of the report's own organisation (a super admin is neither: they do not work reports). */
export const managesReportOrganisation = (access: ReportAccess) =>
  isOrganisationManager(access.actor) && access.actor.organisationId === access.submission.organisationId;

const setConcluded = (tx: Database, submissionId: string, concluded: boolean) =>
  tx.update(reportConversations).set({ concluded }).where(eq(reportConversations.submissionId, submissionId));

export function closeReport(ctx: Ctx, id: unknown, completeStatus: SubmissionStatus, note: string | null | undefined): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionClose", async (tx, access) => {
    if (!onTeamNotGuest(access)) throw forbidden(TEAM_ONLY);
    if (!(CLOSE_OUTCOMES as readonly string[]).includes(completeStatus)) throw badInput(INVALID_STATUS, [{ field: "completeStatus", message: INVALID_STATUS }]);
    if (isTerminal(access.submission.status)) throw new UserError("CONFLICT", ALREADY_CLOSED);
    const text = note?.trim() ? cleanNote(note) : statusNoteText(completeStatus);
    // closedAt starts retention's count (decision 052); a stale warning of an earlier closing goes.
    await tx.update(reportSubmissions).set({ status: completeStatus, closedAt: new Date(), retentionWarnedAt: null }).where(eq(reportSubmissions.id, access.submission.id));
    // The reporter's side reads "This conversation is closed" from this flag and the status.
    await setConcluded(tx, access.submission.id, true);
    await insertNote(ctx, tx, access, { note: text, newStatus: completeStatus });
    // The outcome the reporter reads in the follow-up area is feedback (decision 050).
    await markFeedbackGiven(tx, access.submission.id, new Date());
    return { action: "Close", metadata: { from: access.submission.status, to: completeStatus } };
  });
}

export function openReport(ctx: Ctx, id: unknown): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionOpen", async (tx, access) => {
    if (!onTeamNotGuest(access)) throw forbidden(TEAM_ONLY);
    // Deleted reports never get here: reportFor answers "not found" for them.
    if (!isTerminal(access.submission.status) || access.submission.archived) throw new UserError("CONFLICT", UNABLE_TO_OPEN);
    const status: SubmissionStatus = access.team.length > 0 ? "Assigned" : "New";
    // A re-opened report is not deleted by retention: its count starts again when it closes.
    await tx.update(reportSubmissions).set({ status, closedAt: null, retentionWarnedAt: null }).where(eq(reportSubmissions.id, access.submission.id));
    await setConcluded(tx, access.submission.id, false);
    await insertNote(ctx, tx, access, { note: statusNoteText(status), newStatus: status });
    return { action: "Open", metadata: { from: access.submission.status, to: status } };
  });
}

/** Archive and unarchive are row actions of the list: owners, admins and super admins (by permission). */
export function archiveReport(ctx: Ctx, id: unknown, archived: boolean): Promise<ReportView> {
  return changeReport(ctx, id, archived ? "ReportSubmissionArchive" : "ReportSubmissionUnarchive", async (tx, access) => {
    const { submission } = access;
    if (archived && submission.status !== "Closed" && submission.status !== "Completed") throw new UserError("CONFLICT", NOT_CLOSED_FOR_ARCHIVE);
    if (submission.archived === archived) throw new UserError("CONFLICT", archived ? ALREADY_ARCHIVED : NOT_ARCHIVED);
    await tx.update(reportSubmissions).set({ archived, archivedAt: archived ? new Date() : null }).where(eq(reportSubmissions.id, submission.id));
    return { action: archived ? "Archive" : "Unarchive" };
  });
}

/**
 * Makes a report disappear for good. What could identify anyone goes (answers, files, chat,
 * notes, reporter sessions, the login password, the internal reference); the row stays with its
 * report ID, status and dates, so the audit trail still names what was deleted and when.
 */
export async function hardDeleteReport(ctx: Ctx, id: unknown): Promise<ReportView> {
  const actor = requirePermission(ctx, "ReportSubmissionHardDelete");
  if (isUuid(id)) {
    // reportFor hides deleted reports; those who could delete it are told it is gone already.
    const [row] = await ctx.db
      .select({ organisationId: reportSubmissions.organisationId })
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.id, id), isNotNull(reportSubmissions.deletedAt)));
    if (row && (isSuperAdmin(actor) || (isOrganisationManager(actor) && actor.organisationId === row.organisationId))) throw new UserError("CONFLICT", ALREADY_DELETED);
  }
  return changeReport(ctx, id, "ReportSubmissionHardDelete", async (tx, access) => {
    if (!access.submission.archived) throw new UserError("CONFLICT", ONLY_ARCHIVED_DELETE);
    const purged = await purgeReport(tx, ctx.services, access.submission.id, access.actor.userId);
    return { action: "HardDelete", metadata: { files: purged.files }, afterCommit: purged.afterCommit };
  });
}

export function setReportPriority(ctx: Ctx, id: unknown, priority: Priority): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionUpdate", async (tx, access) => {
    if (!onTeamNotGuest(access) && !managesReportOrganisation(access)) throw forbidden(TEAM_ONLY);
    await tx.update(reportSubmissions).set({ priority }).where(eq(reportSubmissions.id, access.submission.id));
    return { action: "SetPriority", metadata: { from: access.submission.priority, to: priority } };
  });
}

const InternalReferenceInput = v.object({
  internalReference: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(MAX_INTERNAL_REFERENCE, TEXT_LIMITS.internalReference.tooLong),
  ),
});

/** Super admins and guests never see the identifiers (spec), so they cannot set them either. */
export function setInternalReference(ctx: Ctx, id: unknown, internalReference: string): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionInternalReference", async (tx, access) => {
    if (isSuperAdmin(access.actor) || access.actor.role === "GUEST_MEMBER") throw forbidden();
    const input = parseWith(InternalReferenceInput, { internalReference: internalReference ?? "" });
    await tx.update(reportSubmissions).set({ internalReference: input.internalReference }).where(eq(reportSubmissions.id, access.submission.id));
    return { action: "InternalReference", metadata: { from: access.submission.internalReference, to: input.internalReference } };
  });
}

/** The acting user's own email notifications for this report. */
export function muteReportNotifications(ctx: Ctx, id: unknown, muted: boolean): Promise<ReportView> {
  return changeReport(ctx, id, "ReportSubmissionRead", async (tx, access) => {
    if (!access.assigned) throw forbidden(JOIN_TO_MUTE);
    await tx
      .update(reportSubmissionAssignees)
      .set({ isMuted: muted })
      .where(and(eq(reportSubmissionAssignees.submissionId, access.submission.id), eq(reportSubmissionAssignees.userId, access.actor.userId)));
    return { action: muted ? "MuteNotification" : "UnmuteNotification", bumpsUpdatedAt: false };
  });
}
