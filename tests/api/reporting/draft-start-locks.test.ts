import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { FORM_DRAFTS_CAP } from "../../../api/modules/reporting/draft-limits.ts";
import { loadAllowedBelow, loadDifficulty, MAX_DIFFICULTY } from "../../../api/modules/abuse/guard.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { demoReportServer, ReporterClient } from "../../helpers/reporter.ts";
import { usingPostgres } from "../../setup/template.ts";

// Starts of one organisation do not queue behind each other far from the caps, and near a cap they
// still cannot pass it together (db/migrations/*_drafts_for_start, decision 028).

describe("the work a start pays covers the load it may find", () => {
  test("a solution of each difficulty pays for exactly the counts that ask no more than it", () => {
    for (const free of [50, 200, 1_000_000_000]) {
      for (let difficulty = 0; difficulty <= MAX_DIFFICULTY + 1; difficulty += 1) {
        const below = loadAllowedBelow(difficulty, free);
        for (const count of [0, free - 1, free, free + 1, 2 * free - 1, 2 * free, 4 * free - 1, 4 * free, 8 * free, 64 * free, 1024 * free]) {
          expect({ difficulty, free, count, pays: count < below }).toEqual({ difficulty, free, count, pays: loadDifficulty(count, free) <= difficulty });
        }
      }
    }
  });
});

describe.if(usingPostgres())("starts in flight at the same time", () => {
  const demo = demoReportServer();

  const start = () => {
    const reporter = new ReporterClient(demo.server, "demo.localhost");
    return postSolving((body) => reporter.fetch("/api/auth/report_start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }), { reportFormID: demo.main.form.id });
  };

  /** Another start of the organisation, in flight: it holds the organisation's draft lock shared until released. */
  async function startInFlight() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const done = demo.server.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended(${`drafts:${demo.demoId}`}, 0))`);
      holding();
      await released;
    });
    await held;
    return { release: async () => (release(), await done) };
  }

  async function leaveDrafts(count: number) {
    const rows = Array.from({ length: count }, () => ({ organisationId: demo.demoId, formId: demo.main.form.id, buildId: demo.main.form.deployedBuildId, status: "Draft" as const }));
    for (let i = 0; i < rows.length; i += 500) await demo.server.db.insert(reportSubmissions).values(rows.slice(i, i + 500));
  }

  test("far from the caps a start goes ahead while another is still in flight", async () => {
    const other = await startInFlight();
    try {
      const { response } = await start();
      expect(response.status).toBe(200);
    } finally {
      await other.release();
    }
  });

  test("near a cap a start waits until the starts in flight are decided, then counts them", async () => {
    await leaveDrafts(FORM_DRAFTS_CAP - 20);
    const other = await startInFlight();
    let settled = false;
    const pending = start().then((result) => ((settled = true), result));
    // However long it is given, it cannot be decided while the other start still holds the lock.
    await Bun.sleep(400);
    expect(settled).toBe(false);
    await other.release();
    expect((await pending).response.status).toBe(200);
    await demo.server.db.delete(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demo.demoId), eq(reportSubmissions.status, "Draft")));
  });
});
