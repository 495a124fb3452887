import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import {
  blobs,
  reportConversationMessages,
  reportConversations,
  reportSubmissionAnswers,
  reportSubmissionAssignees,
  reportSubmissionAttachments,
  reportSubmissionNotes,
  reportSubmissions,
  reporterSessions,
  userActivities,
  users,
} from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { reportUpdatedTopic } from "../../../api/modules/reports/events.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { openedRows } from "../../helpers/sealed-text.ts";
import { COMPLETE, demoForm, pagesOfAnswers, ReporterClient, submitReport, UPDATE } from "../../helpers/reporter.ts";
import { readableMail, startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server.ts";
import { upload } from "../../fixtures/attachments.ts";
import { sendImage } from "../../fixtures/chat-images.ts";
import { plainJpeg } from "../../fixtures/files.ts";

let server: TestServer;
let smtp: TestSmtpServer;
let form: Awaited<ReturnType<typeof demoForm>>;
const as: Record<"owner" | "admin" | "member" | "guest" | "superAdmin" | "northwind", StaffClient> = {} as never;
const userIds = new Map<string, string>();

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: smtp.url } });
  await seedDemo(server.db);
  form = await demoForm(server, "demo", "Workplace Misconduct Report");
  const logins = { owner: "owner@demo.test", admin: "admin@demo.test", member: "member@demo.test", guest: "guest@demo.test", superAdmin: "admin@lantern.test", northwind: "owner@northwind.test" };
  for (const [key, email] of Object.entries(logins)) as[key as keyof typeof as] = await loginAs(server, email, DEMO_PASSWORD);
  for (const user of await server.db.select({ id: users.id, email: users.email }).from(users)) userIds.set(user.email, user.id);
  // The demo seed and one password check per login: seconds on a busy machine, beyond the 5 s hook default.
}, 30_000);
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

type Role = "owner" | "admin" | "member" | "guest";
const EMAILS: Record<Role, string> = { owner: "owner@demo.test", admin: "admin@demo.test", member: "member@demo.test", guest: "guest@demo.test" };

/** A new report by a real reporter, its team put in place directly (assigning is another suite's). */
async function freshReport(team: Role[] = ["member"], options: { attachment?: string } = {}) {
  const reporter = new ReporterClient(server, "demo.localhost");
  let credentials;
  if (options.attachment) {
    // The flow by hand, so an attachment can go in before completion.
    await reporter.post("/api/auth/report_start", { reportFormID: form.form.id });
    expect((await upload(reporter, "evidence.txt", options.attachment)).status).toBe(200);
    for (const [page, answers] of pagesOfAnswers(form.widgets).entries()) await reporter.gql(UPDATE, { page, answers });
    credentials = (await reporter.gql<{ userReportSubmissionComplete: { reportID: string; generatedPassword: string } }>(COMPLETE)).data!.userReportSubmissionComplete;
  } else {
    credentials = await submitReport(reporter, form.form.id, form.widgets);
  }
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  if (team.length > 0) {
    await server.db.insert(reportSubmissionAssignees).values(team.map((role, index) => ({ submissionId: row!.id, userId: userIds.get(EMAILS[role])!, isOwner: index === 0 })));
    await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, row!.id));
  }
  const signedIn = new ReporterClient(server, "demo.localhost");
  await signedIn.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  return { id: row!.id, reportID: credentials.reportID, reporter: signedIn };
}

const stored = async (id: string) => (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id)))[0]!;
const audit = (id: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, action)));
const errorOf = (result: { errors?: { message: string }[] }) => result.errors?.[0]?.message;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

const VIEW = "id reportID status priority archived internalReference isMuted deletedAt";
const CLOSE = `mutation ($id: ID!, $status: SubmissionStatus!, $note: String) { reportSubmissionClose(id: $id, completeStatus: $status, note: $note) { ${VIEW} } }`;
const OPEN = `mutation ($id: ID!) { reportSubmissionOpen(id: $id) { ${VIEW} } }`;
const ARCHIVE = `mutation ($id: ID!) { reportSubmissionArchive(id: $id) { ${VIEW} } }`;
const UNARCHIVE = `mutation ($id: ID!) { reportSubmissionUnarchive(id: $id) { ${VIEW} } }`;
const HARD_DELETE = `mutation ($id: ID!) { reportSubmissionHardDelete(id: $id) { ${VIEW} } }`;
const PRIORITY = `mutation ($id: ID!, $priority: Priority!) { reportSubmissionSetPriority(id: $id, priority: $priority) { ${VIEW} } }`;
const REFERENCE = `mutation ($id: ID!, $ref: String!) { reportSubmissionInternalReference(id: $id, internalReference: $ref) { ${VIEW} } }`;
const MUTE = `mutation ($id: ID!, $muted: Boolean!) { reportSubmissionMuteNotification(id: $id, muted: $muted) { ${VIEW} } }`;
const FORWARD = `mutation ($id: ID!, $email: String!) { reportSubmissionForwardEmail(id: $id, email: $email) { id } }`;
const GET = `query ($id: ID!) { reportSubmissionGet(id: $id) { id } }`;
const REPORTER_VIEW = `{ reporterSubmission { conversationClosed } }`;
type View = { status: string; priority: string; archived: boolean; internalReference: string | null; isMuted: boolean; deletedAt: string | null };

