import { sql, type SQL } from "drizzle-orm";
import { startPeriodicSweep } from "../../lib/periodic-sweep.ts";
import type { Database } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportSubmissions } from "../../../db/schema/index.ts";
import { SYSTEM_ACTOR, type Services } from "../../context.ts";
import { TERMINAL_SUBMISSION_STATUSES } from "../../shared/enums.ts";
import { recordActivity } from "../audit/service.ts";
import { mailEveryAddress } from "../notifications/mail.ts";
import { assignedToAnyone, distinctAddresses, managersOfReport, teamOfReport, type NoticeReport } from "../notifications/recipients.ts";
import { REMINDER_TIMING, type ReminderTiming } from "../notifications/stale-reminders.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { acknowledgeBySql, acknowledgeDueSoon, atTime, awaitingAcknowledgement, awaitingFeedback, feedbackBySql, feedbackDueSoon } from "./sql.ts";

/**
 * One reminder before each legal deadline (decision 050), swept like the stale-message reminders
 * (decision 041): every instance sweeps every minute and as it starts; one statement claims the
 * due reports `for update skip locked` and stamps their reminder time, and only the claimer mails.
 * A report's stamp is in the database, so no instance, and no restart, sends it twice.
 */

export type LegalClock = "Acknowledge" | "Feedback";
export const ACTION_NOTIFY_LEGAL_DEADLINE = "NotifyLegalDeadline";
const BATCH = 100;

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
  deadline: SQL;
  sentColumn: typeof reportSubmissions.acknowledgeReminderSentAt;
  sentColumnName: string;
}

const SWEEPS: Record<LegalClock, ClockSweep> = {
  Acknowledge: {
    waiting: awaitingAcknowledgement,
    dueSoon: acknowledgeDueSoon,
    deadline: acknowledgeBySql,
    sentColumn: reportSubmissions.acknowledgeReminderSentAt,
    sentColumnName: "acknowledge_reminder_sent_at",
  },
  Feedback: {
    waiting: awaitingFeedback,
    dueSoon: feedbackDueSoon,
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
        where ${sweep.waiting()} and ${sweep.sentColumn} is null and ${sweep.dueSoon(now)}
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

/** Each address on its own, the subject and a link to the report in the console only. */
async function mailReminder(services: Services, due: DueLegalReminder): Promise<void> {
  const url = reportConsoleUrl(services.config, due.report.formId, due.report.id);
  const subject = legalReminderSubject(due.clock, due.report.reportId ?? "", due.deadline);
  await mailEveryAddress(services, ACTION_NOTIFY_LEGAL_DEADLINE, due.addresses, subject, url);
}

/** Claims and mails every legal-deadline reminder due at `now`, a batch at a time; returns how many were claimed. */
export async function sendDueLegalReminders(services: Services, now: Date): Promise<number> {
  let claimed = 0;
  for (const clock of ["Acknowledge", "Feedback"] as const) {
    for (;;) {
      const due = await claimDueLegalReminders(services.database.db, clock, now, BATCH);
      for (const reminder of due) if (reminder.addresses.length > 0) await mailReminder(services, reminder);
      claimed += due.length;
      if (due.length < BATCH) break;
    }
  }
  return claimed;
}

/** Sweeps at once and then every `sweepEveryMs`; the returned function stops and waits for the sweep under way. */
export function startLegalClockReminders(services: Services, timing: ReminderTiming = REMINDER_TIMING): () => Promise<void> {
  return startPeriodicSweep("Legal deadline reminders", timing.sweepEveryMs, () => sendDueLegalReminders(services, new Date(timing.now())));
}
