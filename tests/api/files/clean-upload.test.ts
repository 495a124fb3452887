import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inArray, sql } from "drizzle-orm";
import { blobs } from "../../../db/schema/index.ts";
import { ZipWriter } from "../../../api/modules/exports/zip.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { ATTACHMENTS_PATH, attachmentCount, blobStoreState, storedBytes, upload } from "../../fixtures/attachments.ts";
import { containsText, pngWithText } from "../../fixtures/files.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, UPDATE } from "../../helpers/reporter.ts";
import { openedText } from "../../helpers/opened-files.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs } from "../../helpers/session.ts";
import { readZip } from "../../helpers/zip-reader.ts";
import { CANARY, docxWithCanary, pdfWithCanary } from "./clean-fixtures.ts";

let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
});
afterAll(() => server.stop());

const ATTACHMENTS = `query ($id: ID!) { reportSubmissionGet(id: $id) { attachments { fileName metadataRemoved } } }`;
const UNREADABLE = "The file could not be read. It may be damaged.";
/** A legacy Word file: the compound-file signature, then the author in its summary information. */
const legacyDoc = () => Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...Buffer.from(`\0\0Author\0${CANARY}\0`)]);

async function draft() {
  const reporter = new ReporterClient(server, "demo.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: main.form.id });
  expect(started.status).toBe(200);
  return { reporter, submissionId: started.body.submissionID };
}

async function submitWith(reporter: ReporterClient, attachmentIds: string[]) {
  for (const [page, answers] of pagesOfAnswers(main.widgets).entries()) await reporter.gql(UPDATE, { page, answers, attachments: page === 0 ? attachmentIds : null });
  expect((await reporter.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE)).data?.userReportSubmissionComplete.reportID).toBeDefined();
}

describe("uploads are stored cleaned, and staff see which were", () => {
  test("a PDF and a DOCX with an author lose it; a .doc is stored as sent and marked not cleaned", async () => {
    const { reporter, submissionId } = await draft();
    const pdf = await upload(reporter, "report.pdf", pdfWithCanary(), "application/pdf");
    const docx = await upload(reporter, "memo.docx", docxWithCanary());
    const doc = await upload(reporter, "legacy.doc", legacyDoc());
    // The reporter's page is told at once which files were stored as sent.
    expect([pdf, docx, doc].map((result) => [result.status, result.body.fileName, (result.body as { metadataRemoved?: boolean }).metadataRemoved])).toEqual([
      [200, "report.pdf", true],
      [200, "memo.docx", true],
      [200, "legacy.doc", false],
    ]);
    await submitWith(reporter, [pdf.body.id, docx.body.id, doc.body.id]);

    // Downloaded as staff see them.
    const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    const download = async (id: string) => {
      const response = await owner.fetch(`${ATTACHMENTS_PATH}/${id}`);
      expect(response.status).toBe(200);
      return new Uint8Array(await response.arrayBuffer());
    };
    const storedPdf = await download(pdf.body.id);
    expect(containsText(storedPdf, CANARY)).toBe(false);
    expect(Buffer.from(storedPdf).toString("latin1")).toContain("(The evidence) Tj");
    const storedDocx = await download(docx.body.id);
    expect(containsText(storedDocx, CANARY)).toBe(false);
    for (const [name, content] of readZip(storedDocx)) expect({ name, canary: containsText(content, CANARY) }).toEqual({ name, canary: false });
    expect(await download(doc.body.id)).toEqual(legacyDoc());
    expect((await storedBytes(server, doc.body.id)).row.metadataRemoved).toBe(false);

    const seen = await owner.gql<{ reportSubmissionGet: { attachments: { fileName: string; metadataRemoved: boolean }[] } }>(ATTACHMENTS, { id: submissionId });
    expect(seen.errors).toBeUndefined();
    expect(seen.data!.reportSubmissionGet.attachments).toEqual(
      expect.arrayContaining([
        { fileName: "report.pdf", metadataRemoved: true },
        { fileName: "memo.docx", metadataRemoved: true },
        { fileName: "legacy.doc", metadataRemoved: false },
      ]),
    );
    // Staff who may not read the report (another organisation; a member not on its team) learn nothing of its files.
    for (const email of ["owner@northwind.test", "member@demo.test"]) {
      const denied = await (await loginAs(server, email, DEMO_PASSWORD)).gql(ATTACHMENTS, { id: submissionId });
      expect(denied.errors?.length).toBeGreaterThan(0);
      expect(JSON.stringify(denied.data ?? null)).not.toContain("metadataRemoved");
    }
  });
});

