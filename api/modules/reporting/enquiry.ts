import { and, asc, eq } from "drizzle-orm";
import * as v from "valibot";
import type { Database } from "../../../db/client.ts";
import { organisations, reportConversationMessages, reportConversations, reportFormBuilds, reportForms, reportFormWidgets, reportSubmissionAnswers, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import { UserError } from "../../lib/errors.ts";
import { isUuid } from "../../lib/ids.ts";
import { generateReportId, generateReportPassword, hashGeneratedCredential } from "../../lib/report-credentials.ts";
import { parseWith } from "../../lib/validation.ts";
import { recordActivity } from "../audit/service.ts";
import { sealAnswer } from "./answers.ts";
import { announceNewReport } from "./complete.ts";
import { enqueueJobs } from "../../lib/jobs.ts";
import { newReportJob } from "../notifications/new-report-job.ts";
import { ORGANISATION_UNAVAILABLE } from "../../shared/messages.ts";
import { admit, loadDifficulty } from "../abuse/guard.ts";
import { subjectKey } from "../abuse/secret.ts";
import { ENQUIRIES_CAP_PER_HOUR, ENQUIRIES_FREE_PER_HOUR, ENQUIRIES_FULL, recentEnquiries } from "./draft-limits.ts";

const MESSAGE_WIDGET_ID = "w_enquiry_message";
const EnquiryInput = v.object({ message: v.pipe(v.string("Required"), v.trim(), v.nonEmpty("Required"), v.maxLength(10_000, "Messages can be at most 10000 characters")) });

/** The organisation's Enquiry form, created (with a one-question build) the first time it is needed. */
async function enquiryForm(tx: Database, organisationId: string): Promise<{ formId: string; buildId: string; messageWidgetId: string }> {
  const [existing] = await tx
    .select({ id: reportForms.id, buildId: reportForms.deployedBuildId })
    .from(reportForms)
    .where(and(eq(reportForms.organisationId, organisationId), eq(reportForms.type, "Enquiry"), eq(reportForms.archived, false)))
    .limit(1);
  if (existing?.buildId) {
    // The message is the answer to the build's long-text question, whatever that question's id, so staff see it with the report.
    const [question] = await tx
      .select({ id: reportFormWidgets.id })
      .from(reportFormWidgets)
      .where(and(eq(reportFormWidgets.buildId, existing.buildId), eq(reportFormWidgets.type, "LongText")))
      .orderBy(asc(reportFormWidgets.position))
      .limit(1);
    return { formId: existing.id, buildId: existing.buildId, messageWidgetId: question?.id ?? MESSAGE_WIDGET_ID };
  }
  const formId = existing?.id ?? (await tx.insert(reportForms).values({ organisationId, name: "General Enquiry", type: "Enquiry", status: "Active", hasChat: true }).returning({ id: reportForms.id }))[0]!.id;
  const [build] = await tx.insert(reportFormBuilds).values({ formId, revision: 1 }).returning({ id: reportFormBuilds.id });
  await tx.insert(reportFormWidgets).values([
    { buildId: build!.id, id: "w_enquiry_section", position: 0, type: "Section", title: "Enquiry", pageName: "Enquiry" },
    { buildId: build!.id, id: MESSAGE_WIDGET_ID, position: 1, type: "LongText", title: "Message", required: true },
  ]);
  await tx.update(reportForms).set({ currentBuildId: build!.id, deployedBuildId: build!.id }).where(eq(reportForms.id, formId));
  return { formId, buildId: build!.id, messageWidgetId: MESSAGE_WIDGET_ID };
}

/**
 * A visitor's question: it becomes an Enquiry report (status New) whose chat starts with the
 * message, and the visitor gets a report ID and a pin to follow up like any reporter.
 */
export async function sendEnquiry(ctx: Ctx, organisationID: string, input: unknown, solution: string | null = null): Promise<{ reportID: string; pin: string }> {
  const organisation = ctx.host.organisation;
  if (!organisation || !isUuid(organisationID) || organisation.id !== organisationID) throw new UserError("NOT_FOUND", ORGANISATION_UNAVAILABLE);
  const [settings] = await ctx.db.select({ enabled: organisations.generalEnquiryEnabled }).from(organisations).where(eq(organisations.id, organisation.id));
  if (!settings?.enabled) throw new UserError("FORBIDDEN", "This organisation does not take enquiries.");
  // Judged once the organisation is this host's own (decision 065).
  const { message } = parseWith(EnquiryInput, input);

  // Enquiries need no login: past a few an hour per organisation they cost proof of work, and at
  // the cap they are refused (counted in the database, so across instances).
  const now = new Date();
  const recent = await recentEnquiries(ctx.db, organisation.id, now);
  if (recent >= ENQUIRIES_CAP_PER_HOUR) throw new UserError("TOO_MANY_REQUESTS", ENQUIRIES_FULL);
  await admit(ctx.db, { action: "enquiry", subjectKey: await subjectKey(ctx.db, "organisation", organisation.id), solution, minimumDifficulty: loadDifficulty(recent, ENQUIRIES_FREE_PER_HOUR), now });
  // The pin is 100 random bits like a generated password: a fast hash is enough (docs/decisions/005).
  const pin = generateReportPassword();
  const passwordHash = hashGeneratedCredential(pin);
  const created = await ctx.db.transaction(async (tx) => {
    const { formId, buildId, messageWidgetId } = await enquiryForm(tx, organisation.id);
    const reportId = generateReportId();
    const [submission] = await tx
      .insert(reportSubmissions)
      .values({ organisationId: organisation.id, formId, buildId, reportId, status: "New", completed: true, completedAt: now, passwordHash, createdAt: now, updatedAt: now })
      .returning({ id: reportSubmissions.id });
    const sealer = await ctx.services.keyRing.sealer(tx, organisation.id);
    await tx.insert(reportSubmissionAnswers).values({ submissionId: submission!.id, widgetId: messageWidgetId, page: 0, answer: sealAnswer(sealer, [message]) });
    const [conversation] = await tx.insert(reportConversations).values({ submissionId: submission!.id, organisationId: organisation.id, lastMessageAt: now, awaitingReplySince: now }).returning({ id: reportConversations.id });
    await tx.insert(reportConversationMessages).values({ conversationId: conversation!.id, organisationId: organisation.id, type: "Text", message: sealer.sealText("message", message), from: "Guest", createdAt: now });
    // Its mail is queued with it, like a completed report's; the job finds no subscriber if there is none.
    await enqueueJobs(tx, [newReportJob(submission!.id)]);
    await recordActivity(tx, { kind: "anonymous" }, { organisationId: organisation.id, objectType: "ReportSubmission", objectId: submission!.id, objectCode: reportId, action: "SendEnquiry" });
    return { reportId, submissionId: submission!.id };
  });
  await announceNewReport(ctx.services, organisation.id, created.submissionId, true);
  return { reportID: created.reportId, pin };
}
