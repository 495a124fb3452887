import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, desc, eq, inArray } from "drizzle-orm";
import { isSealedFile, Sealer } from "../../../api/lib/key-ring.ts";
import { rotateAndReseal } from "../../../api/lib/key-rotation.ts";
import { loadMasterKeys } from "../../../api/lib/master-key.ts";
import { blobs, dataKeys, reportConversationMessages, reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissionNotes } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { expectStaffReadJourney, reportJourney, type Journey } from "../../helpers/sealed-journey.ts";
import { openedFile, openedText } from "../../helpers/opened-files.ts";
import { nextStart, startTestServer, type TestServer } from "../../helpers/server.ts";
import { clientWithCookie } from "../../helpers/session.ts";

/**
 * Resealing (api/lib/reseal.ts): a database from before encryption is sealed by the start's sweep;
 * after a key rotation every value is under its organisation's new key. Either way it reads as
 * it was written.
 */

/** Everything the journey stored that is sealed, as stored. */
async function storedValues(server: TestServer, journey: Journey) {
  const where = eq(reportSubmissionAnswers.submissionId, journey.submissionId);
  const answers = (await server.db.select({ answer: reportSubmissionAnswers.answer }).from(reportSubmissionAnswers).where(where)).flatMap((row) => row.answer);
  const messages = await server.db.select({ id: reportConversationMessages.id, message: reportConversationMessages.message }).from(reportConversationMessages).where(eq(reportConversationMessages.organisationId, journey.organisationId));
  const notes = await server.db.select({ id: reportSubmissionNotes.id, note: reportSubmissionNotes.note }).from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, journey.submissionId));
  const attachments = await server.db.select({ id: reportSubmissionAttachments.id, fileName: reportSubmissionAttachments.fileName }).from(reportSubmissionAttachments).where(eq(reportSubmissionAttachments.submissionId, journey.submissionId));
  const files = await server.db.select().from(blobs).where(and(eq(blobs.organisationId, journey.organisationId), inArray(blobs.purpose, ["Attachment", "ChatImage"])));
  const texts = [...answers, ...messages.map((row) => row.message), ...notes.map((row) => row.note), ...attachments.map((row) => row.fileName), ...files.map((row) => row.fileName)].filter((text) => text !== "");
  const bytes = await Promise.all(files.map(async (row) => (await server.lantern.services.blobs.get(row.storageKey))!));
  return { messages, notes, attachments, files, texts, bytes };
}

/** Puts every sealed value of the journey back in plain, as a database from before encryption held it. */
async function unsealEverything(server: TestServer, journey: Journey): Promise<void> {
  const open = (purpose: Parameters<typeof openedText>[2], stored: string) => openedText(server, journey.organisationId, purpose, stored);
  const rows = await server.db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, journey.submissionId));
  for (const row of rows) {
    const answer = await Promise.all(row.answer.map((element) => open("answer", element)));
    await server.db.update(reportSubmissionAnswers).set({ answer }).where(and(eq(reportSubmissionAnswers.submissionId, row.submissionId), eq(reportSubmissionAnswers.widgetId, row.widgetId)));
  }
  const stored = await storedValues(server, journey);
  for (const row of stored.messages) await server.db.update(reportConversationMessages).set({ message: await open("message", row.message) }).where(eq(reportConversationMessages.id, row.id));
  for (const row of stored.notes) await server.db.update(reportSubmissionNotes).set({ note: await open("note", row.note) }).where(eq(reportSubmissionNotes.id, row.id));
  for (const row of stored.attachments) await server.db.update(reportSubmissionAttachments).set({ fileName: await open("fileName", row.fileName) }).where(eq(reportSubmissionAttachments.id, row.id));
  for (const [index, row] of stored.files.entries()) {
    await server.db.update(blobs).set({ fileName: await open("fileName", row.fileName) }).where(eq(blobs.id, row.id));
    await server.lantern.services.blobs.put(row.storageKey, await openedFile(server, journey.organisationId, stored.bytes[index]!), row.mimeType);
  }
}