describe("hostile files are refused with a clear message or stored not cleaned, never a 500", () => {
  test("a zip bomb posing as a DOCX and a truncated DOCX are refused; nothing is stored", async () => {
    const { reporter, submissionId } = await draft();
    const zip = new ZipWriter();
    zip.add("[Content_Types].xml", "<Types/>");
    zip.add("docProps/core.xml", `<c>${" ".repeat(5_000_000)}</c>`);
    zip.add("word/document.xml", '<w:document xmlns:w="w"/>');
    const bomb = zip.finish();
    // The directory claims the 5 MB part inflates to 100 bytes.
    const view = new DataView(bomb.buffer);
    const record = Buffer.from(bomb).lastIndexOf(Buffer.from("docProps/core.xml")) - 46;
    view.setUint32(record + 24, 100, true);
    expect(await upload(reporter, "bomb.docx", bomb)).toMatchObject({ status: 400, body: { error: UNREADABLE } });
    const docx = docxWithCanary();
    expect(await upload(reporter, "cut.docx", docx.subarray(0, docx.length - 10))).toMatchObject({ status: 400, body: { error: "The file's content does not match its type." } });
    expect(await attachmentCount(server, submissionId)).toBe(0);
  });

  test("a PDF with an absurd /Length and random bytes behind a PDF header are stored, the second marked not cleaned", async () => {
    const { reporter } = await draft();
    const absurd = Buffer.from(Buffer.from(pdfWithCanary()).toString("latin1").replace("/Length 43", "/Length 4294967296000"), "latin1");
    const repaired = await upload(reporter, "absurd.pdf", new Uint8Array(absurd));
    expect(repaired.status).toBe(200);
    const stored = await storedBytes(server, repaired.body.id);
    expect({ canary: containsText(stored.bytes, CANARY), metadataRemoved: stored.row.metadataRemoved }).toEqual({ canary: false, metadataRemoved: true });

    let seed = 11;
    const random = Uint8Array.from({ length: 50_000 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    random.set(Buffer.from("%PDF-1.7\n"));
    const garbage = await upload(reporter, "garbage.pdf", random);
    expect(garbage.status).toBe(200);
    expect((await storedBytes(server, garbage.body.id)).row.metadataRemoved).toBe(false);
    const state = await blobStoreState(server);
    expect(state.files).toBe(state.rows);
  });
});

describe("files stored before cleaning existed", () => {
  test("the migration marks existing PDF and Office rows as not cleaned, and images as cleaned", async () => {
    const migrations = join(import.meta.dir, "..", "..", "..", "db", "migrations");
    const folder = readdirSync(migrations).find((name) => name.endsWith("_blob_metadata_removed"))!;
    // The column exists already here; the statement after it is the backfill.
    const backfill = readFileSync(join(migrations, folder, "migration.sql"), "utf8").split("--> statement-breakpoint")[1]!;
    const { reporter } = await draft();
    const uploads = await Promise.all([upload(reporter, "old.pdf", pdfWithCanary()), upload(reporter, "old.docx", docxWithCanary()), upload(reporter, "old.png", pngWithText())]);
    const rows = await Promise.all(uploads.map(async (result) => (await storedBytes(server, result.body.id)).row.id));
    // As the column's default left every row that existed when it was added.
    await server.db.update(blobs).set({ metadataRemoved: true }).where(inArray(blobs.id, rows));
    await server.db.execute(sql.raw(backfill));
    const stored = await server.db.select({ fileName: blobs.fileName, metadataRemoved: blobs.metadataRemoved }).from(blobs).where(inArray(blobs.id, rows));
    const after = await Promise.all(stored.map(async (row) => ({ ...row, fileName: await openedText(server, main.form.organisationId, "fileName", row.fileName) })));
    expect(after.sort((a, b) => a.fileName.localeCompare(b.fileName))).toEqual([
      { fileName: "old.docx", metadataRemoved: false },
      { fileName: "old.pdf", metadataRemoved: false },
      { fileName: "old.png", metadataRemoved: true },
    ]);
  });
});
