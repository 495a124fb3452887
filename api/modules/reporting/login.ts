import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { organisations, reporterHandoffs, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { hashPassword, verifyPassword } from "../../lib/passwords.ts";
import { normaliseReportId, normaliseReportPassword } from "../../lib/report-credentials.ts";
import { hashToken, newToken } from "../../lib/tokens.ts";
import { passwordProblem } from "../../shared/password-rule.ts";
import { recordActivity } from "../audit/service.ts";
import { CREDENTIALS_PROBLEM, requireReporter } from "./draft.ts";
import { createReporterSession } from "./sessions.ts";

export const REPORT_LOGIN_FAILED = "Report ID or password is incorrect.";
export const HANDOFF_LIFETIME_MS = 60 * 1000;

/** Five tries a minute per report ID are free; after that each further try waits longer, up to five minutes. */
export function reportLoginDelaySeconds(failures: number, secondsSinceLastFailure: number): number {
  if (failures < 5) return 0;
  const wait = Math.min(300, 2 ** (failures - 4) * 6);
  return secondsSinceLastFailure >= wait ? 0 : Math.ceil(wait - secondsSinceLastFailure);
}

/**
 * Unknown report IDs are limited overall (per process): nothing is stored about who asked, so a
 * flood of guesses is slowed as a whole rather than per asker.
 */
const unknownIdAttempts: number[] = [];
const UNKNOWN_ID_LIMIT_PER_MINUTE = 60;

function unknownIdThrottled(now: number): boolean {
  while (unknownIdAttempts.length > 0 && now - unknownIdAttempts[0]! > 60_000) unknownIdAttempts.shift();
  unknownIdAttempts.push(now);
  return unknownIdAttempts.length > UNKNOWN_ID_LIMIT_PER_MINUTE;
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
export async function reportLogin(ctx: Ctx, rawReportId: string, password: string, now = new Date()): Promise<ReportLoginResult> {
  const reportId = normaliseReportId(rawReportId);
  const [row] = await ctx.db
    .select({ submission: reportSubmissions, slug: organisations.slug, archived: organisations.archived })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(reportSubmissions.reportId, reportId), eq(reportSubmissions.completed, true)))
    .limit(1);
  const hostOrganisation = ctx.host.organisation;
  const reachable = row && !row.archived && !row.submission.deletedAt && (ctx.host.kind === "report-login" || row.submission.organisationId === hostOrganisation?.id);

  if (!row || !reachable) {
    if (unknownIdThrottled(now.getTime())) throw new UserError("TOO_MANY_REQUESTS", "Too many login attempts. Please try again in a minute.", { retryAfterSeconds: 60 });
    await verifyPassword(null, password);
    throw new UserError("UNAUTHENTICATED", REPORT_LOGIN_FAILED);
  }
  const submission = row.submission;
  const since = submission.lastFailedLoginAt ? (now.getTime() - submission.lastFailedLoginAt.getTime()) / 1000 : Infinity;
  const wait = reportLoginDelaySeconds(submission.failedLoginCount, since);
  if (wait > 0) throw new UserError("TOO_MANY_REQUESTS", `Too many failed login attempts. Please try again in ${wait} seconds.`, { retryAfterSeconds: wait });

  const ok = (await verifyPassword(submission.passwordHash, normaliseReportPassword(password))) || (await verifyPassword(submission.passwordHash, password));
  if (!ok) {
    // A window of a minute: failures older than that start the count again.
    const fresh = since > 60 && submission.failedLoginCount < 5;
    await ctx.db
      .update(reportSubmissions)
      .set({ failedLoginCount: fresh ? 1 : sql`${reportSubmissions.failedLoginCount} + 1`, lastFailedLoginAt: now })
      .where(eq(reportSubmissions.id, submission.id));
    throw new UserError("UNAUTHENTICATED", REPORT_LOGIN_FAILED);
  }

  return ctx.db.transaction(async (tx) => {
    await tx.update(reportSubmissions).set({ failedLoginCount: 0, lastFailedLoginAt: null }).where(eq(reportSubmissions.id, submission.id));
    await recordActivity(tx, { kind: "anonymous" }, { organisationId: submission.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: reportId, action: "ReporterLogin" });
    if (ctx.host.kind === "report-login") {
      const handoff = newToken();
      await tx.insert(reporterHandoffs).values({ tokenHash: hashToken(handoff), submissionId: submission.id, organisationId: submission.organisationId, expiresAt: new Date(now.getTime() + HANDOFF_LIFETIME_MS) });
      return { token: "", organisationSlug: row.slug, handoff };
    }
    const session = await createReporterSession(tx, submission.organisationId, submission.id, now);
    return { token: session.token, organisationSlug: row.slug, handoff: null };
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
  const ok = (await verifyPassword(submission.passwordHash, normaliseReportPassword(oldPassword))) || (await verifyPassword(submission.passwordHash, oldPassword));
  if (!ok) throw new UserError("BAD_USER_INPUT", "The old password is incorrect.", { fields: [{ field: "oldPassword", message: "The old password is incorrect." }] });
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(reportSubmissions).set({ passwordHash }).where(eq(reportSubmissions.id, submission.id));
    await recordActivity(tx, actor, { organisationId: actor.organisationId, objectType: "ReportSubmission", objectId: submission.id, objectCode: submission.reportId, action: "ChangeReporterPassword" });
  });
  return true;
}
