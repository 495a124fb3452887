import { expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { blobs, reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { ABANDONED_DRAFT_AGE_MS, sweepAbandonedDrafts } from "../../../api/modules/reporting/draft-cleaner.ts";
import { runHousekeeping } from "../../../api/modules/abuse/housekeeping.ts";
import { upload } from "../../fixtures/attachments.ts";
import { pagesOfAnswers, ReporterClient, submitReport, UPDATE, demoReportServer } from "../../helpers/reporter.ts";

const demo = demoReportServer();

/** A reporter who starts a report, answers the first page and attaches a file, then goes away. */
async function draftWithFile() {
  const reporter = new ReporterClient(demo.server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: demo.main.form.id });
  expect(started.status).toBe(200);
  const saved = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean } }>(UPDATE, { page: 0, answers: pagesOfAnswers(demo.main.widgets)[0] });
  expect(saved.data?.userReportSubmissionUpdate.success).toBe(true);
  const file = await upload(reporter, "notes.txt", "what I saw");
  expect(file.status).toBe(200);
  const [blob] = await demo.server.db.select({ id: blobs.id, storageKey: blobs.storageKey }).from(reportSubmissionAttachments).innerJoin(blobs, eq(blobs.id, reportSubmissionAttachments.blobId)).where(eq(reportSubmissionAttachments.id, file.body.id));
  return { submissionId: started.body.submissionID, blob: blob! };
}

test("abandoned drafts go with their answers, files and bytes; fresh drafts and completed reports stay", async () => {
  const abandoned = await draftWithFile();
  const fresh = await draftWithFile();
  const { reportID } = await submitReport(new ReporterClient(demo.server, "demo.localhost"), demo.main.form.id, demo.main.widgets);
  const later = new Date(Date.now() + ABANDONED_DRAFT_AGE_MS / 2);
  // The abandoned draft was last touched more than a day before `later`; the completed report long ago too.
  const longAgo = new Date(later.getTime() - ABANDONED_DRAFT_AGE_MS - 60_000);
  await demo.server.db.update(reportSubmissions).set({ updatedAt: longAgo }).where(eq(reportSubmissions.id, abandoned.submissionId));
  await demo.server.db.update(reportSubmissions).set({ updatedAt: new Date(longAgo.getTime() - 30 * ABANDONED_DRAFT_AGE_MS) }).where(eq(reportSubmissions.reportId, reportID));

  expect(await sweepAbandonedDrafts(demo.server.lantern.services, later)).toBe(1);

  const remaining = await demo.server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(inArray(reportSubmissions.id, [abandoned.submissionId, fresh.submissionId]));
  expect(remaining.map((row) => row.id)).toEqual([fresh.submissionId]);
  expect(await demo.server.db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, abandoned.submissionId))).toEqual([]);
  expect(await demo.server.db.select().from(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, abandoned.submissionId))).toEqual([]);
  expect(await demo.server.db.select().from(blobs).where(eq(blobs.id, abandoned.blob.id))).toEqual([]);
  expect(await demo.server.lantern.services.blobs.exists(abandoned.blob.storageKey)).toBe(false);
  // The fresh draft and the completed report are untouched, bytes included.
  expect(await demo.server.lantern.services.blobs.exists(fresh.blob.storageKey)).toBe(true);
  expect(await demo.server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID))).toHaveLength(1);
  const audit = await demo.server.db.select().from(userActivities).where(eq(userActivities.action, "DeleteAbandonedDrafts"));
  expect(audit.map((entry) => entry.metadata)).toEqual([{ count: 1 }]);

  // Two instances sweeping at once (one database) delete each draft once and never fail.
  await demo.server.db.update(reportSubmissions).set({ updatedAt: longAgo }).where(eq(reportSubmissions.id, fresh.submissionId));
  const counts = await Promise.all([runHousekeeping(demo.server.lantern.services, later), sweepAbandonedDrafts(demo.server.lantern.services, later)]);
  expect(counts[1]).toBeLessThanOrEqual(1);
  expect(await demo.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, fresh.submissionId))).toEqual([]);
  expect(await demo.server.lantern.services.blobs.exists(fresh.blob.storageKey)).toBe(false);
});
