import { and, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR, type Services } from "../../context.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import type { JobHandler } from "../../lib/job-worker.ts";
import { enqueueJobs, type ClaimedJob } from "../../lib/jobs.ts";
import { recordActivity } from "../audit/service.ts";
import { mailReminderOrRetry, reminderReportColumns, runReminderJobsAt, startSweepWithJobs } from "../notifications/reminder-jobs.ts";
import { assignedToAnyone, distinctAddresses, managersOfReport, teamOfReport, type NoticeReport } from "../notifications/recipients.ts";
import { REMINDER_TIMING, type ReminderTiming } from "../notifications/stale-reminders.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import {
  acknowledgeBySql,
  acknowledgeDueSoon,
  acknowledgeDueWindow,
  atTime,
  awaitingAcknowledgement,
  awaitingFeedback,
  feedbackBySql,
  feedbackDueSoon,
  feedbackDueWindow,
} from "./sql.ts";

/**
 * One reminder before each legal deadline (decision 050), swept like the stale-message reminders
 * (decision 041): every instance sweeps every minute and as it starts; one statement claims the
 * due reports `for update skip locked` and stamps their reminder time, and only the claimer enqueues
 * its mail job, in the same transaction (decision 058). A report's stamp is in the database, so no
 * instance, and no restart, sends it twice; a mail the mail server refused is retried with back-off.
 */

export type LegalClock = "Acknowledge" | "Feedback";
export const ACTION_NOTIFY_LEGAL_DEADLINE = "NotifyLegalDeadline";
const BATCH = 100;

/** One job kind per clock (a job carries only the report's id); the report's id and the clock are its dedupe key. */
export const LEGAL_REMINDER_JOBS: Record<LegalClock, string> = { Acknowledge: "remind.legal_deadline.acknowledge", Feedback: "remind.legal_deadline.feedback" };

const whenUtc = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
export const legalReminderSubject = (clock: LegalClock, reportID: string, deadline: Date) =>
  clock === "Acknowledge" ? `Report ${reportID} must be acknowledged by ${whenUtc(deadline)}` : `Feedback on report ${reportID} is due by ${whenUtc(deadline)}`;

export interface DueLegalReminder {
  clock: LegalClock;
  report: NoticeReport;
  deadline: Date;
  addresses: string[];
}

interface ClaimedRow {
  id: string;
  report_id: string | null;
  form_id: string;
  organisation_id: string;
  deadline: string | Date;
  team: string[];
  assigned: boolean;
  managers: string[];
}

interface ClockSweep {
  waiting: () => SQL;
  dueSoon: (now: Date) => SQL;
  /** A range on an indexed column that holds every report dueSoon does (sql.ts). */
  window: (now: Date) => SQL;
  deadline: SQL;
  sentColumn: typeof reportSubmissions.acknowledgeReminderSentAt;
  sentColumnName: string;
}

const SWEEPS: Record<LegalClock, ClockSweep> = {
  Acknowledge: {
    waiting: awaitingAcknowledgement,
    dueSoon: acknowledgeDueSoon,
    window: acknowledgeDueWindow,
    deadline: acknowledgeBySql,
    sentColumn: reportSubmissions.acknowledgeReminderSentAt,
    sentColumnName: "acknowledge_reminder_sent_at",
  },
  Feedback: {
    waiting: awaitingFeedback,
    dueSoon: feedbackDueSoon,
    window: feedbackDueWindow,
    deadline: feedbackBySql,
    sentColumn: reportSubmissions.feedbackReminderSentAt,
    sentColumnName: "feedback_reminder_sent_at",
  },
};

const terminal = sql.join(
  TERMINAL_SUBMISSION_STATUSES.map((status) => sql`${status}`),
  sql`, `,
);

/**
 * Claims the `clock` reminders due at `now` and writes each one's audit entry, in one transaction.
 * A closed report, or one of an archived organisation, is not reminded of; a report whose deadline
 * passed unseen (no instance ran through its window) is not either: the reminder is for before it.
 */
