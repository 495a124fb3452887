import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportConversations, reportSubmissionAssignees, reportSubmissionNotes, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { demoStaff, joinTeam, type DemoStaff } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { sendImage, STAFF_SEND_IMAGE } from "../../fixtures/chat-images.ts";
import { plainJpeg } from "../../fixtures/files.ts";
import { openedRows } from "../../helpers/sealed-text.ts";

let server: TestServer;
let as: DemoStaff;
let form: Awaited<ReturnType<typeof demoForm>>;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  as = await demoStaff(server);
  form = await demoForm(server, "demo", "Workplace Misconduct Report");
}, 30_000);
afterAll(() => server.stop());

const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id message from } }`;
const CLOSE = `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed) { status } }`;
const ARCHIVE = `mutation ($id: ID!) { reportSubmissionArchive(id: $id) { archived } }`;

/** A report whose reporter is signed in, with the admin on its team, then closed as Completed. */
async function closedReport() {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.form.id, form.widgets);
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const id = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID)))[0]!.id;
  await joinTeam(as.admin, id);
  const closed = await as.admin.gql(CLOSE, { id });
  if (closed.errors) throw new Error(JSON.stringify(closed.errors));
  return { id, reporter };
}

const state = async (id: string) => {
  const [submission] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id));
  const [conversation] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, id));
  return { status: submission!.status, concluded: conversation!.concluded, closed: submission!.closedAt !== null };
};
const errorOf = (result: { errors?: { message: string }[] }) => result.errors?.[0]?.message;

describe("writing into a concluded conversation", () => {
  test("a staff reply re-opens the report first: status, status note and audit, then the message", async () => {
    const { id, reporter } = await closedReport();
    expect(await state(id)).toEqual({ status: "Completed", concluded: true, closed: true });
    expect(errorOf(await reporter.gql(SEND, { text: "Can I add something?" }))).toBe("This conversation is closed");

    const sent = await as.admin.gql<{ reportConversationSendMessage: { from: string } }>(SEND, { id, text: "We have more questions." });
    expect(sent.errors).toBeUndefined();
    expect(sent.data?.reportConversationSendMessage.from).toBe("User");
    // Re-opened, so retention's count since closing (decision 052) stops too.
    expect(await state(id)).toEqual({ status: "Assigned", concluded: false, closed: false });
    const notes = await openedRows(server, "note", "note", await server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, id)));
    expect(notes.map((note) => [note.note, note.newStatus])).toContainEqual(["Report Marked as Assigned", "Assigned"]);
    const [admin] = await server.db.select().from(users).where(eq(users.email, "admin@demo.test"));
    const audit = await server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.userId, admin!.id)));
    // One transaction, one timestamp: the entries are told apart by action, not order.
    const actions = audit.map((entry) => entry.action);
    expect(actions.filter((action) => action === "Open")).toHaveLength(1);
    expect(actions).toContain("SendMessage");
    expect(audit.find((entry) => entry.action === "Open")?.metadata).toMatchObject({ from: "Completed", to: "Assigned" });
    // Re-opened, the reporter may answer again.
    expect(errorOf(await reporter.gql(SEND, { text: "Thank you, here is more." }))).toBeUndefined();
  });

  test("an image reply re-opens the report the same way", async () => {
    const { id } = await closedReport();
    const sent = await sendImage(as.admin, { name: "photo.jpg", data: plainJpeg(), type: "image/jpeg" }, { query: STAFF_SEND_IMAGE, variables: { id, caption: "See this" } });
    expect(sent.errors).toBeUndefined();
    expect(await state(id)).toEqual({ status: "Assigned", concluded: false, closed: false });
  });

  test("refused, and nothing changes, for a guest member on the team, staff off the team, and an archived report", async () => {
    const { id } = await closedReport();
    const [guest] = await server.db.select().from(users).where(eq(users.email, "guest@demo.test"));
    await server.db.insert(reportSubmissionAssignees).values({ submissionId: id, userId: guest!.id });
    // With two-factor active (without it the guest cannot reach the report at all, decision 032).
    await setTwoFactorActivated(server, "guest@demo.test", true);
    try {
      expect(errorOf(await as.guest.gql(SEND, { id, text: "Hello" }))).toBe("Re-open the report before replying.");
    } finally {
      await setTwoFactorActivated(server, "guest@demo.test", false);
    }
    expect(errorOf(await as.owner.gql(SEND, { id, text: "Hello" }))).toBe("Only members of the report team can reply.");
    expect(await state(id)).toEqual({ status: "Completed", concluded: true, closed: true });

    expect(errorOf(await as.admin.gql(ARCHIVE, { id }))).toBeUndefined();
    expect(errorOf(await as.admin.gql(SEND, { id, text: "Hello" }))).toBe("Re-open the report before replying.");
    const image = await sendImage(as.admin, { name: "photo.jpg", data: plainJpeg(), type: "image/jpeg" }, { query: STAFF_SEND_IMAGE, variables: { id, caption: "" } });
    expect(errorOf(image)).toBe("Re-open the report before replying.");
    expect(await state(id)).toEqual({ status: "Completed", concluded: true, closed: true });
  });

  test("the re-opening is announced as a report change", async () => {
    const { id } = await closedReport();
    const heard: string[] = [];
    const [submission] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id));
    const stop = server.lantern.services.pubsub.subscribe(`report.updated.${submission!.organisationId}`, (payload) => heard.push(String(payload.submissionId)));
    await as.admin.gql(SEND, { id, text: "Re-opening by replying" });
    await Bun.sleep(200);
    stop();
    expect(heard).toContain(id);
  });
});
