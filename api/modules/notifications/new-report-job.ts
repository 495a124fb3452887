import type { JobToEnqueue } from "../../lib/jobs.ts";

/** The job of a new report's mail (notifier.ts); the report's id is its subject. */
export const NEW_REPORT_JOB = "notify.new_report";

/**
 * The mail job of a new report, added in the report's own transaction (decision 058): by the
 * completion's statement (reporting/draft-statements.ts) and by an enquiry's transaction.
 */
export function newReportJob(submissionId: string): JobToEnqueue {
  return { kind: NEW_REPORT_JOB, subjectId: submissionId };
}
