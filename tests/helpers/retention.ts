import { eq } from "drizzle-orm";
import { reportSubmissions } from "../../db/schema/index.ts";
import { addCalendarMonths } from "../../api/modules/legal-clocks/clocks.ts";
import { upload } from "../fixtures/attachments.ts";
import { COMPLETE, pagesOfAnswers, ReporterClient, UPDATE, type demoForm } from "./reporter.ts";
import type { TestServer } from "./server.ts";
import type { StaffClient } from "./session.ts";

/** Retention's tests (decision 052): real reports, closed through the API, swept at chosen times. */

export const DAY = 24 * 60 * 60 * 1000;
export const CLOSE = `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed, note: "Closed after the inquiry") { id } }`;
export const OPEN = `mutation ($id: ID!) { reportSubmissionOpen(id: $id) { id } }`;
export const HOLD = `mutation ($id: ID!, $hold: Boolean!) { reportSubmissionLegalHold(id: $id, hold: $hold) { id legalHold closedAt deletionDueAt } }`;
export const SET_RETENTION = `mutation ($id: ID!, $months: Int) { organisationUpdate(id: $id, input: { retentionMonths: $months }) { retentionMonths } }`;

export type Report = typeof reportSubmissions.$inferSelect;

/** A report with the reporter's secret in its answers and one attached file, its team the staff member given. */
export async function reportWithFile(server: TestServer, form: Awaited<ReturnType<typeof demoForm>>, secret: string): Promise<Report> {
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_start", { reportFormID: form.form.id });
  const uploaded = await upload(reporter, "evidence.txt", `${secret} (attached)`);
  if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status}`);
  for (const [page, answers] of pagesOfAnswers(form.widgets, { w_summary: [secret] }).entries()) await reporter.gql(UPDATE, { page, answers });
  const done = await reporter.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE);
  const reportID = done.data!.userReportSubmissionComplete.reportID;
  return (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID)))[0]!;
}

/** The owner takes the report on and closes it, as the console does; returns the stored row. */
export async function closeAsOwner(server: TestServer, owner: StaffClient, report: Report): Promise<Report> {
  await owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: report.id });
  const closed = await owner.gql(CLOSE, { id: report.id });
  if (closed.errors) throw new Error(`close: ${JSON.stringify(closed.errors)}`);
  return stored(server, report.id);
}

export const stored = async (server: TestServer, id: string) => (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id)))[0]!;

/** The deletion date: closing + the organisation's months, in calendar months (UTC). */
export const deletionDate = (report: Report, months: number) => addCalendarMonths(report.closedAt!, months);
export const shift = (at: Date, days: number) => new Date(at.getTime() + days * DAY);
