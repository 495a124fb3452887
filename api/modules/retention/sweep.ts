import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR, type Services } from "../../context.ts";
import type { JobHandler } from "../../lib/job-worker.ts";
import { enqueueJobs, type ClaimedJob } from "../../lib/jobs.ts";
import { recordActivity } from "../audit/service.ts";
import { mailReminderOrRetry, reminderReportColumns, runReminderJobsAt, startSweepWithJobs } from "../notifications/reminder-jobs.ts";
import { distinctAddresses } from "../notifications/recipients.ts";
import { REMINDER_TIMING, type ReminderTiming } from "../notifications/stale-reminders.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { purgeReport, type PurgedReport } from "../reports/purge.ts";
import { RETENTION_WARNING_DAYS } from "../../shared/retention.ts";
import { atTime, deletionDateSql, deletionDue, effectiveDeletionSql, ownersOfReportOrganisation, retained, warningDue } from "./sql.ts";

/**
 * Retention's sweep (decision 052), run like the reminder sweeps (decisions 041, 050): every
 * instance sweeps every minute and as it starts; each step claims its reports `for update skip
 * locked` in small batches, so two instances never take the same report, and its stamp (the
 * warning time, the deletion) is in the database, so a restart repeats nothing. A warning's mail is a
 * job enqueued with its stamp (decision 058), so a mail the mail server refused is retried.
 */

export const ACTION_RETENTION_WARNING = "NotifyRetentionDelete";
export const ACTION_RETENTION_DELETE = "RetentionDelete";
/** Small: each deletion is a dozen statements inside the batch's one transaction. */
const BATCH = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A warning's mail; its subject is the report, its dedupe key the report and the warning's time (a report closed again is warned again). */
export const RETENTION_WARNING_JOB = "warn.retention";

const dayUtc = (at: Date) => at.toISOString().slice(0, 10);
export const retentionWarningSubject = (reportID: string, deleteOn: Date) => `Report ${reportID} will be deleted on ${dayUtc(deleteOn)}`;

export interface RetentionWarning {
  report: { id: string; reportId: string; formId: string; organisationId: string };
  /** What the owners are told: the deletion date, or the end of the warning window if later. */
  deleteOn: Date;
  addresses: string[];
}

interface WarnedRow {
  id: string;
  report_id: string | null;
  form_id: string;
  organisation_id: string;
  deletion_date: string | Date;
  owners: string[];
}

