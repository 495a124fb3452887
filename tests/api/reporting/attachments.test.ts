import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { blobs, reportForms, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_FORM_PASSWORD, DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { sha256Hex } from "../../../api/lib/tokens.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, submitReport, UPDATE } from "../../helpers/reporter.ts";
import { loginAs } from "../../helpers/session.ts";
import * as fixtures from "../../fixtures/files.ts";
import { ATTACHMENTS_PATH, attachmentCount, blobStoreState, storedBytes, upload } from "../../fixtures/attachments.ts";

let server: TestServer;
let main: Awaited<ReturnType<typeof demoForm>>;
/** Demo's second form (password-protected); its upload settings are changed by one test. */
let finance: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  finance = await demoForm(server, "demo", "Confidential Finance Concern");
});
afterAll(() => server.stop());

const PATH = ATTACHMENTS_PATH;
const CREDENTIALS_PROBLEM = "There was a problem reading your credentials. Please sign in and try again.";
const TOTAL_MESSAGE = "Files exceeds total allowed attachment size. Please delete or compress files and try again.";

async function draft(formId = main.form.id) {
  const reporter = new ReporterClient(server, "demo.localhost");
  if (formId === finance.form.id) await reporter.gql(`mutation ($id: ID!, $password: String!) { reportFormUnlock(reportFormID: $id, password: $password) }`, { id: formId, password: DEMO_FORM_PASSWORD });
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: formId });
  expect(started.status).toBe(200);
  return { reporter, submissionId: started.body.submissionID };
}

/** Every file in the blob directory has its row and every row its file: nothing half-stored, nothing orphaned. */
async function expectBlobStoreConsistent() {
  const state = await blobStoreState(server);
  expect(state.temporaryFiles).toBe(0);
  expect(state.files).toBe(state.rows);
}

describe("who may upload", () => {
  test("a reporter with a Draft may; no session is a credentials problem", async () => {
    const anonymous = new ReporterClient(server, "demo.localhost");
    const refused = await upload(anonymous, "notes.txt", "hello");
    expect(refused).toMatchObject({ status: 401, body: { error: CREDENTIALS_PROBLEM } });
    const { reporter } = await draft();
    const ok = await upload(reporter, "notes.txt", "hello", "image/png");
    expect(ok.status).toBe(200);
    // The type is what the bytes are, not what the browser said.
    expect(ok.body).toMatchObject({ fileName: "notes.txt", fileSizeBytes: 5, mimeType: "text/plain; charset=utf-8" });
  });

  test("a form without uploads refuses; its allowed types are matched without regard to case", async () => {
    await server.db.update(reportForms).set({ allowFileUploads: false }).where(eq(reportForms.id, finance.form.id));
    const { reporter } = await draft(finance.form.id);
    expect(await upload(reporter, "notes.txt", "hello")).toMatchObject({ status: 403, body: { error: "File uploads are not allowed for this form." } });
    await server.db.update(reportForms).set({ allowFileUploads: true, allowedFileTypes: [".PDF", "Png"] }).where(eq(reportForms.id, finance.form.id));
    expect((await upload(reporter, "scan.pdf", fixtures.minimalPdf())).status).toBe(200);
    expect((await upload(reporter, "CHART.PNG", fixtures.pngWithText())).status).toBe(200);
    const jpeg = await upload(reporter, "photo.jpg", fixtures.plainJpeg());
    expect(jpeg).toMatchObject({ status: 400, body: { error: "Files of this type cannot be attached. Allowed types: .pdf, .png." } });
  });

  test("after completion the report's files are fixed, but still readable by its reporter", async () => {
    const { reporter } = await draft();
    const before = await upload(reporter, "notes.txt", "before completion");
    const { reportID, generatedPassword } = await submitReport(reporter, main.form.id, main.widgets);
    expect(await upload(reporter, "late.txt", "after")).toMatchObject({ status: 409, body: { error: "This report has already been submitted." } });
    const returning = new ReporterClient(server, "demo.localhost");
    await returning.post("/api/auth/report_login", { reportID, password: generatedPassword });
    expect((await returning.fetch(`${PATH}/${before.body.id}`)).status).toBe(200);
    expect((await upload(returning, "late.txt", "after")).status).toBe(409);
    expect((await returning.fetch(`${PATH}/${before.body.id}`, { method: "DELETE" })).status).toBe(409);
  });
});

