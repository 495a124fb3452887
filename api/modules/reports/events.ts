import { eq } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { logError } from "../../lib/log.ts";
import type { Permission } from "../../shared/permissions.ts";
import { mutate } from "../access/policy.ts";
import { recordActivity, type ActivityEntry } from "../audit/service.ts";
import { reportFor, type ReportAccess } from "./policy.ts";
import { loadReportViews, type ReportView } from "./views.ts";

/**
 * The one path every staff change to a report takes, and the event it ends with. Listeners (the
 * dashboard, open detail pages) get ids only and reload what they are allowed to see.
 */
export const reportUpdatedTopic = (organisationId: string) => `report.updated.${organisationId}`;

/** After the commit: a lost event must not turn a committed change into an error, so it is only logged. */
export async function publishReportUpdated(ctx: Ctx, organisationId: string, submissionId: string): Promise<void> {
  await ctx.services.pubsub.publish(reportUpdatedTopic(organisationId), { submissionId }).catch((error: unknown) => logError("Could not publish a report update", error));
}

export interface ReportChange {
  /** The audit action, e.g. "Close". */
  action: string;
  metadata?: Record<string, unknown>;
  /** The change's parts, shown under its entry's View Logs (audit service: children). */
  children?: ActivityEntry["children"];
  /**
   * False for changes that are not the report's (a user's own mute switch, forwarding a link):
   * they must not move the report up the "Date Updated" sort for everyone.
   */
  bumpsUpdatedAt?: boolean;
  /** Runs after the commit, before the event (removing blob bytes, sending mail). */
  afterCommit?: () => Promise<void>;
}

/**
 * Permission first; then one transaction that locks the report (so two staff cannot, say, close
 * and re-open it at once), applies `work`, bumps updatedAt and writes the audit entry; then the
 * after-commit step, the event and the fresh view. `work` throws a UserError to refuse, which rolls
 * everything back, the audit entry included.
 */
export async function changeReport(
  ctx: Ctx,
  id: unknown,
  permission: Permission,
  work: (tx: Database, access: ReportAccess) => Promise<ReportChange>,
): Promise<ReportView> {
  const { access, change } = await mutate(ctx, permission, async (tx) => {
    const access = await reportFor(ctx, tx, id, permission, true);
    const change = await work(tx, access);
    await recordReportChange(tx, access, change);
    return { access, change };
  });
  await change.afterCommit?.();
  await publishReportUpdated(ctx, access.submission.organisationId, access.submission.id);
  const [view] = await loadReportViews(ctx, access.actor, [access.submission.id]);
  return view!;
}

/** The updatedAt bump and the audit entry of a change, in its transaction. */
export async function recordReportChange(tx: Database, access: ReportAccess, change: ReportChange): Promise<void> {
  if (change.bumpsUpdatedAt !== false) await tx.update(reportSubmissions).set({ updatedAt: new Date() }).where(eq(reportSubmissions.id, access.submission.id));
  await recordActivity(tx, access.actor, {
    organisationId: access.submission.organisationId,
    objectType: "ReportSubmission",
    objectId: access.submission.id,
    objectCode: access.submission.reportId,
    action: change.action,
    ...(change.metadata ? { metadata: change.metadata } : {}),
    ...(change.children ? { children: change.children } : {}),
  });
}
