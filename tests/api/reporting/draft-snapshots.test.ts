import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DraftSnapshots } from "../../../api/modules/reporting/draft-snapshots.ts";
import type { DraftSnapshot } from "../../../api/modules/reporting/draft-statements.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, sameReporterOn, UPDATE } from "../../helpers/reporter.ts";
import { openedAnswers } from "../../helpers/opened-answers.ts";
import { startInstancePair, type TestServer } from "../../helpers/server.ts";

/**
 * Each instance keeps the Drafts it wrote last, so the next save needs no read (decision 028). A
 * copy another instance made stale must cost a refused write and a fresh read, never a lost save.
 * Two instances need one Postgres database; on PGlite both names are the same instance.
 */
let first: TestServer;
let second: TestServer;
let pair: Awaited<ReturnType<typeof startInstancePair>>;
let main: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  pair = await startInstancePair();
  ({ first, second } = pair);
  main = await demoForm(first, "demo", "Workplace Misconduct Report");
}, 60_000);
afterAll(() => pair.stop());

const onSecond = (reporter: ReporterClient) => sameReporterOn(second, reporter);

async function stored(submissionId: string, widgetId: string): Promise<string[] | undefined> {
  return (await openedAnswers(first, submissionId))[widgetId];
}

describe("saves of one report on two instances", () => {
  test("alternate without losing one, and the completion holds the last of each", async () => {
    const reporter = new ReporterClient(first, "demo.localhost");
    const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
    const submissionId = started.body.submissionID;
    const elsewhere = onSecond(reporter);
    const pages = pagesOfAnswers(main.widgets);
    const summary = pages[0]!.find((answer) => answer.widgetID === "w_summary")!;
    const saveSummary = async (client: ReporterClient, text: string) => {
      const answers = pages[0]!.map((answer) => (answer === summary ? { ...answer, answer: [text] } : answer));
      const result = await client.gql<{ userReportSubmissionUpdate: { success: boolean } }>(UPDATE, { page: 0, answers });
      expect(result.data?.userReportSubmissionUpdate.success).toBe(true);
    };
    // Each instance keeps its own copy after its write; every later write on the other makes it stale.
    for (let round = 0; round < 4; round += 1) {
      await saveSummary(reporter, `first ${round}`);
      expect(await stored(submissionId, "w_summary")).toEqual([`first ${round}`]);
      await saveSummary(elsewhere, `second ${round}`);
      expect(await stored(submissionId, "w_summary")).toEqual([`second ${round}`]);
    }
    for (const [page, answers] of pages.entries()) if (page > 0) await reporter.gql(UPDATE, { page, answers });
    const done = await elsewhere.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE);
    expect(done.data?.userReportSubmissionComplete.reportID).toBeTruthy();
    expect(await stored(submissionId, "w_summary")).toEqual(["second 3"]);
    // Completed: a copy left behind anywhere cannot save into the report.
    const late = await reporter.gql(UPDATE, { page: 0, answers: pages[0] });
    expect(late.errors?.[0]?.message).toBe("This report has already been submitted.");
    expect(await stored(submissionId, "w_summary")).toEqual(["second 3"]);
  });
});

describe("what an instance keeps", () => {
  const snapshot = (id: string, organisationId: string, answers: Record<string, string[]> = {}, completed = false): DraftSnapshot =>
    ({ submission: { id, organisationId, completed } as DraftSnapshot["submission"], version: "1", answers });
  const org = "00000000-0000-4000-8000-000000000001";

  test("only for its own organisation, never a completed report, never huge answers, not for long", () => {
    let now = 0;
    const kept = new DraftSnapshots({ now: () => now });
    kept.store(snapshot("a", org));
    expect(kept.get(org, "a")?.submission.id).toBe("a");
    expect(kept.get("00000000-0000-4000-8000-000000000002", "a")).toBeUndefined();
    kept.store(snapshot("b", org, {}, true));
    expect(kept.get(org, "b")).toBeUndefined();
    kept.store(snapshot("c", org, { w: ["x".repeat(40_000)] }));
    expect(kept.get(org, "c")).toBeUndefined();
    kept.store(snapshot("d", org));
    now += 31 * 60 * 1000;
    expect(kept.get(org, "d")).toBeUndefined();
  });

  test("a bounded number, the least recently written going first", () => {
    const kept = new DraftSnapshots();
    for (let index = 0; index < 5_001; index += 1) kept.store(snapshot(`s${index}`, org));
    expect(kept.size).toBe(5_000);
    expect(kept.get(org, "s0")).toBeUndefined();
    expect(kept.get(org, "s5000")).toBeDefined();
  });
});
