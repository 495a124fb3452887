import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR, type Services } from "../../context.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import type { JobHandler } from "../../lib/job-worker.ts";
import { enqueueJobs, type ClaimedJob } from "../../lib/jobs.ts";
import { recordActivity } from "../audit/service.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { assignedToAnyone, distinctAddresses, managersOfReport, teamOfReport, type NoticeReport } from "./recipients.ts";
import { mailReminderOrRetry, reminderReportColumns, runReminderJobsAt, startSweepWithJobs } from "./reminder-jobs.ts";

/**
 * Reminders of a reporter's message that staff have not answered (docs/decisions/041). A message
 * from the reporter starts the wait (report_conversations.awaiting_reply_since) and a staff reply
 * ends it, both in the write the message makes anyway (conversations/write.ts). A sweep on every
 * instance then claims the conversations whose next reminder is due.
 *
 * The claim is one statement that moves the conversation's count and time on under a row lock,
 * skipping rows another instance holds: whoever moves it enqueues the reminder's mail job in the
 * same transaction (decision 058), and the others no longer find the row due. Everything lives in
 * the database, so a restart neither repeats a reminder nor forgets one that fell due while no
 * instance was running (the sweep also runs as each starts), and a mail the mail server refused is
 * retried with back-off.
 */

/** A wait is reminded of at most this many times; by then the report needs more than a mail. */
export const STALE_REMINDER_LIMIT = 5;
export const REMINDER_SWEEP_MS = 60_000;
const BATCH = 100;

export const ACTION_NOTIFY_STALE_MESSAGE = "NotifyStaleMessage";
/** The job of one reminder; its subject is the report, its dedupe key the wait and the reminder's number. */
export const STALE_MESSAGE_JOB = "remind.stale_message";
export const staleMessageSubject = (reportID: string) => `A message on report ${reportID} is waiting for a reply`;

export interface DueReminder {
  report: NoticeReport;
  /** 1 for the first reminder of this wait. */
  reminder: number;
  addresses: string[];
}

interface ClaimedRow {
  id: string;
  report_id: string | null;
  form_id: string;
  organisation_id: string;
  reminder: number;
  awaiting_since: string | Date;
  team: string[];
  assigned: boolean;
  managers: string[];
}

/** The organisation's stale-message interval as a Postgres interval (Hour or Day, spec §5). */
const interval = sql`(case when ${organisations.staleMessageIntervalUnit} = 'Hour' then interval '1 hour' else interval '1 day' end) * ${organisations.staleMessageIntervalNumber}`;

