import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { reportNotices, reportSubmissions } from "../../../db/schema/index.ts";
import { subscribersOfReport, type NoticeReport } from "./recipients.ts";

/** A new report and its organisation's subscriber: a new report has no team yet (notifier.ts). */
export interface NewReportNotice {
  report: NoticeReport;
  subscribers: string[];
}

/**
 * New reports' notices (decision 028), as instances of earlier releases still write them during a
 * rolling upgrade: their statement that makes a report also writes its row in report_notices, and
 * the new-report event that follows the commit only wakes the notifiers up. This release queues the
 * mail job with the report instead (reporting/draft-statements.ts), so the notifier only drains
 * what earlier releases leave. An instance claims notices by deleting their rows, so each is
 * handled by exactly one instance, and what a lost wake-up (a crash between the commit and the
 * NOTIFY) leaves behind is found by the sweep. The notifier claims in the transaction that enqueues
 * the notices' mails as background jobs (decision 058), so a notice is never taken without its job.
 */

interface ClaimedRow {
  id: string;
  report_id: string | null;
  form_id: string;
  organisation_id: string;
  subscribers: string[];
}

async function claim(db: Database, claimed: SQL): Promise<NewReportNotice[]> {
  const result = await db.execute(sql`
    with claimed as (${claimed})
    select report.* from claimed cross join lateral (
      -- One report by its key for each claimed notice. As a join, a plan estimating a hundred
      -- notices hashed every completed report of every organisation instead (decision 028).
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.formId} as form_id,
        ${reportSubmissions.organisationId} as organisation_id, ${subscribersOfReport()} as subscribers
      from ${reportSubmissions}
      where ${reportSubmissions.id} = claimed.submission_id and ${reportSubmissions.completed} and ${reportSubmissions.deletedAt} is null
      limit 1
    ) report`);
  return resultRows<ClaimedRow>(result).map((row) => ({
    report: { id: row.id, reportId: row.report_id, formId: row.form_id, organisationId: row.organisation_id },
    subscribers: row.subscribers,
  }));
}

/** Takes these reports' notices; those another instance took first are not returned. */
export function claimReportNotices(db: Database, submissionIds: string[]): Promise<NewReportNotice[]> {
  const ids = sql`array(select jsonb_array_elements_text(${JSON.stringify(submissionIds)}::text::jsonb)::uuid)`;
  return claim(db, sql`delete from ${reportNotices} where ${reportNotices.submissionId} = any(${ids}) returning ${reportNotices.submissionId}`);
}

/** Takes up to `limit` notices written before `before` that no wake-up has claimed, oldest first. */
export function claimForgottenNotices(db: Database, before: Date, limit: number): Promise<NewReportNotice[]> {
  return claim(
    db,
    sql`delete from ${reportNotices} where ${reportNotices.submissionId} in (
      select ${reportNotices.submissionId} from ${reportNotices} where ${reportNotices.createdAt} < ${before.toISOString()}::timestamptz
      order by ${reportNotices.createdAt} limit ${limit} for update skip locked) returning ${reportNotices.submissionId}`,
  );
}