describe("limits", () => {
  test("ten files, not eleven; concurrent uploads cannot pass the count", async () => {
    const { reporter, submissionId } = await draft();
    for (let i = 0; i < 7; i += 1) expect((await upload(reporter, `n${i}.txt`, `note ${i}`)).status).toBe(200);
    const racing = await Promise.all([7, 8, 9, 10, 11].map((i) => upload(reporter, `n${i}.txt`, `note ${i}`)));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(3);
    expect(racing.filter((r) => r.status === 400).map((r) => r.body.error)).toEqual(["You can attach at most 10 files.", "You can attach at most 10 files."]);
    expect(await upload(reporter, "eleventh.txt", "x")).toMatchObject({ status: 400, body: { error: "You can attach at most 10 files." } });
    expect(await attachmentCount(server, submissionId)).toBe(10);
    await expectBlobStoreConsistent();
  });

  test("25,000,000 bytes in total: exactly that fits, one byte more is refused with the spec's message", async () => {
    const { reporter, submissionId } = await draft();
    expect((await upload(reporter, "big.txt", new Uint8Array(24_000_000).fill(0x61))).status).toBe(200);
    const over = await upload(reporter, "more.txt", new Uint8Array(1_000_001).fill(0x62));
    expect(over).toMatchObject({ status: 400, body: { error: TOTAL_MESSAGE } });
    expect((await upload(reporter, "exact.txt", new Uint8Array(1_000_000).fill(0x62))).status).toBe(200);
    expect(await attachmentCount(server, submissionId)).toBe(2);
  });

  test("a file over 25,000,000 bytes, an oversized request and an empty file are refused and nothing is stored", async () => {
    const { reporter, submissionId } = await draft();
    const tooBig = await upload(reporter, "huge.txt", new Uint8Array(25_000_001).fill(0x61));
    expect(tooBig).toMatchObject({ status: 413, body: { error: "This file is too large: each file can be at most 25 MB." } });
    const request = await upload(reporter, "huger.txt", new Uint8Array(28_000_000).fill(0x61));
    expect(request).toMatchObject({ status: 413, body: { error: "413 Request Entity Too Large" } });
    expect(await upload(reporter, "empty.txt", "")).toMatchObject({ status: 400, body: { error: "This file is empty." } });
    expect(await attachmentCount(server, submissionId)).toBe(0);
    await expectBlobStoreConsistent();
    // The JSON limit still holds everywhere else under /api.
    const json = await reporter.fetch("/api/auth/report_start", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ x: "a".repeat(2_000_000) }) });
    expect(json.status).toBe(413);
  });

  test("one file a request, in the field 'file'", async () => {
    const { reporter } = await draft();
    const two = new FormData();
    two.append("file", new Blob(["a"]), "a.txt");
    two.append("file", new Blob(["b"]), "b.txt");
    expect((await reporter.fetch(PATH, { method: "POST", body: two })).status).toBe(400);
    const elsewhere = new FormData();
    elsewhere.append("upload", new Blob(["a"]), "a.txt");
    expect((await reporter.fetch(PATH, { method: "POST", body: elsewhere })).status).toBe(400);
    expect((await reporter.fetch(PATH, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(400);
  });
});

describe("types", () => {
  test("content must match the extension; unlisted extensions are refused", async () => {
    const { reporter, submissionId } = await draft();
    const mismatch = "The file's content does not match its type.";
    expect(await upload(reporter, "report.pdf", fixtures.pngWithText(), "application/pdf")).toMatchObject({ status: 400, body: { error: mismatch } });
    expect(await upload(reporter, "report.docx", fixtures.zipOf({ "a.txt": "not office" }))).toMatchObject({ status: 400, body: { error: mismatch } });
    expect(await upload(reporter, "notes.txt", new Uint8Array([0x61, 0x00, 0x62]))).toMatchObject({ status: 400, body: { error: mismatch } });
    expect((await upload(reporter, "setup.exe", new Uint8Array([0x4d, 0x5a, 0x90, 0x00]))).body.error).toStartWith("Files of this type cannot be attached. Allowed types: .doc, .docx");
    expect((await upload(reporter, "no-extension", "text")).status).toBe(400);
    expect(await attachmentCount(server, submissionId)).toBe(0);

    const accepted: [string, Uint8Array<ArrayBuffer>, string][] = [
      ["Report.PDF", fixtures.minimalPdf(), "application/pdf"],
      ["memo.docx", fixtures.minimalDocx(), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      ["legacy.doc", new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), "application/msword"],
      ["clip.mp4", fixtures.mp4WithLocation(), "video/mp4"],
      ["voice.mp3", fixtures.mp3WithTags(), "audio/mpeg"],
      ["anim.gif", fixtures.gifWithComment(), "image/gif"],
    ];
    for (const [name, data, mimeType] of accepted) expect(await upload(reporter, name, data, "text/html")).toMatchObject({ status: 200, body: { fileName: name, mimeType } });
    await expectBlobStoreConsistent();
  });

  test("file names keep only their base name, without control or direction characters, at most 200 characters", async () => {
    const { reporter } = await draft();
    const tricky = await upload(reporter, "C:\\fakepath\\..\\Bericht über\u202Efdp\u0007.txt", "text");
    expect(tricky.body.fileName).toBe("Bericht überfdp.txt");
    const long = await upload(reporter, `${"x".repeat(300)}.txt`, "text");
    expect(long.body.fileName).toBe(`${"x".repeat(196)}.txt`);
  });
});

describe("metadata is removed before anything is stored", () => {
  test("JPEG: EXIF, XMP, ICC, comments and appended pictures go; the image itself is unchanged", async () => {
    const { reporter, submissionId } = await draft();
    const result = await upload(reporter, "photo.jpg", fixtures.jpegWithMetadata(), "image/jpeg");
    expect(result.status).toBe(200);
    const { row, bytes, sealed, fileName, attachmentFileName } = await storedBytes(server, result.body.id);
    for (const text of ["Exif", "GPSLatitude", "Jane Reporter", "ICC_PROFILE"]) expect(fixtures.containsText(bytes, text)).toBe(false);
    expect([bytes[0], bytes[1], bytes.at(-2), bytes.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect(bytes).toEqual(fixtures.plainJpeg());
    expect(row).toMatchObject({ purpose: "Attachment", mimeType: "image/jpeg", sizeBytes: bytes.length });
    expect(fileName).toBe("photo.jpg");
    // Sealed at rest: the bytes, both stored names, and a digest that is of the sealed bytes, never the plaintext's fingerprint.
    expect(fixtures.containsText(sealed, "JFIF") || sealed.length === bytes.length).toBe(false);
    for (const stored of [row.fileName, attachmentFileName]) expect({ sealed: stored.startsWith("lx1:"), named: stored.includes("photo") }).toEqual({ sealed: true, named: false });
    expect(row.sha256).toBe(sha256Hex(sealed));
    expect(row.sha256).not.toBe(sha256Hex(bytes));
    expect(result.body.fileSizeBytes).toBe(bytes.length);
    const [audit] = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, "AddAttachment")));
    expect(audit!.userId).toBeNull();
    expect(JSON.stringify(audit!.metadata)).not.toContain("photo");
  });

  test("PNG, GIF, MP4 and MP3: their text and location go, their structure stays", async () => {
    const { reporter } = await draft();
    const png = (await storedBytes(server, (await upload(reporter, "chart.png", fixtures.pngWithText())).body.id)).bytes;
    expect(fixtures.containsText(png, "Author")).toBe(false);
    expect(fixtures.containsText(png, "tIME")).toBe(false);
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (const chunk of ["IHDR", "IDAT", "IEND"]) expect(fixtures.containsText(png, chunk)).toBe(true);

    const gif = (await storedBytes(server, (await upload(reporter, "anim.gif", fixtures.gifWithComment())).body.id)).bytes;
    expect(fixtures.containsText(gif, "Jane")).toBe(false);
    expect(fixtures.containsText(gif, "NETSCAPE2.0")).toBe(true);
    expect(gif.at(-1)).toBe(0x3b);

    const original = fixtures.mp4WithLocation();
    const mp4 = (await storedBytes(server, (await upload(reporter, "clip.mov", original)).body.id)).bytes;
    expect(mp4.length).toBe(original.length);
    for (const text of ["+51.5007", "Jane", "udta"]) expect(fixtures.containsText(mp4, text)).toBe(false);
    expect(mp4.subarray(mp4.length - 72)).toEqual(original.subarray(original.length - 72));

    const mp3 = (await storedBytes(server, (await upload(reporter, "voice.mp3", fixtures.mp3WithTags())).body.id)).bytes;
    expect(fixtures.containsText(mp3, "Jane")).toBe(false);
    expect([mp3[0], mp3[1]]).toEqual([0xff, 0xfb]);
  });
});

