import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reporterHandoffs, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword, type HashingLane } from "../../lib/passwords.ts";
import { normaliseReportId, normaliseReportPassword } from "../../lib/report-credentials.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { passwordProblem } from "../../shared/password-rule.ts";
import { recordActivity } from "../audit/service.ts";
import { admit, hashForParty, hashInLane, type Attempt } from "../abuse/guard.ts";
import { clearFailures, recordFailure } from "../abuse/failures.ts";
import { subjectKey } from "../abuse/secret.ts";
import { CREDENTIALS_PROBLEM, requireReporter } from "./draft.ts";
import { createReporterSession } from "./sessions.ts";

export const REPORT_LOGIN_FAILED = "Report ID or password is incorrect.";
export const HANDOFF_LIFETIME_MS = 60 * 1000;

/**
 * The one password check of a report: generated passwords are stored in canonical form, so loose
 * typing is normalised first; a password the reporter chose is checked as typed. One hash whatever
 * the input, and one (against a dummy) for a report ID that does not exist.
 */
function reportPasswordMatches(submission: { passwordHash: string | null; passwordChosen: boolean } | null, password: string, lane: HashingLane): Promise<boolean> {
  const typed = submission?.passwordChosen ? password : normaliseReportPassword(password);
  return verifyPassword(submission?.passwordHash ?? null, typed, lane);
}

export interface ReportLoginResult {
  token: string;
  organisationSlug: string;
  handoff: string | null;
}

/**
 * Signs a reporter in with report ID and password. On an organisation's host only that
 * organisation's reports can be opened; on the global login host the answer carries a one-time
 * handoff token for the organisation's host instead of a session there.
 */
export async function reportLogin(ctx: Ctx, rawReportId: string, password: string, solution: string | null = null, now = new Date()): Promise<ReportLoginResult> {
  const reportId = normaliseReportId(rawReportId);
  // Failures and challenges are per typed report ID, existing or not, so both answer alike.
  const attempt: Attempt = { action: "report_login", subjectKey: await subjectKey(ctx.db, "report", reportId), solution, now };
  const admission = await admit(ctx.db, attempt);
  const [row] = await ctx.db
    .select({ submission: reportSubmissions, slug: organisations.slug, archived: organisations.archived })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(reportSubmissions.reportId, reportId), eq(reportSubmissions.completed, true)))
    .limit(1);
  const hostOrganisation = ctx.host.organisation;
  const reachable = row && !row.archived && !row.submission.deletedAt && (ctx.host.kind === "report-login" || row.submission.organisationId === hostOrganisation?.id);
  const submission = reachable ? row.submission : null;

  const ok = await hashInLane(ctx.db, attempt, admission, (lane) => reportPasswordMatches(submission, password, lane));
  if (!submission || !ok) {
    await recordFailure(ctx.db, attempt.subjectKey, now);
    throw new UserError("UNAUTHENTICATED", REPORT_LOGIN_FAILED);
  }
  await clearFailures(ctx.db, attempt.subjectKey);

  return ctx.db.transaction(async (tx) => {
    await recordActivity(tx, { kind: "anonymous" }, { organisationId: submission.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: reportId, action: "ReporterLogin" });
    if (ctx.host.kind === "report-login") {
      const handoff = newToken();
      await tx.insert(reporterHandoffs).values({ tokenHash: hashToken(handoff), submissionId: submission.id, organisationId: submission.organisationId, expiresAt: new Date(now.getTime() + HANDOFF_LIFETIME_MS) });
      return { token: "", organisationSlug: row!.slug, handoff };
    }
    const session = await createReporterSession(tx, submission.organisationId, submission.id, now);
    return { token: session.token, organisationSlug: row!.slug, handoff: null };
  });
}

/** Exchanges a handoff token (once, within a minute) for a session on the organisation's own host. */
export async function redeemHandoff(ctx: Ctx, handoff: string, now = new Date()): Promise<string> {
  const organisation = ctx.host.organisation;
  if (!organisation || !handoff || handoff.length > 200) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  return ctx.db.transaction(async (tx: Database) => {
    const [row] = await tx
      .delete(reporterHandoffs)
      .where(and(eq(reporterHandoffs.tokenHash, hashToken(handoff)), eq(reporterHandoffs.organisationId, organisation.id), gt(reporterHandoffs.expiresAt, now)))
      .returning();
    if (!row) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
    const session = await createReporterSession(tx, organisation.id, row.submissionId, now);
    return session.token;
  });
}

export async function changeReportPassword(ctx: Ctx, oldPassword: string, newPassword: string): Promise<boolean> {
  const actor = requireReporter(ctx);
  if (!actor.submissionId) throw new UserError("UNAUTHENTICATED", CREDENTIALS_PROBLEM);
  const problem = passwordProblem(newPassword);
  if (problem) throw new UserError("BAD_USER_INPUT", problem, { fields: [{ field: "newPassword", message: problem }] });
  const [submission] = await ctx.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, actor.submissionId));
  // An uncompleted report has no password to change: the spec's guard does nothing.
  if (!submission?.completed) return false;
  const ok = await hashForParty(actor.sessionTokenHash, false, (lane) => reportPasswordMatches(submission, oldPassword, lane));
  if (!ok) throw new UserError("BAD_USER_INPUT", "The old password is incorrect.", { fields: [{ field: "oldPassword", message: "The old password is incorrect." }] });
  const passwordHash = await hashForParty(actor.sessionTokenHash, false, (lane) => hashPassword(newPassword, lane));
  await ctx.db.transaction(async (tx) => {
    await tx.update(reportSubmissions).set({ passwordHash, passwordChosen: true }).where(eq(reportSubmissions.id, submission.id));
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: submission.reportId, action: "ChangeReporterPassword" });
  });
  return true;
}