describe("reportSubmissionClose", () => {
  test("allowed: an assigned member closes; status, note, conversation, audit, event and the reporter's view follow", async () => {
    const report = await freshReport();
    const events: unknown[] = [];
    const stop = server.lantern.services.pubsub.subscribe(reportUpdatedTopic((await stored(report.id)).organisationId), (payload) => events.push(payload));
    const result = await as.member.gql<{ reportSubmissionClose: View }>(CLOSE, { id: report.id, status: "NotSubstantiated" });
    expect(result.errors).toBeUndefined();
    expect(result.data?.reportSubmissionClose.status).toBe("NotSubstantiated");
    const notes = await openedRows(server, "note", "note", await server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, report.id)));
    expect(notes.map(({ note, newStatus }) => ({ note, newStatus }))).toEqual([{ note: "Report Marked as Not Substantiated", newStatus: "NotSubstantiated" }]);
    const [conversation] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
    expect(conversation!.concluded).toBe(true);
    expect((await audit(report.id, "Close"))[0]?.metadata).toEqual({ from: "Assigned", to: "NotSubstantiated" });
    expect((await report.reporter.gql<{ reporterSubmission: { conversationClosed: boolean } }>(REPORTER_VIEW)).data?.reporterSubmission.conversationClosed).toBe(true);
    await Bun.sleep(100);
    stop();
    expect(events).toContainEqual({ submissionId: report.id });
  });

  test("allowed: the note given is the status note's text", async () => {
    const report = await freshReport();
    await as.member.gql(CLOSE, { id: report.id, status: "Completed", note: "  Resolved with HR.  " });
    const [note] = await openedRows(server, "note", "note", await server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, report.id)));
    expect(note).toMatchObject({ note: "Resolved with HR.", newStatus: "Completed" });
  });

  test("denied: not on the team, a guest, a non-outcome status, an already closed report, another organisation", async () => {
    const report = await freshReport(["member", "guest"]);
    expect(errorOf(await as.owner.gql(CLOSE, { id: report.id, status: "Completed" }))).toBe("Only members of the report team can do this.");
    expect(codeOf(await as.guest.gql(CLOSE, { id: report.id, status: "Completed" }))).toBe("FORBIDDEN");
    expect(errorOf(await as.member.gql(CLOSE, { id: report.id, status: "Assigned" }))).toBe("Invalid status");
    expect(errorOf(await as.northwind.gql(CLOSE, { id: report.id, status: "Completed" }))).toBe("Report Submission is not found");
    expect((await stored(report.id)).status).toBe("Assigned");
    expect(await audit(report.id, "Close")).toHaveLength(0);
    await as.member.gql(CLOSE, { id: report.id, status: "Rejected" });
    expect(errorOf(await as.member.gql(CLOSE, { id: report.id, status: "Completed" }))).toBe("Report is already closed");
    expect((await stored(report.id)).status).toBe("Rejected");
  });
});

describe("reportSubmissionOpen", () => {
  test("allowed: an assigned member re-opens; the reporter may write again", async () => {
    const report = await freshReport();
    await as.member.gql(CLOSE, { id: report.id, status: "Completed" });
    const result = await as.member.gql<{ reportSubmissionOpen: View }>(OPEN, { id: report.id });
    expect(result.data?.reportSubmissionOpen.status).toBe("Assigned");
    const notes = await openedRows(server, "note", "note", await server.db.select().from(reportSubmissionNotes).where(and(eq(reportSubmissionNotes.submissionId, report.id), eq(reportSubmissionNotes.newStatus, "Assigned"))));
    expect(notes.map((note) => note.note)).toEqual(["Report Marked as Assigned"]);
    expect((await audit(report.id, "Open"))[0]?.metadata).toEqual({ from: "Completed", to: "Assigned" });
    expect((await report.reporter.gql<{ reporterSubmission: { conversationClosed: boolean } }>(REPORTER_VIEW)).data?.reporterSubmission.conversationClosed).toBe(false);
  });

  test("denied: an open report, an archived one, someone off the team, another organisation", async () => {
    const report = await freshReport(["member", "guest"]);
    expect(errorOf(await as.member.gql(OPEN, { id: report.id }))).toBe("Unable to Open Report, please try again");
    await as.member.gql(CLOSE, { id: report.id, status: "Completed" });
    expect(codeOf(await as.guest.gql(OPEN, { id: report.id }))).toBe("FORBIDDEN");
    expect(codeOf(await as.owner.gql(OPEN, { id: report.id }))).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(OPEN, { id: report.id }))).toBe("Report Submission is not found");
    await as.admin.gql(ARCHIVE, { id: report.id });
    expect(errorOf(await as.member.gql(OPEN, { id: report.id }))).toBe("Unable to Open Report, please try again");
    expect((await stored(report.id)).status).toBe("Completed");
    expect(await audit(report.id, "Open")).toHaveLength(0);
  });
});