export async function claimDueLegalReminders(db: Database, clock: LegalClock, now: Date, limit = BATCH): Promise<DueLegalReminder[]> {
  const sweep = SWEEPS[clock];
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (
        select ${reportSubmissions.id} as id from ${reportSubmissions}
          join ${organisations} on ${organisations.id} = ${reportSubmissions.organisationId}
        where ${sweep.waiting()} and ${sweep.sentColumn} is null and ${sweep.window(now)} and ${sweep.dueSoon(now)}
          and ${reportSubmissions.status} not in (${terminal}) and not ${organisations.archived}
        order by ${reportSubmissions.completedAt}
        limit ${limit}
        for update of ${reportSubmissions} skip locked
      ), claimed as (
        update ${reportSubmissions} set ${sql.identifier(sweep.sentColumnName)} = ${atTime(now)}
        from due where ${reportSubmissions.id} = due.id
        returning ${reportSubmissions.id} as id
      )
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.formId} as form_id,
        ${reportSubmissions.organisationId} as organisation_id, ${sweep.deadline} as deadline, ${teamOfReport()} as team,
        ${assignedToAnyone()} as assigned, ${managersOfReport()} as managers
      from claimed join ${reportSubmissions} on ${reportSubmissions.id} = claimed.id`);
    const reminders = resultRows<ClaimedRow>(result).map((row) => ({
      clock,
      report: { id: row.id, reportId: row.report_id, formId: row.form_id, organisationId: row.organisation_id },
      deadline: new Date(row.deadline),
      // The team, its muted and suspended members excepted; a report nobody is assigned to, its managers.
      addresses: distinctAddresses(row.assigned ? row.team : row.managers),
    }));
    const kind = LEGAL_REMINDER_JOBS[clock];
    await enqueueJobs(
      tx,
      reminders.filter((due) => due.addresses.length > 0).map((due) => ({ kind, subjectId: due.report.id, dedupeKey: `${kind}:${due.report.id}`, runAt: now })),
    );
    for (const due of reminders) {
      // Nobody to tell (every team member muted it): the reminder counts as given, unrecorded.
      if (due.addresses.length === 0) continue;
      await recordActivity(tx, SYSTEM_ACTOR, {
        organisationId: due.report.organisationId,
        objectType: "ReportSubmission",
        objectId: due.report.id,
        objectCode: due.report.reportId,
        action: ACTION_NOTIFY_LEGAL_DEADLINE,
        metadata: { clock },
      });
    }
    return reminders;
  });
}

/**
 * A reminder's job: the report, its deadline and its recipients as they are now. A report whose
 * clock stopped since (acknowledged, given feedback, deleted) is not reminded of any more.
 */
async function runLegalReminder(services: Services, clock: LegalClock, job: ClaimedJob): Promise<void> {
  const sweep = SWEEPS[clock];
  const [row] = await services.database.db
    .select({
      ...reminderReportColumns,
      deadline: sql<string | Date>`${sweep.deadline}`,
      team: teamOfReport(),
      assigned: assignedToAnyone(),
      managers: managersOfReport(),
    })
    .from(reportSubmissions)
    .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
    .where(and(eq(reportSubmissions.id, job.subjectId), sweep.waiting(), isNotNull(sweep.sentColumn)))
    .limit(1);
  if (!row) return;
  const url = reportConsoleUrl(services.config, row.formId, row.id);
  const subject = legalReminderSubject(clock, row.reportId ?? "", new Date(row.deadline));
  await mailReminderOrRetry(services, ACTION_NOTIFY_LEGAL_DEADLINE, distinctAddresses(row.assigned ? row.team : row.managers), subject, url);
}

export const legalReminderJobHandlers = (services: Services): Record<string, JobHandler> => ({
  [LEGAL_REMINDER_JOBS.Acknowledge]: (job) => runLegalReminder(services, "Acknowledge", job),
  [LEGAL_REMINDER_JOBS.Feedback]: (job) => runLegalReminder(services, "Feedback", job),
});

/** Mails the reminders whose jobs are due at `now`, as a server's worker would; for tests. */
export const runLegalReminderJobs = (services: Services, now: Date) => runReminderJobsAt(services.database.db, legalReminderJobHandlers(services), now);

/** Claims every legal-deadline reminder due at `now`, a batch at a time, enqueueing their mails; returns how many were claimed. */
export async function sendDueLegalReminders(services: Services, now: Date): Promise<number> {
  let claimed = 0;
  for (const clock of ["Acknowledge", "Feedback"] as const) {
    for (;;) {
      const due = await claimDueLegalReminders(services.database.db, clock, now, BATCH);
      claimed += due.length;
      if (due.length < BATCH) break;
    }
  }
  return claimed;
}

/** Sweeps at once and then every `sweepEveryMs`, and runs the reminders' jobs; the returned function stops both and waits for their work under way. */
export function startLegalClockReminders(services: Services, timing: ReminderTiming = REMINDER_TIMING): () => Promise<void> {
  return startSweepWithJobs("Legal deadline reminders", legalReminderJobHandlers(services), (now) => sendDueLegalReminders(services, now), services, timing);
}