describe("downloading and deleting", () => {
  test("the reporter and staff who may read the report get the bytes; everyone else gets 'not found'", async () => {
    const { reporter } = await draft();
    const { body } = await upload(reporter, "photo.jpg", fixtures.jpegWithMetadata(), "image/jpeg");
    const own = await reporter.fetch(`${PATH}/${body.id}`);
    expect(own.status).toBe(200);
    expect(Object.fromEntries(["content-type", "content-disposition", "x-content-type-options", "cache-control", "content-security-policy"].map((h) => [h, own.headers.get(h)]))).toEqual({
      "content-type": "image/jpeg",
      "content-disposition": "attachment; filename*=UTF-8''photo.jpg",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'; sandbox",
    });
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(fixtures.plainJpeg());

    const notFound = { error: "File not found" };
    const other = (await draft()).reporter;
    for (const client of [other, new ReporterClient(server, "demo.localhost"), new ReporterClient(server, "northwind.localhost")]) {
      const response = await client.fetch(`${PATH}/${body.id}`);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 404, body: expect.objectContaining(notFound) });
    }
    // Staff see nothing of an unfinished report; once it is submitted, those who may see it get its files.
    const owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
    expect((await owner.fetch(`${PATH}/${body.id}`)).status).toBe(404);
    for (const [page, answers] of pagesOfAnswers(main.widgets).entries()) await reporter.gql(UPDATE, { page, answers, attachments: page === 0 ? [body.id] : null });
    expect((await reporter.gql<{ userReportSubmissionComplete: { reportID: string } }>(COMPLETE)).data?.userReportSubmissionComplete.reportID).toBeDefined();
    for (const email of ["owner@demo.test", "admin@demo.test", "admin@lantern.test"]) {
      const staff = await loginAs(server, email, DEMO_PASSWORD);
      expect((await staff.fetch(`${PATH}/${body.id}`)).status).toBe(200);
    }
    // Members and guest members only for reports whose team they are on.
    for (const email of ["owner@northwind.test", "member@demo.test", "guest@demo.test"]) {
      const staff = await loginAs(server, email, DEMO_PASSWORD);
      expect((await staff.fetch(`${PATH}/${body.id}`)).status).toBe(404);
    }
    for (const id of ["nope", "00000000-0000-0000-0000-000000000000", `${body.id}x`]) {
      const response = await reporter.fetch(`${PATH}/${id}`);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 404, body: expect.objectContaining(notFound) });
    }
  });

  test("the reporter deletes their own file: rows, bytes and an audit entry; another session cannot", async () => {
    const { reporter, submissionId } = await draft();
    const { body } = await upload(reporter, "notes.txt", "delete me");
    const { row } = await storedBytes(server, body.id);
    expect((await (await draft()).reporter.fetch(`${PATH}/${body.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await reporter.fetch(`${PATH}/not-a-uuid`, { method: "DELETE" })).status).toBe(404);
    expect((await new ReporterClient(server, "demo.localhost").fetch(`${PATH}/${body.id}`, { method: "DELETE" })).status).toBe(401);
    const removed = await reporter.fetch(`${PATH}/${body.id}`, { method: "DELETE" });
    expect({ status: removed.status, body: await removed.json() }).toEqual({ status: 200, body: { ok: true } });
    expect(await attachmentCount(server, submissionId)).toBe(0);
    expect(await server.db.select().from(blobs).where(eq(blobs.id, row.id))).toEqual([]);
    expect(await server.lantern.services.blobs.exists(row.storageKey)).toBe(false);
    expect((await reporter.fetch(`${PATH}/${body.id}`)).status).toBe(404);
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, "DeleteAttachment")));
    expect(audit).toHaveLength(1);
    await expectBlobStoreConsistent();
  });
});

describe("the attachment list sent with a page", () => {
  test("files left out of the list are dropped with their bytes", async () => {
    const { reporter, submissionId } = await draft();
    const kept = await upload(reporter, "kept.png", fixtures.pngWithText());
    const dropped = await upload(reporter, "dropped.png", fixtures.pngWithText());
    const droppedBlob = (await storedBytes(server, dropped.body.id)).row;
    expect(await attachmentCount(server, submissionId)).toBe(2);
    const pageZero = pagesOfAnswers(main.widgets)[0]!;
    const result = await reporter.gql<{ userReportSubmissionUpdate: { success: boolean } }>(
      `mutation ($answers: [ReportAnswerInput!]!, $ids: [ID!]) { userReportSubmissionUpdate(page: 0, answers: $answers, attachments: $ids) { success } }`,
      { answers: pageZero, ids: [kept.body.id] },
    );
    expect(result.data?.userReportSubmissionUpdate.success).toBe(true);
    expect(await attachmentCount(server, submissionId)).toBe(1);
    expect(await server.db.select().from(blobs).where(eq(blobs.id, droppedBlob.id))).toHaveLength(0);
    expect(await server.lantern.services.blobs.exists(droppedBlob.storageKey)).toBe(false);
    expect(dropped.status).toBe(200);
    await expectBlobStoreConsistent();
  });
});