describe("reportSubmissionArchive and reportSubmissionUnarchive", () => {
  test("allowed: an admin archives a completed report and restores it", async () => {
    const report = await freshReport();
    await as.member.gql(CLOSE, { id: report.id, status: "Completed" });
    expect((await as.admin.gql<{ reportSubmissionArchive: View }>(ARCHIVE, { id: report.id })).data?.reportSubmissionArchive.archived).toBe(true);
    expect(await audit(report.id, "Archive")).toHaveLength(1);
    expect((await as.owner.gql<{ reportSubmissionUnarchive: View }>(UNARCHIVE, { id: report.id })).data?.reportSubmissionUnarchive.archived).toBe(false);
    expect(await audit(report.id, "Unarchive")).toHaveLength(1);
  });

  test("denied: a report not Closed or Completed, a member, another organisation", async () => {
    const report = await freshReport();
    expect(errorOf(await as.admin.gql(ARCHIVE, { id: report.id }))).toBe("Cannot archive a report that has not been closed or completed.");
    await as.member.gql(CLOSE, { id: report.id, status: "Substantiated" });
    expect(errorOf(await as.admin.gql(ARCHIVE, { id: report.id }))).toBe("Cannot archive a report that has not been closed or completed.");
    await server.db.update(reportSubmissions).set({ status: "Closed" }).where(eq(reportSubmissions.id, report.id));
    expect(codeOf(await as.member.gql(ARCHIVE, { id: report.id }))).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(ARCHIVE, { id: report.id }))).toBe("Report Submission is not found");
    expect((await stored(report.id)).archived).toBe(false);
    expect(await audit(report.id, "Archive")).toHaveLength(0);
  });
});