const terminal = sql.join(
  TERMINAL_SUBMISSION_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/**
 * Claims the reminders due at `now` and writes each one's audit entry, in one transaction. A
 * closed, archived or deleted report, a concluded chat or an archived organisation is not
 * reminded of; the wait stays, so a report opened again is reminded of again.
 */
export async function claimDueReminders(db: Database, now: Date, limit = BATCH): Promise<DueReminder[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (
        select ${reportConversations.id} as id from ${reportConversations}
          join ${reportSubmissions} on ${reportSubmissions.id} = ${reportConversations.submissionId}
          join ${organisations} on ${organisations.id} = ${reportConversations.organisationId}
        where ${reportConversations.awaitingReplySince} is not null and ${reportConversations.awaitingReplySince} <= ${at}
          and ${reportConversations.remindersSent} < ${STALE_REMINDER_LIMIT} and not ${reportConversations.concluded}
          and ${reportSubmissions.completed} and ${reportSubmissions.deletedAt} is null and not ${reportSubmissions.archived}
          and ${reportSubmissions.status} not in (${terminal}) and not ${organisations.archived}
          and ${reportConversations.awaitingReplySince} + ${interval} * (${reportConversations.remindersSent} + 1) <= ${at}
          and (${reportConversations.lastRemindedAt} is null or ${reportConversations.lastRemindedAt} + ${interval} <= ${at})
        order by ${reportConversations.awaitingReplySince}
        limit ${limit}
        for update of ${reportConversations} skip locked
      ), claimed as (
        update ${reportConversations} set reminders_sent = ${reportConversations.remindersSent} + 1, last_reminded_at = ${at}
        from due where ${reportConversations.id} = due.id
        returning ${reportConversations.submissionId} as submission_id, ${reportConversations.remindersSent} as reminder,
          ${reportConversations.awaitingReplySince} as awaiting_since
      )
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.formId} as form_id,
        ${reportSubmissions.organisationId} as organisation_id, claimed.reminder, claimed.awaiting_since, ${teamOfReport()} as team,
        ${assignedToAnyone()} as assigned, ${managersOfReport()} as managers
      from claimed join ${reportSubmissions} on ${reportSubmissions.id} = claimed.submission_id`);
    const rows = resultRows<ClaimedRow>(result);
    const reminders = rows.map((row) => ({
      report: { id: row.id, reportId: row.report_id, formId: row.form_id, organisationId: row.organisation_id },
      reminder: Number(row.reminder),
      // The team hears, its muted members excepted; only a report nobody is assigned to goes to the managers.
      addresses: distinctAddresses(row.assigned ? row.team : row.managers),
    }));
    // A reminder's number starts again with each wait, so the wait's start is in its key.
    const jobs = rows.flatMap((row, i) =>
      reminders[i]!.addresses.length === 0
        ? []
        : [{ kind: STALE_MESSAGE_JOB, subjectId: row.id, dedupeKey: `${STALE_MESSAGE_JOB}:${row.id}:${new Date(row.awaiting_since).getTime()}:${row.reminder}`, runAt: now }],
    );
    await enqueueJobs(tx, jobs);
    for (const due of reminders) {
      // Nobody to tell (every team member muted it): the reminder counts as given, unrecorded.
      if (due.addresses.length === 0) continue;
      await recordActivity(tx, SYSTEM_ACTOR, {
        organisationId: due.report.organisationId,
        objectType: "ReportSubmission",
        objectId: due.report.id,
        objectCode: due.report.reportId,
        action: ACTION_NOTIFY_STALE_MESSAGE,
        metadata: { reminder: due.reminder },
      });
    }
    return reminders;
  });
}

/**
 * A reminder's job: the report and its recipients as they are now. A wait a staff reply ended, or a
 * report deleted since, is not reminded of any more.
 */
async function runStaleReminder(services: Services, job: ClaimedJob): Promise<void> {
  const [row] = await services.database.db
    .select({
      ...reminderReportColumns,
      team: teamOfReport(),
      assigned: assignedToAnyone(),
      managers: managersOfReport(),
    })
    .from(reportSubmissions)
    .innerJoin(reportConversations, eq(reportConversations.submissionId, reportSubmissions.id))
    .where(and(eq(reportSubmissions.id, job.subjectId), isNull(reportSubmissions.deletedAt), isNotNull(reportConversations.awaitingReplySince)))
    .limit(1);
  if (!row) return;
  const url = reportConsoleUrl(services.config, row.formId, row.id);
  const addresses = distinctAddresses(row.assigned ? row.team : row.managers);
  await mailReminderOrRetry(services, ACTION_NOTIFY_STALE_MESSAGE, addresses, staleMessageSubject(row.reportId ?? ""), url);
}

export const staleReminderJobHandlers = (services: Services): Record<string, JobHandler> => ({ [STALE_MESSAGE_JOB]: (job) => runStaleReminder(services, job) });

/** Claims every reminder due at `now`, a batch at a time, enqueueing their mails; returns how many were claimed. */
export async function sendDueReminders(services: Services, now: Date): Promise<number> {
  let claimed = 0;
  for (;;) {
    const due = await claimDueReminders(services.database.db, now, BATCH);
    claimed += due.length;
    if (due.length < BATCH) return claimed;
  }
}

/** Mails the reminders whose jobs are due at `now`, as a server's worker would; for tests. */
export const runStaleReminderJobs = (services: Services, now: Date) => runReminderJobsAt(services.database.db, staleReminderJobHandlers(services), now);

export interface ReminderTiming {
  sweepEveryMs: number;
  /** The clock the sweep reads; tests move it on instead of waiting hours. */
  now: () => number;
}

export const REMINDER_TIMING: ReminderTiming = { sweepEveryMs: REMINDER_SWEEP_MS, now: () => Date.now() };

/** Sweeps at once and then every `sweepEveryMs`, and runs the reminders' jobs; the returned function stops both and waits for their work under way. */
export function startStaleReminders(services: Services, timing: ReminderTiming = REMINDER_TIMING): () => Promise<void> {
  return startSweepWithJobs("Stale-message reminders", staleReminderJobHandlers(services), (now) => sendDueReminders(services, now), services, timing);
}