describe("a database from before encryption", () => {
  let dataDir: string;
  let first: TestServer;
  let journey: Journey;
  let second: TestServer | null = null;

  beforeAll(async () => {
    // The second start must find the first one's database and files: one DATA_DIR for both.
    dataDir = mkdtempSync(join(tmpdir(), "lantern-reseal-"));
    first = await startTestServer({ embeddedOnDisk: true, env: { DATA_DIR: dataDir } });
    await seedDemo(first.db);
    journey = await reportJourney(first, "legacy-5d2c");
    await unsealEverything(first, journey);
  });
  afterAll(async () => {
    await second?.stop();
    await first.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("plain values are read as they are, then the next start seals them all, and they read the same", async () => {
    const plain = await storedValues(first, journey);
    expect(plain.texts).toContain(journey.note);
    expect(plain.texts.filter((text) => text.startsWith("lx1:"))).toEqual([]);
    expect(plain.bytes.filter(isSealedFile)).toHaveLength(0);
    await expectStaffReadJourney(journey);

    second = await nextStart(first, dataDir);
    const counts = await second.lantern.legacySealing;
    // At least the journey's: two messages, a note, the attachment's name in its two rows and the image's, two files.
    expect(counts?.failed).toBe(0);
    const { answers, messages, notes, fileNames, files } = counts!;
    expect({ answers: answers >= 1, messages: messages >= 2, notes: notes >= 1, fileNames: fileNames >= 3, files: files >= 2 }).toEqual({ answers: true, messages: true, notes: true, fileNames: true, files: true });

    const sealed = await storedValues(second, journey);
    expect(sealed.texts.filter((text) => !text.startsWith("lx1:"))).toEqual([]);
    expect(sealed.bytes.every(isSealedFile)).toBe(true);
    await expectStaffReadJourney({ ...journey, owner: clientWithCookie(second, journey.owner.cookie) });
  });
});

describe("after a key rotation", () => {
  let server: TestServer;
  let journey: Journey;

  beforeAll(async () => {
    server = await startTestServer();
    await seedDemo(server.db);
    journey = await reportJourney(server, "rotated-8a41");
  });
  afterAll(() => server.stop());

  test("every value and file is sealed again with the organisation's new key, and reads the same", async () => {
    const before = await storedValues(server, journey);
    const masters = await loadMasterKeys(server.lantern.services.config.masterKey);
    const waitedUntil: Date[] = [];
    const result = await rotateAndReseal(server.db, masters, server.lantern.services.blobs, { switchDelayMs: 50, onWait: (until) => waitedUntil.push(until) });
    expect(waitedUntil).toEqual([result.activeFrom]);
    expect(result.resealed.failed).toBe(0);
    expect(result.resealed.notes).toBeGreaterThanOrEqual(1);
    expect(result.resealed.files).toBeGreaterThanOrEqual(2);

    const [newest] = await server.db.select().from(dataKeys).where(eq(dataKeys.organisationId, journey.organisationId)).orderBy(desc(dataKeys.activeFrom)).limit(1);
    const after = await storedValues(server, journey);
    expect(after.texts.length).toBe(before.texts.length);
    expect(new Set(after.texts.map((text) => Sealer.keyIdOfText(text)))).toEqual(new Set([newest!.id]));
    const fileKeyIds = after.bytes.map((bytes) => Buffer.from(bytes.subarray(4, 20)).toString("hex"));
    expect(new Set(fileKeyIds)).toEqual(new Set([newest!.id.replace(/-/g, "")]));
    // The old bytes are gone from the store: only the resealed files remain under the rows' keys.
    for (const row of before.files) expect(await server.lantern.services.blobs.exists(row.storageKey)).toBe(false);

    // This instance learns the new key when its list of keys is next loaded (every 30 s; at once here).
    server.lantern.services.keyRing.forget(journey.organisationId);
    await expectStaffReadJourney(journey);
  });
});