describe("reportSubmissionHardDelete", () => {
  test("allowed: the owner deletes an archived report; its content and files go, the row stays", async () => {
    const report = await freshReport(["member"], { attachment: "Evidence the reporter attached" });
    await as.member.gql(`mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`, { id: report.id, text: "Any more details?" });
    expect((await sendImage(report.reporter, { name: "photo.jpg", data: plainJpeg(), type: "image/jpeg" })).status).toBe(200);
    const keys = (await server.db.select({ key: blobs.storageKey }).from(blobs)).map((blob) => blob.key);
    const [conversation] = await server.db.select().from(reportConversations).where(eq(reportConversations.submissionId, report.id));
    expect(await server.db.select().from(reportConversationMessages).where(eq(reportConversationMessages.conversationId, conversation!.id))).toHaveLength(2);
    await as.member.gql(CLOSE, { id: report.id, status: "Completed" });
    await as.owner.gql(ARCHIVE, { id: report.id });
    expect((await as.owner.gql<{ reportSubmissionGet: { id: string } }>(GET, { id: report.id })).data?.reportSubmissionGet.id).toBe(report.id);
    const result = await as.owner.gql<{ reportSubmissionHardDelete: View }>(HARD_DELETE, { id: report.id });
    expect(result.errors).toBeUndefined();
    expect(result.data?.reportSubmissionHardDelete.deletedAt).not.toBeNull();
    const row = await stored(report.id);
    expect(row).toMatchObject({ reportId: report.reportID, status: "Completed", deletedByUserId: userIds.get("owner@demo.test"), passwordHash: null });
    for (const table of [reportSubmissionAnswers, reportSubmissionAttachments, reportSubmissionNotes, reportConversations, reporterSessions]) {
      expect(await server.db.select().from(table).where(eq(table.submissionId, report.id))).toHaveLength(0);
    }
    expect(await server.db.select().from(reportConversationMessages).where(eq(reportConversationMessages.conversationId, conversation!.id))).toHaveLength(0);
    // Other reports' chats are untouched.
    expect(await server.db.select().from(reportConversationMessages).where(eq(reportConversationMessages.organisationId, row.organisationId))).not.toHaveLength(0);
    const remaining = new Set((await server.db.select({ key: blobs.storageKey }).from(blobs)).map((blob) => blob.key));
    const gone = keys.filter((key) => !remaining.has(key));
    expect(gone.length).toBe(2);
    for (const key of gone) expect(await server.lantern.services.blobs.exists(key)).toBe(false);
    expect((await audit(report.id, "HardDelete"))[0]?.metadata).toEqual({ files: 2 });
    // Invisible everywhere: the reporter's session is gone and staff get "not found".
    expect((await report.reporter.gql<{ reporterSubmission: unknown }>(REPORTER_VIEW)).data?.reporterSubmission ?? null).toBeNull();
    expect(errorOf(await as.owner.gql(GET, { id: report.id }))).toBe("Report Submission is not found");
    expect(errorOf(await as.owner.gql(PRIORITY, { id: report.id, priority: "High" }))).toBe("Report Submission is not found");
    expect(errorOf(await as.owner.gql(HARD_DELETE, { id: report.id }))).toBe("Report has already been deleted");
    expect(errorOf(await as.northwind.gql(HARD_DELETE, { id: report.id }))).toBe("Report Submission is not found");
  });

  test("denied: a report not archived, an admin, another organisation", async () => {
    const report = await freshReport();
    expect(errorOf(await as.owner.gql(HARD_DELETE, { id: report.id }))).toBe("Only archived reports can be deleted.");
    await as.member.gql(CLOSE, { id: report.id, status: "Completed" });
    await as.owner.gql(ARCHIVE, { id: report.id });
    expect(codeOf(await as.admin.gql(HARD_DELETE, { id: report.id }))).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(HARD_DELETE, { id: report.id }))).toBe("Report Submission is not found");
    expect((await stored(report.id)).deletedAt).toBeNull();
    expect(await server.db.select().from(reportSubmissionAnswers).where(eq(reportSubmissionAnswers.submissionId, report.id))).not.toHaveLength(0);
    expect(await audit(report.id, "HardDelete")).toHaveLength(0);
  });
});

describe("reportSubmissionSetPriority", () => {
  test("allowed: an assigned member, and an admin who is not on the team", async () => {
    const report = await freshReport();
    expect((await as.member.gql<{ reportSubmissionSetPriority: View }>(PRIORITY, { id: report.id, priority: "High" })).data?.reportSubmissionSetPriority.priority).toBe("High");
    expect((await as.admin.gql<{ reportSubmissionSetPriority: View }>(PRIORITY, { id: report.id, priority: "Medium" })).data?.reportSubmissionSetPriority.priority).toBe("Medium");
    expect((await audit(report.id, "SetPriority")).map((entry) => entry.metadata)).toContainEqual({ from: "High", to: "Medium" });
  });

  test("denied: an assigned guest, a super admin, another organisation", async () => {
    const report = await freshReport(["member", "guest"]);
    expect(codeOf(await as.guest.gql(PRIORITY, { id: report.id, priority: "High" }))).toBe("FORBIDDEN");
    expect(codeOf(await as.superAdmin.gql(PRIORITY, { id: report.id, priority: "High" }))).toBe("FORBIDDEN");
    expect(errorOf(await as.northwind.gql(PRIORITY, { id: report.id, priority: "High" }))).toBe("Report Submission is not found");
    expect((await stored(report.id)).priority).toBe("Low");
    expect(await audit(report.id, "SetPriority")).toHaveLength(0);
  });
});

describe("reportSubmissionInternalReference", () => {
  test("allowed: the owner sets it, trimmed", async () => {
    const report = await freshReport();
    const result = await as.owner.gql<{ reportSubmissionInternalReference: View }>(REFERENCE, { id: report.id, ref: "  HR-7  " });
    expect(result.data?.reportSubmissionInternalReference.internalReference).toBe("HR-7");
    expect((await audit(report.id, "InternalReference"))[0]?.metadata).toEqual({ from: "", to: "HR-7" });
  });

  test("denied: a super admin, a guest, too long, another organisation", async () => {
    const report = await freshReport(["member", "guest"]);
    expect(codeOf(await as.superAdmin.gql(REFERENCE, { id: report.id, ref: "X" }))).toBe("FORBIDDEN");
    expect(codeOf(await as.guest.gql(REFERENCE, { id: report.id, ref: "X" }))).toBe("FORBIDDEN");
    expect(errorOf(await as.member.gql(REFERENCE, { id: report.id, ref: "x".repeat(201) }))).toBe("Internal reference must be at most 200 characters.");
    expect(errorOf(await as.northwind.gql(REFERENCE, { id: report.id, ref: "X" }))).toBe("Report Submission is not found");
    expect((await stored(report.id)).internalReference).toBe("");
    expect(await audit(report.id, "InternalReference")).toHaveLength(0);
  });
});

