import type { Database } from "../../../db/client.ts";
import type { Services } from "../../context.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError } from "../../lib/log.ts";
import { JOB_TIMING, startJobWorker, type JobHandler, type JobWorkerTiming } from "../../lib/job-worker.ts";
import { enqueueJobs, type ClaimedJob } from "../../lib/jobs.ts";
import { mailFailureReason } from "../../lib/mailer.ts";
import { observeJob } from "../../lib/metrics.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { claimNotification, type NotificationKind } from "./claim.ts";
import { NOTICE_TIMING, startNoticeQueue, type NoticeTiming } from "./notice-queue.ts";
import { distinctAddresses, noticeOf, reporterMessageReport, type NoticeReport } from "./recipients.ts";
import { mailEveryAddress } from "./mail.ts";
import { NEW_MESSAGE_JOB, newMessageJob } from "./message-job.ts";
import { NEW_REPORT_JOB, newReportJob } from "./new-report-job.ts";
import { claimForgottenNotices, claimReportNotices, type NewReportNotice } from "./report-notices.ts";

/**
 * Email notifications for staff: a new report (to the organisation's subscriber) and a new message
 * from the reporter (to the team members who have not muted the report). A new report has no team
 * yet: whoever is assigned to it later hears of its messages, not of its arrival, however soon after
 * the report they were assigned.
 *
 * A mail says that something happened and links to the console, where the reader must sign in
 * and be allowed to see the report. It never carries answers, messages, names or anything else
 * from the report: mail is stored in the clear, forwarded and read on shared screens.
 *
 * Each event becomes a background job (decision 058) that carries only the report's or message's
 * id, so a mail survives a restart and a mail server's outage, and goes out once across instances.
 */

/** `newReportTopic(organisationId)` in reporting/complete.ts, published on completion and for enquiries. */
export const NEW_REPORT_PREFIX = "report.new.";
/** `messageTopic(submissionId)` in conversations/messages.ts, published for each new and seen message. */
export const MESSAGE_PREFIX = "conversation.message.";

export const NEW_REPORT_SUBJECT = "A new report was received";
export const newMessageSubject = (reportID: string) => `There is a new message on report ${reportID}`;

export { NEW_REPORT_JOB } from "./new-report-job.ts";
export { NEW_MESSAGE_JOB } from "./message-job.ts";

interface Delivery {
  kind: NotificationKind;
  eventId: string;
  report: NoticeReport;
  addresses: string[];
  subject: string;
}

/** A run in which no mail could be handed over: the job is tried again later (decision 058). */
class NothingSent extends Error {
  constructor(readonly code: string) {
    super("No notification email could be handed to the mailer");
  }
}

/**
 * Mails each address on its own, then records the event as notified (claim.ts: one audit entry per
 * event, however often the job ran). When every address failed (the mail server is down) the job
 * fails and is retried with back-off; when only some did, it is not, since a retry would mail the
 * others again: a rejected address would fail every time anyway.
 */
async function deliver(services: Services, notice: Delivery): Promise<void> {
  const addresses = distinctAddresses(notice.addresses);
  // Nobody to tell: no audit entry either, so the log is not filled with notices never sent.
  if (addresses.length === 0) return;
  const url = reportConsoleUrl(services.config, notice.report.formId, notice.report.id);
  const outcome = await mailEveryAddress(services, notice.kind, addresses, notice.subject, url);
  if (outcome.sent === 0) throw new NothingSent(outcome.reason ?? "unknown");
  await claimNotification(services.database.db, {
    kind: notice.kind,
    eventId: notice.eventId,
    organisationId: notice.report.organisationId,
    submissionId: notice.report.id,
    reportId: notice.report.reportId,
  });
}

/** A new report's job: its subscriber, read now (a new report has no team yet). */
async function runNewReport(services: Services, job: ClaimedJob): Promise<void> {
  const notice = await noticeOf(services.database.db, job.subjectId);
  // Deleted or never completed since: nothing to announce.
  if (!notice) return;
  await deliver(services, { kind: "NotifyNewReport", eventId: `report.new:${notice.report.id}`, report: notice.report, addresses: notice.subscribers, subject: NEW_REPORT_SUBJECT });
}

