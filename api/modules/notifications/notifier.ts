import type { Services } from "../../context.ts";
import { isUuid } from "../../lib/ids.ts";
import { logError, logInfo } from "../../lib/log.ts";
import { observeJob } from "../../lib/metrics.ts";
import { mailFailureReason, type OutgoingMail } from "../../lib/mailer.ts";
import { reportConsoleUrl } from "../reports/forward-email.ts";
import { claimNotification, type NotificationKind } from "./claim.ts";
import { NOTICE_TIMING, startNoticeQueue, type NoticeTiming } from "./notice-queue.ts";
import { distinctAddresses, noticeOf, reporterMessageReport, type NoticeReport } from "./recipients.ts";
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
 */

/** `newReportTopic(organisationId)` in reporting/complete.ts, published on completion and for enquiries. */
export const NEW_REPORT_PREFIX = "report.new.";
/** `messageTopic(submissionId)` in conversations/messages.ts, published for each new and seen message. */
export const MESSAGE_PREFIX = "conversation.message.";

export const NEW_REPORT_SUBJECT = "A new report was received";
export const newMessageSubject = (reportID: string) => `There is a new message on report ${reportID}`;

export function notificationMail(to: string, subject: string, url: string): OutgoingMail {
  return { to, subject, text: [`${subject}.`, "", "Sign in to the admin console to view it:", url, ""].join("\n") };
}

interface Delivery {
  kind: NotificationKind;
  eventId: string;
  report: NoticeReport;
  addresses: string[];
  subject: string;
}

/** Claims the event (exactly one instance wins, see claim.ts), then mails each address on its own, so no one sees the others. */
async function deliver(services: Services, notice: Delivery): Promise<void> {
  const addresses = distinctAddresses(notice.addresses);
  // Nobody to tell: no claim either, so the audit log is not filled with notices that were never sent.
  if (addresses.length === 0) return;
  const claimed = await claimNotification(services.database.db, {
    kind: notice.kind,
    eventId: notice.eventId,
    organisationId: notice.report.organisationId,
    submissionId: notice.report.id,
    reportId: notice.report.reportId,
  });
  if (!claimed) return;
  const url = reportConsoleUrl(services.config, notice.report.formId, notice.report.id);
  let failed = 0;
  for (const address of addresses) {
    try {
      await services.mailer.send(notificationMail(address, notice.subject, url));
    } catch (error) {
      failed += 1;
      logError("Could not send a notification email", undefined, { kind: notice.kind, reason: mailFailureReason(error) });
    }
  }
  logInfo("Sent notification emails", { kind: notice.kind, sent: addresses.length - failed, failed });
}

function deliverNewReport(services: Services, { report, subscribers }: NewReportNotice): Promise<void> {
  return deliver(services, { kind: "NotifyNewReport", eventId: `report.new:${report.id}`, report, addresses: subscribers, subject: NEW_REPORT_SUBJECT });
}

async function onMessage(services: Services, payload: Record<string, unknown>): Promise<void> {
  // "seen" receipts travel on the same topic; only new messages are news.
  if (payload.action !== "new" || !isUuid(payload.messageId)) return;
  const db = services.database.db;
  const submissionId = await reporterMessageReport(db, payload.messageId);
  const notice = submissionId ? await noticeOf(db, submissionId) : null;
  if (!notice) return;
  const subject = newMessageSubject(notice.report.reportId ?? "");
  await deliver(services, { kind: "NotifyNewMessage", eventId: `conversation.message:${payload.messageId}`, report: notice.report, addresses: notice.team, subject });
}

/**
 * Starts listening; the returned function stops listening and waits for the mail already under
 * way. A failure is logged (without addresses or content) and never reaches the code that
 * published the event: notifications are a courtesy, the report and the message are already saved.
 */
export function startNotifier(services: Services, timing: NoticeTiming = NOTICE_TIMING): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  const run = (kind: NotificationKind, work: () => Promise<void>) => {
    const task = observeJob("notifier", work()).catch((error: unknown) => logError("A notification failed", undefined, { kind, reason: mailFailureReason(error) }));
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  const db = services.database.db;
  const deliverAll = async (notices: NewReportNotice[]) => {
    for (const notice of notices) run("NotifyNewReport", () => deliverNewReport(services, notice));
  };
  const newReports = startNoticeQueue({
    timing,
    claim: (ids) => claimReportNotices(db, ids),
    claimForgotten: (before, limit) => claimForgottenNotices(db, before, limit),
    deliver: deliverAll,
    track: (task) => run("NotifyNewReport", () => task),
  });
  const unsubscribe = [
    services.pubsub.subscribePrefix(NEW_REPORT_PREFIX, (_topic, payload) => {
      if (isUuid(payload.submissionId)) newReports.add(payload.submissionId);
    }),
    services.pubsub.subscribePrefix(MESSAGE_PREFIX, (_topic, payload) => run("NotifyNewMessage", () => onMessage(services, payload))),
  ];
  return async () => {
    for (const stop of unsubscribe) stop();
    await newReports.stop();
    await Promise.allSettled([...pending]);
  };
}
