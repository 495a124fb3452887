import { sql } from "drizzle-orm";
import { startPeriodicSweep } from "../../lib/periodic-sweep.ts";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportConversations, reportSubmissions } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR, type Services } from "../../context.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import { recordActivity } from "../audit/service.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { mailEveryAddress } from "./mail.ts";
import { assignedToAnyone, distinctAddresses, managersOfReport, teamOfReport, type NoticeReport } from "./recipients.ts";

/**
 * Reminders of a reporter's message that staff have not answered (docs/decisions/041). A message
 * from the reporter starts the wait (report_conversations.awaiting_reply_since) and a staff reply
 * ends it, both in the write the message makes anyway (conversations/write.ts). A sweep on every
 * instance then claims the conversations whose next reminder is due.
 *
 * The claim is one statement that moves the conversation's count and time on under a row lock,
 * skipping rows another instance holds: whoever moves it sends the mail, and the others no longer
 * find the row due. Everything lives in the database, so a restart neither repeats a reminder nor
 * forgets one that fell due while no instance was running (the sweep also runs as each starts).
 */

/** A wait is reminded of at most this many times; by then the report needs more than a mail. */
export const STALE_REMINDER_LIMIT = 5;
export const REMINDER_SWEEP_MS = 60_000;
const BATCH = 100;

export const ACTION_NOTIFY_STALE_MESSAGE = "NotifyStaleMessage";
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
        returning ${reportConversations.submissionId} as submission_id, ${reportConversations.remindersSent} as reminder
      )
      select ${reportSubmissions.id} as id, ${reportSubmissions.reportId} as report_id, ${reportSubmissions.formId} as form_id,
        ${reportSubmissions.organisationId} as organisation_id, claimed.reminder, ${teamOfReport()} as team,
        ${assignedToAnyone()} as assigned, ${managersOfReport()} as managers
      from claimed join ${reportSubmissions} on ${reportSubmissions.id} = claimed.submission_id`);
    const reminders = resultRows<ClaimedRow>(result).map((row) => ({
      report: { id: row.id, reportId: row.report_id, formId: row.form_id, organisationId: row.organisation_id },
      reminder: Number(row.reminder),
      // The team hears, its muted members excepted; only a report nobody is assigned to goes to the managers.
      addresses: distinctAddresses(row.assigned ? row.team : row.managers),
    }));
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

/** Mails each address on its own, links only, as every notification (notifier.ts). */
async function mailReminder(services: Services, due: DueReminder): Promise<void> {
  const url = reportConsoleUrl(services.config, due.report.formId, due.report.id);
  const subject = staleMessageSubject(due.report.reportId ?? "");
  await mailEveryAddress(services, ACTION_NOTIFY_STALE_MESSAGE, due.addresses, subject, url);
}

/** Claims and mails every reminder due at `now`, a batch at a time. */
export async function sendDueReminders(services: Services, now: Date): Promise<number> {
  let sent = 0;
  for (;;) {
    const due = await claimDueReminders(services.database.db, now, BATCH);
    for (const reminder of due) if (reminder.addresses.length > 0) await mailReminder(services, reminder);
    sent += due.length;
    if (due.length < BATCH) return sent;
  }
}

export interface ReminderTiming {
  sweepEveryMs: number;
  /** The clock the sweep reads; tests move it on instead of waiting hours. */
  now: () => number;
}

export const REMINDER_TIMING: ReminderTiming = { sweepEveryMs: REMINDER_SWEEP_MS, now: () => Date.now() };

/** Sweeps at once and then every `sweepEveryMs`; the returned function stops and waits for the sweep under way. */
export function startStaleReminders(services: Services, timing: ReminderTiming = REMINDER_TIMING): () => Promise<void> {
  return startPeriodicSweep("Stale-message reminders", timing.sweepEveryMs, () => sendDueReminders(services, new Date(timing.now())));
}