/** A reporter's new message's job: the report's team as it is now, its muted members excepted. */
async function runNewMessage(services: Services, job: ClaimedJob): Promise<void> {
  const db = services.database.db;
  const submissionId = await reporterMessageReport(db, job.subjectId);
  const notice = submissionId ? await noticeOf(db, submissionId) : null;
  if (!notice) return;
  const subject = newMessageSubject(notice.report.reportId ?? "");
  await deliver(services, { kind: "NotifyNewMessage", eventId: `conversation.message:${job.subjectId}`, report: notice.report, addresses: notice.team, subject });
}

/**
 * Every instance hears each message event; each enqueues the same job under the message's key, and
 * the first insert (normally the message's own transaction) wins. Only a reporter's message is news: staff messages and "seen" receipts
 * travel on the same topic.
 */
async function enqueueNewMessage(services: Services, payload: Record<string, unknown>): Promise<boolean> {
  if (payload.action !== "new" || !isUuid(payload.messageId)) return false;
  if (!(await reporterMessageReport(services.database.db, payload.messageId))) return false;
  // Normally there already: the message's transaction added it. This covers a message written by an older instance.
  await enqueueJobs(services.database.db, [newMessageJob(payload.messageId)]);
  return true;
}

/** What runs each notification job; the worker started by startNotifier, or a test's. */
export function notificationJobHandlers(services: Services): Record<string, JobHandler> {
  return { [NEW_REPORT_JOB]: (job) => runNewReport(services, job), [NEW_MESSAGE_JOB]: (job) => runNewMessage(services, job) };
}

/**
 * Starts listening and running notification jobs; the returned function stops listening and waits
 * for the mail already under way. A failure is logged (without addresses or content) and never
 * reaches the code that published the event: the report and the message are already saved.
 */
export function startNotifier(services: Services, timing: NoticeTiming = NOTICE_TIMING, jobTiming: JobWorkerTiming = JOB_TIMING): () => Promise<void> {
  const db = services.database.db;
  const worker = startJobWorker(db, notificationJobHandlers(services), jobTiming);
  const pending = new Set<Promise<void>>();
  const track = (task: Promise<void>) => {
    // The claims and enqueues count as the "notifier" job; the mails as their jobs' kinds.
    const logged = observeJob("notifier", task).catch((error: unknown) => logError("Could not queue a notification", undefined, { reason: mailFailureReason(error) }));
    pending.add(logged);
    void logged.finally(() => pending.delete(logged));
  };
  // Notices are left only by instances of earlier releases (during a rolling upgrade): one leaves
  // report_notices only in the transaction that makes its job.
  const queued = (claim: (tx: Database) => Promise<NewReportNotice[]>) =>
    db.transaction(async (tx) => {
      const notices = await claim(tx);
      await enqueueJobs(tx, notices.map((notice) => newReportJob(notice.report.id)));
      return notices;
    });
  const newReports = startNoticeQueue({
    timing,
    claim: (ids) => queued((tx) => claimReportNotices(tx, ids)),
    claimForgotten: (before, limit) => queued((tx) => claimForgottenNotices(tx, before, limit)),
    deliver: async (notices) => {
      if (notices.length > 0) worker.kick();
    },
    track,
  });
  const unsubscribe = [
    services.pubsub.subscribePrefix(NEW_REPORT_PREFIX, (_topic, payload) => {
      // This release queues a report's mail job with the report: there is nothing to claim, only a
      // job to run now if one was queued. An event without `mailQueued` is an earlier release's,
      // whose report left a notice in report_notices (decision 028).
      if (typeof payload.mailQueued === "boolean") {
        if (payload.mailQueued) worker.kick();
      } else if (isUuid(payload.submissionId)) newReports.add(payload.submissionId);
    }),
    services.pubsub.subscribePrefix(MESSAGE_PREFIX, (_topic, payload) =>
      track(
        enqueueNewMessage(services, payload).then((queued) => {
          if (queued) worker.kick();
        }),
      ),
    ),
  ];
  return async () => {
    for (const stop of unsubscribe) stop();
    await newReports.stop();
    await Promise.allSettled([...pending]);
    await worker.stop();
  };
}
