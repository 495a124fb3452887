import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { organisations, reportForms, reportSubmissions, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, joinTeam, loginAs, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import * as files from "../../fixtures/files.ts";
import { blobStoreState } from "../../fixtures/attachments.ts";
import { HOSTILE_SVGS, pngOfSize, sendImage, STAFF_SEND_IMAGE, storedChatImage, SVG_WITH_METADATA, tinyBmp, type SentMessage } from "../../fixtures/chat-images.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

let server: TestServer;
let demoOwner: StaffClient;
let northwindOwner: StaffClient;
let reporter: ReporterClient;
let main: Awaited<ReturnType<typeof demoForm>>;
let submissionId: string;

const NOT_ALLOWED = "Image uploads are not allowed in this conversation.";
const MESSAGES = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 50) { messages { id type message from image { fileURL } } } }`;
const ALLOWED = `{ reporterSubmission { allowChatFileUploads } }`;

async function newReporter(): Promise<{ client: ReporterClient; submissionId: string }> {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets);
  const client = new ReporterClient(server, "demo.localhost");
  await client.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  // The demo owner takes each report on: only the report's team writes in its chat.
  await joinTeam(demoOwner, row!.id);
  return { client, submissionId: row!.id };
}

const firstError = (answer: { errors?: { message: string }[] }) => answer.errors?.[0]?.message;
const sent = (answer: { data?: { reportConversationSendMessage: SentMessage } | null }) => answer.data!.reportConversationSendMessage;

async function expectNothingHalfStored() {
  const state = await blobStoreState(server);
  expect(state.temporaryFiles).toBe(0);
  expect(state.files).toBe(state.rows);
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  demoOwner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
  northwindOwner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  main = await demoForm(server, "demo", "Workplace Misconduct Report");
  ({ client: reporter, submissionId } = await newReporter());
});
afterAll(() => server.stop());

describe("a reporter's photo", () => {
  let photo: SentMessage;

  test("is stored without its EXIF (GPS included), under a neutral name, with an audit entry that names no file", async () => {
    const answer = await sendImage(reporter, { name: "IMG_2041 Jane.jpg", data: files.jpegWithMetadata(), type: "image/jpeg" });
    expect(answer.errors).toBeUndefined();
    photo = sent(answer);
    expect(photo).toMatchObject({ type: "Image", message: "", from: "Guest", image: { fileURL: `/api/files/chat-images/${photo.id}` } });
    const stored = await storedChatImage(server, photo.id);
    expect(stored.bytes).toEqual(files.plainJpeg());
    expect(files.containsText(stored.bytes, "Exif") || files.containsText(stored.bytes, "GPSLatitude")).toBe(false);
    expect(stored.row).toMatchObject({ purpose: "ChatImage", mimeType: "image/jpeg", sizeBytes: stored.bytes.length });
    expect({ fileName: stored.fileName, sealedName: stored.row.fileName.startsWith("lx1:"), sealedBytes: files.containsText(stored.sealed, "JFIF") }).toEqual({ fileName: "chat-image.jpg", sealedName: true, sealedBytes: false });
    expect(stored.row.storageKey).toStartWith("chat-image/");
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, "SendMessage")));
    expect(audit.at(-1)).toMatchObject({ userId: null, metadata: { message_type: "Image", mime_type: "image/jpeg" } });
    expect(JSON.stringify(audit.at(-1))).not.toContain("IMG_2041");
  });

  test("shows for staff of the organisation and downloads for them and its reporter, inline and sandboxed", async () => {
    const page = await demoOwner.gql<{ reportConversationMessages: { messages: SentMessage[] } }>(MESSAGES, { id: submissionId });
    expect(page.data?.reportConversationMessages.messages.find((m) => m.id === photo.id)).toMatchObject({ type: "Image", image: { fileURL: photo.image!.fileURL } });
    for (const response of [await reporter.fetch(photo.image!.fileURL), await demoOwner.fetch(photo.image!.fileURL)]) {
      expect(response.status).toBe(200);
      expect(Object.fromEntries(["content-type", "content-disposition", "cache-control", "x-content-type-options", "content-security-policy"].map((h) => [h, response.headers.get(h)]))).toEqual({
        "content-type": "image/jpeg",
        "content-disposition": "inline",
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      });
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(files.plainJpeg());
    }
  });

  test("is not found for another organisation's staff, another reporter, anyone signed out, and ids that name no image", async () => {
    const other = (await newReporter()).client;
    const textMessage = sent(await demoOwner.gql<{ reportConversationSendMessage: SentMessage }>(`mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "Thanks" }) { id type message from image { fileURL } } }`, { id: submissionId }));
    const attempts = [
      await northwindOwner.fetch(photo.image!.fileURL),
      await other.fetch(photo.image!.fileURL),
      await anonymous(server).fetch(photo.image!.fileURL),
      await new ReporterClient(server, "northwind.localhost").fetch(photo.image!.fileURL),
      await reporter.fetch("/api/files/chat-images/not-a-uuid"),
      await reporter.fetch(`/api/files/chat-images/${crypto.randomUUID()}`),
      await reporter.fetch(`/api/files/chat-images/${textMessage.id}`),
    ];
    for (const response of attempts) expect({ status: response.status, body: await response.json() }).toMatchObject({ status: 404, body: { error: "File not found" } });
  });

  test("arrives live for staff watching the conversation", async () => {
    const client = wsClient(server, demoOwner.cookie);
    const live = collect<{ data: { reportConversationMessage: { action: string; message: SentMessage } } }>(client, `subscription ($id: ID) { reportConversationMessage(reportSubmissionID: $id) { action message { id type message from image { fileURL } } } }`, 1, { id: submissionId });
    await Bun.sleep(300);
    const png = sent(await sendImage(reporter, { name: "chart.png", data: files.pngWithText() }));
    await live.done;
    live.dispose();
    await client.dispose();
    expect(live.results[0]?.data.reportConversationMessage).toEqual({ action: "new", message: { id: png.id, type: "Image", message: "", from: "Guest", image: { fileURL: `/api/files/chat-images/${png.id}` } } });
    expect(files.containsText((await storedChatImage(server, png.id)).bytes, "Jane Reporter")).toBe(false);
  });
});

describe("who may send images", () => {
  test("a form without chat uploads refuses its reporter (403), while staff may still send one with a caption", async () => {
    await server.db.update(reportForms).set({ allowChatFileUploads: false }).where(eq(reportForms.id, main.form.id));
    try {
      expect((await reporter.gql<{ reporterSubmission: { allowChatFileUploads: boolean } }>(ALLOWED)).data?.reporterSubmission.allowChatFileUploads).toBe(false);
      const refused = await sendImage(reporter, { name: "photo.jpg", data: files.plainJpeg() });
      expect(refused.errors?.[0]).toMatchObject({ message: NOT_ALLOWED, extensions: { code: "FORBIDDEN" } });
      const staff = await sendImage(demoOwner, { name: "floor-plan.gif", data: files.gifWithComment() }, { query: STAFF_SEND_IMAGE, variables: { id: submissionId, caption: "  Is this the room?  " } });
      expect(sent(staff)).toMatchObject({ type: "Image", message: "Is this the room?", from: "User" });
      expect((await reporter.fetch(sent(staff).image!.fileURL)).status).toBe(200);
      await expectNothingHalfStored();
    } finally {
      await server.db.update(reportForms).set({ allowChatFileUploads: true }).where(eq(reportForms.id, main.form.id));
    }
  });

  test("an enquiry follows the organisation's allowGeneralEnquiryChatFileUploads", async () => {
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const visitor = new ReporterClient(server, "demo.localhost");
    const enquiry = await visitor.gql<{ guestSendEnquiry: { reportID: string; pin: string } }>(`mutation ($org: ID!) { guestSendEnquiry(organisationID: $org, message: "Can I send a photo?") { reportID pin } }`, { org: demo!.id });
    const follow = new ReporterClient(server, "demo.localhost");
    await follow.post("/api/auth/report_login", { reportID: enquiry.data!.guestSendEnquiry.reportID, password: enquiry.data!.guestSendEnquiry.pin });
    const allowed = async () => (await follow.gql<{ reporterSubmission: { allowChatFileUploads: boolean } }>(ALLOWED)).data?.reporterSubmission.allowChatFileUploads;
    await updateOrganisations(server, eq(organisations.id, demo!.id), { allowGeneralEnquiryChatFileUploads: false });
    expect(await allowed()).toBe(false);
    expect(firstError(await sendImage(follow, { name: "photo.jpg", data: files.plainJpeg() }))).toBe(NOT_ALLOWED);
    await updateOrganisations(server, eq(organisations.id, demo!.id), { allowGeneralEnquiryChatFileUploads: true });
    expect(await allowed()).toBe(true);
    expect(sent(await sendImage(follow, { name: "photo.jpg", data: files.plainJpeg() })).type).toBe("Image");
  });

  test("a closed report takes no image from its reporter, and nothing is stored", async () => {
    const [closed] = await server.db
      .select({ reportId: reportSubmissions.reportId })
      .from(reportSubmissions)
      .innerJoin(organisations, eq(organisations.id, reportSubmissions.organisationId))
      .where(and(eq(organisations.slug, "demo"), eq(reportSubmissions.status, "Substantiated")));
    const former = new ReporterClient(server, "demo.localhost");
    await former.post("/api/auth/report_login", { reportID: closed!.reportId, password: DEMO_REPORT_PASSWORD });
    const before = await blobStoreState(server);
    expect(firstError(await sendImage(former, { name: "photo.jpg", data: files.plainJpeg() }))).toBe("This conversation is closed");
    expect(await blobStoreState(server)).toEqual(before);
  });

  test("a page on another site cannot send one; nor can a visitor without a session", async () => {
    const crossSite = await sendImage(reporter, { name: "photo.jpg", data: files.plainJpeg() }, { headers: { "Sec-Fetch-Site": "same-site" } });
    expect(crossSite.status).toBe(403);
    expect(firstError(await sendImage(new ReporterClient(server, "demo.localhost"), { name: "photo.jpg", data: files.plainJpeg() }))).toBe("You must login to view this page");
  });
});

describe("what counts as an image", () => {
  test("at most 5,000,000 bytes: 'File size too large' above, accepted at the limit, a request past 6 MB cut off", async () => {
    const tooLarge = new Uint8Array(5_000_001);
    tooLarge.set([0xff, 0xd8, 0xff]);
    expect(firstError(await sendImage(reporter, { name: "big.jpg", data: tooLarge }))).toBe("File size too large");
    const atLimit = sent(await sendImage(reporter, { name: "big.png", data: pngOfSize(5_000_000, Uint8Array.from(Bun.deflateSync(Uint8Array.from([0, 1, 2, 3])))) }));
    expect((await storedChatImage(server, atLimit.id)).row.sizeBytes).toBe(5_000_000);
    expect((await sendImage(reporter, { name: "huge.jpg", data: new Uint8Array(6_500_000) })).status).toBe(413);
    // Only multipart requests get the larger limit; JSON to GraphQL keeps its 1 MB.
    const json = await reporter.fetch("/api/gql/query", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: "{ __typename }", x: "a".repeat(2_000_000) }) });
    expect(json.status).toBe(413);
    await expectNothingHalfStored();
  });

  test("'Invalid file' unless the bytes are the image type the name says", async () => {
    const cases: [string, Uint8Array<ArrayBuffer> | string][] = [
      ["chart.png", "this is just text, not a picture"],
      ["photo.jpg", files.pngWithText()],
      ["notes.txt", "hello"],
      ["no-extension", files.plainJpeg()],
      ["empty.gif", ""],
      ["broken.bmp", "BM but not really a bitmap"],
    ];
    for (const [name, data] of cases) expect([name, firstError(await sendImage(reporter, { name, data }))]).toEqual([name, "Invalid file"]);
    const bmp = sent(await sendImage(reporter, { name: "pixel.BMP", data: tinyBmp() }));
    expect((await storedChatImage(server, bmp.id)).row).toMatchObject({ mimeType: "image/bmp", sizeBytes: 58 });
    await expectNothingHalfStored();
  });

  test("an SVG that could run or fetch anything is refused; a clean one is kept without its metadata", async () => {
    for (const [name, svg] of Object.entries(HOSTILE_SVGS)) expect([name, firstError(await sendImage(reporter, { name: "drawing.svg", data: svg }))]).toEqual([name, "Invalid file"]);
    const drawing = sent(await sendImage(reporter, { name: "drawing.svg", data: SVG_WITH_METADATA }));
    const stored = await storedChatImage(server, drawing.id);
    expect(stored.row.mimeType).toBe("image/svg+xml");
    for (const gone of ["<metadata", "Jane", "jane", "<!--", "inkscape", "sodipodi"]) expect(stored.text).not.toContain(gone);
    for (const kept of ['<rect width="20" height="20" fill="url(#fade)"/>', '<use xlink:href="#fade"/>', "Q3 &amp; Q4", 'viewBox="0 0 20 20"']) expect(stored.text).toContain(kept);
    const download = await reporter.fetch(drawing.image!.fileURL);
    expect(download.headers.get("content-type")).toBe("image/svg+xml");
    expect(download.headers.get("content-security-policy")).toContain("sandbox");
  });

  test("the input's own rules: an image needs its file, text carries none, only Text and Image are sent", async () => {
    const json = (input: string) => reporter.gql(`mutation { reportConversationSendMessage(input: ${input}) { id } }`);
    expect(firstError(await json(`{ type: Image, message: "" }`))).toBe("Required");
    expect(firstError(await json(`{ type: Text }`))).toBe("Required");
    expect(firstError(await json(`{ type: System, message: "hello" }`))).toBe("Only text and image messages can be sent here");
    const textWithFile = await sendImage(reporter, { name: "photo.jpg", data: files.plainJpeg() }, { query: `mutation ($imageFile: File!) { reportConversationSendMessage(input: { type: Text, message: "hi", imageFile: $imageFile }) { id } }` });
    expect(firstError(textWithFile)).toBe("Only image messages can carry a file");
    expect(firstError(await reporter.gql(`mutation ($f: File!) { reportConversationSendMessage(input: { type: Image, imageFile: $f }) { id } }`, { f: "not a file" }))).toContain("Invalid file");
  });
});
