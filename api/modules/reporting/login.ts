import { and, eq, gt } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reporterHandoffs, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword, type HashingLane } from "../../lib/passwords.ts";
import { hashGeneratedCredential, isGeneratedCredentialHash, normaliseReportId, normaliseReportPassword, verifyGeneratedCredential } from "../../lib/report-credentials.ts";
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
 * The one password check of a report (docs/decisions/005). A generated password or enquiry pin is
 * stored with a fast hash and typed loosely, so the input is normalised and compared in constant
 * time first. A password the reporter chose (checked as typed) and a generated one stored before
 * the fast hash are Argon2id. Every check that does not succeed on the fast hash ends in exactly one
 * Argon2id verification, against the row's own hash or a dummy: a wrong password costs the same for
 * a fast row, an Argon2id row and a report ID that does not exist or cannot be reached from here.
 * Only a right generated password is answered without it, and that answer says "right" anyway.
 */
async function reportPasswordMatches(submission: { passwordHash: string | null; passwordChosen: boolean } | null, password: string, lane: HashingLane): Promise<boolean> {
  const stored = submission?.passwordHash ?? null;
  const typed = submission?.passwordChosen ? password : normaliseReportPassword(password);
  if (verifyGeneratedCredential(stored, typed)) return true;
  return verifyPassword(isGeneratedCredentialHash(stored) ? null : stored, typed, lane);
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
    // A generated password stored as Argon2id before the fast hash existed moves to it now that it has been typed right.
    if (!submission.passwordChosen && !isGeneratedCredentialHash(submission.passwordHash)) {
      await tx.update(reportSubmissions).set({ passwordHash: hashGeneratedCredential(normaliseReportPassword(password)) }).where(eq(reportSubmissions.id, submission.id));
    }
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
  const ok = await hashForParty(actor.sessionTokenHash, (lane) => reportPasswordMatches(submission, oldPassword, lane));
  if (!ok) throw new UserError("BAD_USER_INPUT", "The old password is incorrect.", { fields: [{ field: "oldPassword", message: "The old password is incorrect." }] });
  const passwordHash = await hashForParty(actor.sessionTokenHash, (lane) => hashPassword(newPassword, lane));
  await ctx.db.transaction(async (tx) => {
    await tx.update(reportSubmissions).set({ passwordHash, passwordChosen: true }).where(eq(reportSubmissions.id, submission.id));
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: submission.reportId, action: "ChangeReporterPassword" });
  });
  return true;
}
