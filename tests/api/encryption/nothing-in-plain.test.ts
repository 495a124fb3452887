import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { seedDemo } from "../../../db/seed/demo.ts";
import { expectStaffReadJourney, MESSAGES, ok, reportJourney, type Journey } from "../../helpers/sealed-journey.ts";
import { everyTable, filesHolding, filesUnder, tablesHolding } from "../../helpers/plain-search.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { usingPostgres } from "../../setup/template.ts";

/**
 * One reporter's whole journey through the real APIs, every text of it carrying a canary; then
 * nothing anywhere at rest may hold the canary in plain (docs/decisions/049-encryption-at-rest.md),
 * while everyone who may read it still reads it. On PGlite the database lives in DATA_DIR, so its
 * files are searched too.
 */

const CANARY = "canary-5e1f0c7d";
/** Written in plain on purpose (a staff reference is not sealed): proves each search sees what is written. */
const CONTROL = "control-ref-9b2a";

const REFERENCE = `mutation ($id: ID!, $ref: String!) { reportSubmissionInternalReference(id: $id, internalReference: $ref) { id } }`;
const REPORTER_VIEW = `{ reporterSubmission { attachments { fileName fileURL } } }`;

let server: TestServer;
let journey: Journey;

beforeAll(async () => {
  server = await startTestServer({ embeddedOnDisk: true });
  await seedDemo(server.db);
  journey = await reportJourney(server, CANARY);
  ok(await journey.owner.gql(REFERENCE, { id: journey.submissionId, ref: CONTROL }));
});
afterAll(() => server.stop());

describe("at rest, nothing holds the canary in plain", () => {
  test("no row of any table holds it, whatever the column", async () => {
    expect((await everyTable(server.db)).map((table) => table.name)).toContain("report_submission_attachments");
    expect(await tablesHolding(server.db, CONTROL)).toContain("report_submissions");
    expect(await tablesHolding(server.db, CANARY)).toEqual([]);
  });

  test("no file under the data directory holds it: database files, blobs, mail outbox", async () => {
    if (!usingPostgres()) await server.db.execute(sql`checkpoint`);
    expect(filesUnder(server.dataDir).some((file) => file.includes(`${join(server.dataDir, "blobs")}`))).toBe(true);
    // On PGlite the database's own files are here, and the plain control value is found in them.
    if (!usingPostgres()) expect(filesHolding(server.dataDir, CONTROL).length).toBeGreaterThan(0);
    expect(filesHolding(server.dataDir, CANARY).map((file) => file.slice(server.dataDir.length))).toEqual([]);
  });
});

describe("those who may read it still read it, opened", () => {
  test("staff: the answer, the file (its name, and its bytes as uploaded), the chat both ways, the note", async () => {
    await expectStaffReadJourney(journey);
  });

  test("the chat image downloads as it was kept, its text in it", async () => {
    const chat = ok(await journey.follow.gql<{ reportConversationMessages: { messages: { type: string; image: { fileURL: string } | null }[] } }>(MESSAGES)).reportConversationMessages.messages;
    const image = chat.find((message) => message.type === "Image");
    const picture = await journey.follow.fetch(image!.image!.fileURL);
    expect(picture.status).toBe(200);
    const svg = await picture.text();
    expect(svg).toContain(`<text x="1" y="12">${CANARY}</text>`);
    expect(picture.headers.get("content-length")).toBe(String(new TextEncoder().encode(svg).length));
  });

  test("the reporter: the staff's reply in the chat, and their file under its own name", async () => {
    const chat = ok(await journey.follow.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(MESSAGES)).reportConversationMessages.messages;
    expect(chat.map((message) => message.message)).toContain(journey.staffMessage);
    const view = ok(await journey.follow.gql<{ reporterSubmission: { attachments: { fileName: string }[] } }>(REPORTER_VIEW)).reporterSubmission;
    expect(view.attachments.map((file) => file.fileName)).toEqual([journey.fileName]);
  });
});
