import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { readDraft, writePage } from "../../../api/modules/reporting/draft-statements.ts";
import { ALREADY_SUBMITTED } from "../../../api/modules/reporting/draft.ts";
import { openedAnswers } from "../../helpers/opened-answers.ts";
import { COMPLETE, pagesOfAnswers, ReporterClient, UPDATE, demoReportServer } from "../../helpers/reporter.ts";

/**
 * A page save and the completion are each one read and one write that names the row version it
 * was computed from (decision 028). These check what a reporter would notice if that went wrong:
 * a save acknowledged but lost, a report completed without answers it acknowledged, an entry in
 * the audit log for a write that never happened.
 */

const demo = demoReportServer();

type UpdateResult = { data?: { userReportSubmissionUpdate: { success: boolean } } | null; errors?: { message: string }[] };

async function startedReporter() {
  const reporter = new ReporterClient(demo.server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: demo.main.form.id });
  expect(started.status).toBe(200);
  return { reporter, submissionId: started.body.submissionID };
}

/** The pages with every free-text answer replaced by `text` (choices stay valid options). */
function pagesSaying(text: string) {
  const textWidgets = new Set(demo.main.widgets.filter((widget) => widget.type === "ShortText" || widget.type === "LongText").map((widget) => widget.id));
  return pagesOfAnswers(demo.main.widgets).map((answers) => answers.map((answer) => (textWidgets.has(answer.widgetID) ? { ...answer, answer: [text] } : answer)));
}

const storedAnswers = (submissionId: string) => openedAnswers(demo.server, submissionId);
const sealerOf = (organisationId: string) => demo.server.lantern.services.keyRing.sealer(demo.server.db, organisationId);

/** Audit entries about the submission, of one action or of any. */
async function activities(submissionId: string, action?: string): Promise<number> {
  const rows = await demo.server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), action ? eq(userActivities.action, action) : undefined));
  return rows.length;
}

describe("saves of one report from two tabs at once", () => {
  test("every acknowledged save is kept; a page save writes no audit entry (decision 064)", async () => {
    const { reporter, submissionId } = await startedReporter();
    const rounds = 4;
    for (let round = 0; round < rounds; round += 1) {
      const pages = pagesSaying(`round ${round}`);
      // Every page at once, twice over (two tabs): saves of one Draft race each other.
      const results = await Promise.all([...pages.entries(), ...pages.entries()].map(([page, answers]) => reporter.gql<UpdateResult["data"] & object>(UPDATE, { page, answers })));
      for (const result of results) expect(result.data?.userReportSubmissionUpdate.success).toBe(true);
      const stored = await storedAnswers(submissionId);
      for (const answers of pages) for (const answer of answers) expect(stored[answer.widgetID]).toEqual(answer.answer);
    }
    const pageCount = pagesSaying("").length;
    expect(await activities(submissionId, "UpdateDraft")).toBe(0);
    const [row] = await demo.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, submissionId));
    expect(row!.currentPage).toBe(pageCount - 1);
  });
});

describe("a save racing the completion", () => {
  test("either it is in the completed report, or it was refused as already submitted", async () => {
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const { reporter, submissionId } = await startedReporter();
      for (const [page, answers] of pagesSaying("before").entries()) await reporter.gql(UPDATE, { page, answers });
      const [lastSave, done] = await Promise.all([
        reporter.gql<NonNullable<UpdateResult["data"]>>(UPDATE, { page: 0, answers: pagesSaying(`late ${attempt}`)[0]! }),
        reporter.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE),
      ]);
      expect(done.data?.userReportSubmissionComplete.reportID).toBeTruthy();
      const stored = await storedAnswers(submissionId);
      const firstText = pagesSaying("").at(0)!.find((answer) => demo.main.widgets.find((widget) => widget.id === answer.widgetID)?.type === "ShortText")!.widgetID;
      if (lastSave.data?.userReportSubmissionUpdate.success) {
        expect(stored[firstText]).toEqual([`late ${attempt}`]);
      } else {
        expect(lastSave.errors?.[0]?.message).toBe(ALREADY_SUBMITTED);
        expect(stored[firstText]).toEqual(["before"]);
      }
      expect(await activities(submissionId, "Complete")).toBe(1);
    }
  });
});

describe("a write computed from an older read", () => {
  test("changes nothing and writes no audit entry", async () => {
    const { reporter, submissionId } = await startedReporter();
    const organisationId = demo.main.form.organisationId;
    const sealer = await sealerOf(organisationId);
    const stale = (await readDraft(demo.server.db, sealer, organisationId, submissionId))!;
    const [first] = pagesSaying("newer");
    expect((await reporter.gql<NonNullable<UpdateResult["data"]>>(UPDATE, { page: 0, answers: first! })).data?.userReportSubmissionUpdate.success).toBe(true);
    const before = await storedAnswers(submissionId);
    const entries = await activities(submissionId);

    const kept = Object.fromEntries(first!.map((answer) => [answer.widgetID, ["older"]]));
    const written = await writePage(demo.server.db, { snapshot: stale, page: 0, pageWidgetIds: Object.keys(kept), kept, sealer, keepAttachmentIds: [], now: new Date() });
    expect(written).toBeNull();
    expect(await storedAnswers(submissionId)).toEqual(before);
    expect(await activities(submissionId)).toBe(entries);
  });

  test("another organisation's id reads and writes nothing", async () => {
    const { submissionId } = await startedReporter();
    const foreignOrganisation = "00000000-0000-4000-8000-000000000000";
    const sealer = await sealerOf(demo.main.form.organisationId);
    expect(await readDraft(demo.server.db, sealer, foreignOrganisation, submissionId)).toBeNull();
    const own = (await readDraft(demo.server.db, sealer, demo.main.form.organisationId, submissionId))!;
    const forged = { ...own, submission: { ...own.submission, organisationId: foreignOrganisation } };
    expect(await writePage(demo.server.db, { snapshot: forged, page: 0, pageWidgetIds: ["w_summary"], kept: { w_summary: ["forged"] }, sealer, keepAttachmentIds: null, now: new Date() })).toBeNull();
    expect((await storedAnswers(submissionId)).w_summary).toBeUndefined();
  });
});