describe("reportSubmissionMuteNotification", () => {
  test("allowed: an assigned user mutes their own notifications without touching the report's updatedAt", async () => {
    const report = await freshReport(["member", "admin"]);
    const before = (await stored(report.id)).updatedAt;
    expect((await as.member.gql<{ reportSubmissionMuteNotification: View }>(MUTE, { id: report.id, muted: true })).data?.reportSubmissionMuteNotification.isMuted).toBe(true);
    const team = await server.db.select().from(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report.id));
    expect(Object.fromEntries(team.map((member) => [member.userId, member.isMuted]))).toEqual({ [userIds.get("member@demo.test")!]: true, [userIds.get("admin@demo.test")!]: false });
    expect((await stored(report.id)).updatedAt).toEqual(before);
    expect(await audit(report.id, "MuteNotification")).toHaveLength(1);
  });

  test("denied: someone off the team, another organisation", async () => {
    const report = await freshReport();
    expect(errorOf(await as.owner.gql(MUTE, { id: report.id, muted: true }))).toBe("Join the report team to change its notifications.");
    expect(errorOf(await as.northwind.gql(MUTE, { id: report.id, muted: true }))).toBe("Report Submission is not found");
    expect(await audit(report.id, "MuteNotification")).toHaveLength(0);
  });
});


describe("reportSubmissionForwardEmail", () => {
  test("allowed: the mail holds the report ID, organisation and link, and nothing of the report's content", async () => {
    const report = await freshReport();
    await as.member.gql(`mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`, { id: report.id, text: "Secret chat line" });
    const sent = smtp.messages.length;
    const result = await as.member.gql(FORWARD, { id: report.id, email: " Colleague@Example.com " });
    expect(result.errors).toBeUndefined();
    const mail = (await smtp.waitFor(sent + 1))[sent]!;
    expect(mail.to).toEqual(["colleague@example.com"]);
    const body = readableMail(mail.raw);
    expect(body).toContain(report.reportID);
    expect(body).toContain("Demo Organisation");
    expect(body).toContain(`/admin/manage/reports/overview/${form.form.id}/${report.id}`);
    expect(body).toContain("://app.localhost");
    // Choice answers such as "No" are too short to look for; every free-text answer is checked.
    for (const answer of pagesOfAnswers(form.widgets).flat()) for (const text of answer.answer.filter((value) => value.length > 8)) expect(body).not.toContain(text);
    for (const text of ["Secret chat line", "Priya", "Raman", "Answer to"]) expect(body).not.toContain(text);
    expect((await audit(report.id, "ForwardEmail"))[0]?.metadata).toEqual({ email: "colleague@example.com" });
  });

  test("a mail server that refuses: the user is told, and the audit records the failure", async () => {
    const report = await freshReport();
    const mailer = server.lantern.services.mailer;
    const send = mailer.send;
    mailer.send = () => Promise.reject(new Error("connection refused"));
    try {
      const result = await as.member.gql(FORWARD, { id: report.id, email: "x@example.com" });
      expect({ code: codeOf(result), message: errorOf(result) }).toEqual({ code: "UNAVAILABLE", message: "The email could not be sent. Please try again later." });
    } finally {
      mailer.send = send;
    }
    expect(await audit(report.id, "ForwardEmailFailed")).toHaveLength(1);
  });

  test("denied: a bad address, someone who cannot see it, another organisation; no mail leaves", async () => {
    const report = await freshReport(["admin"]);
    const sent = smtp.messages.length;
    expect(errorOf(await as.admin.gql(FORWARD, { id: report.id, email: "not-an-address" }))).toBe("Invalid email address");
    expect(errorOf(await as.member.gql(FORWARD, { id: report.id, email: "x@example.com" }))).toBe("Report Submission is not found");
    expect(errorOf(await as.northwind.gql(FORWARD, { id: report.id, email: "x@example.com" }))).toBe("Report Submission is not found");
    expect(codeOf(await as.superAdmin.gql(FORWARD, { id: report.id, email: "x@example.com" }))).toBe("FORBIDDEN");
    await Bun.sleep(200);
    expect(smtp.messages.length).toBe(sent);
    expect(await audit(report.id, "ForwardEmail")).toHaveLength(0);
  });
});
