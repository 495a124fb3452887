import { asc, eq } from "drizzle-orm";
import { reportSubmissionAttachments, reportSubmissions } from "../../../db/schema/index.ts";
import type { Ctx } from "../../context.ts";
import type { WidgetType } from "../../shared/enums.ts";
import { answeredPages, derivePages, type FormPage } from "../../shared/form-definition.ts";
import { storedAnswers } from "../reporting/answers.ts";
import { attachmentUrl } from "../reporting/follow-up.ts";
import { buildWidgets } from "../reporting/forms.ts";
import { reportFor } from "./policy.ts";
import { loadReportViews, type ReportView } from "./views.ts";

export interface ReportAnswerView {
  widgetID: string;
  title: string;
  type: WidgetType;
  /** Every answer is a list of texts; dates are YYYY-MM-DD, as stored. */
  answer: string[];
}

export interface ReportAnswerPageView {
  name: string;
  answers: ReportAnswerView[];
}

export interface ReportAttachmentView {
  id: string;
  fileName: string;
  fileSizeBytes: number;
  mimeType: string;
  fileURL: string;
}

/** One report for its detail page: the same not-found answer for anything the actor may not see. */
export async function getReport(ctx: Ctx, id: string): Promise<ReportView> {
  const access = await reportFor(ctx, ctx.db, id, "ReportSubmissionRead");
  const [view] = await loadReportViews(ctx, access.actor, [access.submission.id]);
  return view!;
}

/**
 * The form pages of a report, loaded once per request even when several detail fields ask for
 * them (answers and pagesCount both need the build). Keyed by the request's context object, so
 * nothing outlives the request.
 */
const pagesByRequest = new WeakMap<Ctx, Map<string, Promise<FormPage[]>>>();

function reportPages(ctx: Ctx, submissionId: string): Promise<FormPage[]> {
  let cache = pagesByRequest.get(ctx);
  if (!cache) pagesByRequest.set(ctx, (cache = new Map()));
  let pages = cache.get(submissionId);
  if (!pages) {
    pages = (async () => {
      const [row] = await ctx.db.select({ buildId: reportSubmissions.buildId }).from(reportSubmissions).where(eq(reportSubmissions.id, submissionId)).limit(1);
      return row?.buildId ? derivePages(await buildWidgets(ctx.db, row.buildId)) : [];
    })();
    cache.set(submissionId, pages);
  }
  return pages;
}

/**
 * The answers grouped by page exactly as the reporter's follow-up area groups them: the first page
 * is 'Summary', later ones take their section's page name; questions without an answer and pages
 * without any are left out.
 */
export async function reportAnswers(ctx: Ctx, report: ReportView): Promise<ReportAnswerPageView[]> {
  const sealer = await ctx.services.keyRing.sealer(ctx.db, report.organisation.id);
  const [pages, answers] = await Promise.all([reportPages(ctx, report.id), storedAnswers(ctx.db, sealer, report.id)]);
  return answeredPages(pages, answers);
}

/** How many pages the reporter's form had (the build the report was made on). */
export async function reportPagesCount(ctx: Ctx, report: ReportView): Promise<number> {
  return (await reportPages(ctx, report.id)).length;
}

export async function reportAttachments(ctx: Ctx, report: ReportView): Promise<ReportAttachmentView[]> {
  const rows = await ctx.db
    .select()
    .from(reportSubmissionAttachments)
    .where(eq(reportSubmissionAttachments.submissionId, report.id))
    .orderBy(asc(reportSubmissionAttachments.createdAt), asc(reportSubmissionAttachments.id));
  return rows.map((a) => ({ id: a.id, fileName: a.fileName, fileSizeBytes: a.fileSizeBytes, mimeType: a.mimeType, fileURL: attachmentUrl(a.id) }));
}