/** Claims the warnings due at `now`, stamps them and writes their audit entries, in one transaction. */
export async function claimRetentionWarnings(db: Database, now: Date, limit = BATCH): Promise<RetentionWarning[]> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (
        select ${reportSubmissions.id} as id from ${reportSubmissions}
          join ${organisations} on ${organisations.id} = ${reportSubmissions.organisationId}
        where ${retained()} and ${warningDue(now)}
        order by ${reportSubmissions.closedAt}
        limit ${limit}
        for update of ${reportSubmissions} skip locked
      ), claimed as (
        update ${reportSubmissions} set retention_warned_at = ${atTime(now)}
        from due where ${reportSubmissions.id} = due.id
        returning ${reportSubmissions.id} as id
      )
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.formId} as form_id,
        ${reportSubmissions.organisationId} as organisation_id, ${deletionDateSql} as deletion_date, ${ownersOfReportOrganisation()} as owners
      from claimed join ${reportSubmissions} on ${reportSubmissions.id} = claimed.id
        join ${organisations} on ${organisations.id} = ${reportSubmissions.organisationId}`);
    const earliest = now.getTime() + RETENTION_WARNING_DAYS * DAY_MS;
    const warnings = resultRows<WarnedRow>(result).map((row) => ({
      report: { id: row.id, reportId: row.report_id ?? "", formId: row.form_id, organisationId: row.organisation_id },
      // Retention shortened past a report's window: it goes a full window after this warning, not before.
      deleteOn: new Date(Math.max(new Date(row.deletion_date).getTime(), earliest)),
      addresses: distinctAddresses(row.owners),
    }));
    await enqueueJobs(
      tx,
      warnings
        .filter((warning) => warning.addresses.length > 0)
        .map((warning) => ({ kind: RETENTION_WARNING_JOB, subjectId: warning.report.id, dedupeKey: `${RETENTION_WARNING_JOB}:${warning.report.id}:${now.getTime()}`, runAt: now })),
    );
    for (const warning of warnings) {
      await recordActivity(tx, SYSTEM_ACTOR, {
        organisationId: warning.report.organisationId,
        objectType: "ReportSubmission",
        objectId: warning.report.id,
        objectCode: warning.report.reportId,
        action: ACTION_RETENTION_WARNING,
        metadata: { deleteOn: dayUtc(warning.deleteOn), owners: warning.addresses.length },
      });
    }
    return warnings;
  });
}

/**
 * A warning's job: the report's owners and deletion date as they are now (the date the sweep told:
 * the later of the retention date and a full window after the warning). A report re-opened, put on
 * hold or deleted since is not warned of.
 */
async function runRetentionWarning(services: Services, job: ClaimedJob): Promise<void> {
  const [row] = await services.database.db
    .select({
      ...reminderReportColumns,
      deleteOn: sql<string | Date>`${effectiveDeletionSql}`,
      owners: ownersOfReportOrganisation(),
    })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(reportSubmissions.id, job.subjectId), retained(), isNotNull(reportSubmissions.retentionWarnedAt)))
    .limit(1);
  if (!row) return;
  // Each owner on their own: the report ID, the date and a link; never any of the report's content.
  const url = reportConsoleUrl(services.config, row.formId, row.id);
  const subject = retentionWarningSubject(row.reportId ?? "", new Date(row.deleteOn));
  await mailReminderOrRetry(services, ACTION_RETENTION_WARNING, distinctAddresses(row.owners), subject, url);
}

export const retentionJobHandlers = (services: Services): Record<string, JobHandler> => ({ [RETENTION_WARNING_JOB]: (job) => runRetentionWarning(services, job) });

/** Mails the warnings whose jobs are due at `now`, as a server's worker would; for tests. */
export const runRetentionJobs = (services: Services, now: Date) => runReminderJobsAt(services.database.db, retentionJobHandlers(services), now);

interface DueRow {
  id: string;
  report_id: string | null;
  organisation_id: string;
  retention_months: number;
}

/**
 * Claims up to `limit` reports due for deletion at `now` and deletes their content as the hard
 * delete does, each with an audit entry of counts only, in one transaction; the files' bytes and
 * the reporters' cached sessions go after the commit. Returns how many were deleted.
 */
export async function deleteDueReports(services: Services, now: Date, limit = BATCH): Promise<number> {
  const purged: PurgedReport[] = [];
  await services.database.db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.organisationId} as organisation_id,
        ${organisations.retentionMonths} as retention_months
      from ${reportSubmissions} join ${organisations} on ${eq(organisations.id, reportSubmissions.organisationId)}
      where ${retained()} and ${deletionDue(now)}
      order by ${reportSubmissions.closedAt}
      limit ${limit}
      for update of ${reportSubmissions} skip locked`);
    for (const row of resultRows<DueRow>(result)) {
      const done = await purgeReport(tx, services, row.id, null, now);
      purged.push(done);
      await recordActivity(tx, SYSTEM_ACTOR, {
        organisationId: row.organisation_id,
        objectType: "ReportSubmission",
        objectId: row.id,
        objectCode: row.report_id,
        action: ACTION_RETENTION_DELETE,
        metadata: { files: done.files, retentionMonths: row.retention_months },
      });
    }
  });
  for (const done of purged) await done.afterCommit();
  return purged.length;
}

/** One sweep at `now`: warnings first (a report due without one is warned, not deleted), then deletions. */
export async function sweepRetention(services: Services, now: Date): Promise<{ warned: number; deleted: number }> {
  let warned = 0;
  for (;;) {
    const due = await claimRetentionWarnings(services.database.db, now, BATCH);
    warned += due.length;
    if (due.length < BATCH) break;
  }
  let deleted = 0;
  for (;;) {
    const count = await deleteDueReports(services, now, BATCH);
    deleted += count;
    if (count < BATCH) break;
  }
  return { warned, deleted };
}

/** Sweeps at once and then every `sweepEveryMs`, and runs the warnings' jobs; the returned function stops both and waits for their work under way. */
export function startRetention(services: Services, timing: ReminderTiming = REMINDER_TIMING): () => Promise<void> {
  return startSweepWithJobs("Retention sweep", retentionJobHandlers(services), async (now) => (await sweepRetention(services, now)).warned, services, timing);
}
