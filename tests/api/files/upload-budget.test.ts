import { beforeAll, describe, expect, test } from "bun:test";
import { TOO_COSTLY_TO_CLEAN } from "../../../api/modules/files/cleaning-budget.ts";
import { cleaningPoolState } from "../../../api/modules/files/cleaning-pool.ts";
import { PICTURE_TOO_LARGE } from "../../../api/modules/files/image-dimensions.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { attachmentCount, upload } from "../../fixtures/attachments.ts";
import { pngWithText } from "../../fixtures/files.ts";
import { demoReportServer, ReporterClient } from "../../helpers/reporter.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { hugePng, nestedOfficeBomb, officeBomb, pdfBomb, slowOfficeFile } from "./bomb-fixtures.ts";

/**
 * Issue 29, item 1: one small file made the server inflate gigabytes on the request thread, and
 * every request waited. The same probes now: each is refused with a clear message after a little
 * work, the process's memory stays within 200 MB of where it was, and /healthz and a signed-in
 * viewer are answered meanwhile, since cleaning runs in a worker (decision 060).
 */

const demo = demoReportServer();
let owner: StaffClient;
beforeAll(async () => {
  owner = await loginAs(demo.server, "owner@demo.test", DEMO_PASSWORD);
});

const VIEWER = "{ viewer { id } }";
const MB = 1_000_000;

async function draft() {
  const reporter = new ReporterClient(demo.server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: demo.main.form.id });
  expect(started.status).toBe(200);
  return { reporter, submissionId: started.body.submissionID };
}

/** /healthz and the signed-in viewer, both answered. */
async function othersAnswered(): Promise<void> {
  const [health, viewer] = await Promise.all([demo.server.fetch("/healthz"), owner.gql<{ viewer: { id: string } }>(VIEWER)]);
  expect(health.status).toBe(200);
  expect(viewer.data?.viewer.id).toBeString();
}

describe("a file that would cost too much to clean is refused, and nobody waits for it", () => {
  test("the tester's probes are refused with a clear message; others are answered meanwhile; memory grows by less than 200 MB", async () => {
    const probes = [
      { name: "bomb.docx", bytes: officeBomb(), refusal: TOO_COSTLY_TO_CLEAN },
      { name: "nested.docx", bytes: nestedOfficeBomb(), refusal: TOO_COSTLY_TO_CLEAN },
      { name: "huge.png", bytes: hugePng(), refusal: PICTURE_TOO_LARGE },
      { name: "bomb.pdf", bytes: pdfBomb(), refusal: TOO_COSTLY_TO_CLEAN },
    ];
    const { reporter, submissionId } = await draft();
    // A first upload starts the cleaning worker, so what follows measures the probes alone.
    expect((await upload(reporter, "first.png", pngWithText())).status).toBe(200);
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      for (const probe of probes) {
        const answer = upload(reporter, probe.name, probe.bytes);
        await othersAnswered();
        expect({ name: probe.name, ...(await answer) }).toMatchObject({ name: probe.name, status: 400, body: { error: probe.refusal } });
      }
    } finally {
      clearInterval(sampler);
    }
    expect(Math.round((peak - before) / MB)).toBeLessThan(200);
    expect(await attachmentCount(demo.server, submissionId)).toBe(1);
  });

  test("while a file within the budgets takes seconds to clean, /healthz and a signed-in viewer are answered (cleaning runs off the request thread), and memory grows by less than 200 MB", async () => {
    const { reporter, submissionId } = await draft();
    const file = slowOfficeFile();
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    let settled = false;
    const answer = upload(reporter, "long.docx", file).finally(() => (settled = true));
    // This loop only turns while the thread that serves requests is free.
    while (cleaningPoolState().running === 0 && !settled) await Bun.sleep(1);
    expect(settled).toBe(false);
    await othersAnswered();
    expect({ running: cleaningPoolState().running, settled }).toEqual({ running: 1, settled: false });
    // Within both budgets: stored, cleaned.
    expect(await answer).toMatchObject({ status: 200, body: { fileName: "long.docx", metadataRemoved: true } });
    clearInterval(sampler);
    expect(Math.round((peak - before) / MB)).toBeLessThan(200);
    expect(await attachmentCount(demo.server, submissionId)).toBe(1);
  });

  test("an avatar declaring 50,000 × 50,000 pixels is refused as the attachment is", async () => {
    const body = new FormData();
    body.append("operations", JSON.stringify({ query: "mutation ($file: File!) { changeAvatar(file: $file) { id } }", variables: { file: null } }));
    body.append("map", JSON.stringify({ 0: ["variables.file"] }));
    body.append("0", new Blob([hugePng()], { type: "image/png" }), "huge.png");
    const answer = (await (await owner.fetch("/api/gql/query", { method: "POST", body })).json()) as { errors?: { message: string }[] };
    expect(answer.errors?.[0]?.message).toBe(PICTURE_TOO_LARGE);
  });
});
