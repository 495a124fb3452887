import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportSubmissionAssignees, reportSubmissionNotes, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { openedRows } from "../../helpers/sealed-text.ts";

let server: TestServer;
let form: Awaited<ReturnType<typeof demoForm>>;
const as: Record<"owner" | "admin" | "member" | "guest" | "northwind", StaffClient> = {} as never;
const userIds = new Map<string, string>();

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  form = await demoForm(server, "demo", "Workplace Misconduct Report");
  const logins = { owner: "owner@demo.test", admin: "admin@demo.test", member: "member@demo.test", guest: "guest@demo.test", northwind: "owner@northwind.test" };
  for (const [key, email] of Object.entries(logins)) as[key as keyof typeof as] = await loginAs(server, email, DEMO_PASSWORD);
  for (const user of await server.db.select({ id: users.id, email: users.email }).from(users)) userIds.set(user.email, user.id);
  // The demo seed and one password check per login: seconds on a busy machine, beyond the 5 s hook default.
}, 30_000);
afterAll(() => server.stop());

/** A new report whose team is put in place directly (assigning is another suite's). */
async function freshReport(team: string[] = ["member@demo.test"]) {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.form.id, form.widgets);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  await server.db.insert(reportSubmissionAssignees).values(team.map((email, index) => ({ submissionId: row!.id, userId: userIds.get(email)!, isOwner: index === 0 })));
  await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, row!.id));
  return row!.id;
}

const errorOf = (result: { errors?: { message: string }[] }) => result.errors?.[0]?.message;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;
const audit = (id: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, id), eq(userActivities.action, action)));
/** The notes as stored, opened (they are sealed at rest). */
const notesOf = async (id: string) => openedRows(server, "note", "note", await server.db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.submissionId, id)));

const NOTE = "id note newStatus archived editable deletable author { id firstName lastName role }";
const LIST = `query ($id: ID!, $limit: Int, $offset: Int) { reportSubmissionNotes(reportSubmissionID: $id, limit: $limit, offset: $offset) { total list { ${NOTE} } } }`;
const CREATE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { ${NOTE} } }`;
const UPDATE = `mutation ($id: ID!, $note: String!) { reportSubmissionNoteUpdate(id: $id, note: $note) { ${NOTE} } }`;
const ARCHIVE = `mutation ($id: ID!) { reportSubmissionNoteArchive(id: $id) { ${NOTE} } }`;
const CLOSE = `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed) { id } }`;

interface NoteView {
  id: string;
  note: string;
  newStatus: string | null;
  archived: boolean;
  editable: boolean;
  deletable: boolean;
  author: { id: string; firstName: string; lastName: string; role: string } | null;
}
type List = { reportSubmissionNotes: { total: number; list: NoteView[] } };

async function create(client: StaffClient, id: string, note: string): Promise<NoteView> {
  const result = await client.gql<{ reportSubmissionNoteCreate: NoteView }>(CREATE, { id, note });
  if (!result.data) throw new Error(JSON.stringify(result.errors));
  return result.data.reportSubmissionNoteCreate;
}

describe("reportSubmissionNotes", () => {
  test("allowed: newest first, archived ones left out, paged, with who may edit what", async () => {
    const id = await freshReport(["member@demo.test", "admin@demo.test"]);
    const first = await create(as.member, id, "First look");
    await create(as.admin, id, "Admin's view");
    const archived = await create(as.member, id, "Wrong report");
    await as.member.gql(ARCHIVE, { id: archived.id });
    await as.member.gql(CLOSE, { id });
    const listed = (await as.member.gql<List>(LIST, { id })).data!.reportSubmissionNotes;
    expect(listed.total).toBe(3);
    expect(listed.list.map((note) => [note.note, note.editable, note.deletable])).toEqual([
      ["Report Marked as Completed", false, true],
      ["Admin's view", false, false],
      ["First look", true, true],
    ]);
    expect(listed.list[2]!.author).toEqual({ id: userIds.get("member@demo.test")!, firstName: "Priya", lastName: "Raman", role: "MEMBER" });
    expect(listed.list[0]!.newStatus).toBe("Completed");
    const page = (await as.owner.gql<List>(LIST, { id, limit: 1, offset: 2 })).data!.reportSubmissionNotes;
    expect(page).toEqual({ total: 3, list: [{ ...first, editable: false, deletable: false }] });
    // Invalid limits fall back to the default page.
    expect((await as.owner.gql<List>(LIST, { id, limit: -5 })).data!.reportSubmissionNotes.list).toHaveLength(3);
  });

  test("denied: a member off the team, another organisation, no session", async () => {
    const id = await freshReport(["admin@demo.test"]);
    await create(as.admin, id, "Private");
    expect(errorOf(await as.member.gql(LIST, { id }))).toBe("Report Submission is not found");
    expect(errorOf(await as.northwind.gql(LIST, { id }))).toBe("Report Submission is not found");
    expect(codeOf(await anonymous(server).gql(LIST, { id }))).toBe("UNAUTHENTICATED");
  });
});

describe("reportSubmissionNoteCreate", () => {
  test("allowed: assigned users, guests included; trimmed, audited, the report's updatedAt moves", async () => {
    const id = await freshReport(["member@demo.test", "guest@demo.test"]);
    const before = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id)))[0]!.updatedAt;
    const note = await create(as.member, id, "  Spoke to the manager.  ");
    expect(note).toMatchObject({ note: "Spoke to the manager.", newStatus: null, editable: true, archived: false });
    // A guest reaches the report only with two-factor authentication active (decision 032).
    expect(errorOf(await as.guest.gql(CREATE, { id, note: "Outside view" }))).toBe("2FA is required to manage report submissions from different organisations.");
    await setTwoFactorActivated(server, "guest@demo.test", true);
    try {
      expect((await create(as.guest, id, "Outside view")).author?.role).toBe("GUEST_MEMBER");
    } finally {
      await setTwoFactorActivated(server, "guest@demo.test", false);
    }
    expect((await audit(id, "NoteCreate")).map((entry) => entry.metadata)).toContainEqual({ noteId: note.id });
    const after = (await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, id)))[0]!.updatedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime());
  });

  test("denied: an owner not on the team, empty or too long text, another organisation", async () => {
    const id = await freshReport();
    expect(errorOf(await as.owner.gql(CREATE, { id, note: "Hello" }))).toBe("Only members of the report team can add notes.");
    expect(errorOf(await as.member.gql(CREATE, { id, note: "   " }))).toBe("Required");
    expect(codeOf(await as.member.gql(CREATE, { id, note: "x".repeat(10_001) }))).toBe("BAD_USER_INPUT");
    expect(errorOf(await as.northwind.gql(CREATE, { id, note: "Hello" }))).toBe("Report Submission is not found");
    expect(await notesOf(id)).toHaveLength(0);
    expect(await audit(id, "NoteCreate")).toHaveLength(0);
  });
});

describe("reportSubmissionNoteUpdate", () => {
  test("allowed: the author edits their note", async () => {
    const id = await freshReport();
    const note = await create(as.member, id, "Draft thought");
    const result = await as.member.gql<{ reportSubmissionNoteUpdate: NoteView }>(UPDATE, { id: note.id, note: " Considered thought " });
    expect(result.data?.reportSubmissionNoteUpdate.note).toBe("Considered thought");
    expect((await audit(id, "NoteUpdate"))[0]?.metadata).toEqual({ noteId: note.id });
  });

  test("denied: someone else's note, a status note, another organisation", async () => {
    const id = await freshReport(["member@demo.test", "admin@demo.test"]);
    const note = await create(as.member, id, "Mine");
    expect(errorOf(await as.admin.gql(UPDATE, { id: note.id, note: "Theirs now" }))).toBe("This item cannot be edited.");
    await as.member.gql(CLOSE, { id });
    const [status] = (await notesOf(id)).filter((row) => row.newStatus !== null);
    expect(errorOf(await as.member.gql(UPDATE, { id: status!.id, note: "Rewritten history" }))).toBe("This item cannot be edited.");
    expect(errorOf(await as.northwind.gql(UPDATE, { id: note.id, note: "Hacked" }))).toBe("Note is not found");
    expect((await notesOf(id)).map((row) => row.note).sort()).toEqual(["Mine", "Report Marked as Completed"]);
    expect(await audit(id, "NoteUpdate")).toHaveLength(0);
  });
});

describe("reportSubmissionNoteArchive", () => {
  test("allowed: the author archives their note; it leaves the list", async () => {
    const id = await freshReport();
    const note = await create(as.member, id, "Not needed");
    expect((await as.member.gql<{ reportSubmissionNoteArchive: NoteView }>(ARCHIVE, { id: note.id })).data?.reportSubmissionNoteArchive.archived).toBe(true);
    expect((await as.member.gql<List>(LIST, { id })).data!.reportSubmissionNotes.total).toBe(0);
    expect(await audit(id, "NoteArchive")).toHaveLength(1);
    expect(errorOf(await as.member.gql(ARCHIVE, { id: note.id }))).toBe("Note is not found");
  });

  test("denied: someone else's note, another organisation", async () => {
    const id = await freshReport(["member@demo.test", "admin@demo.test"]);
    const note = await create(as.member, id, "Keep me");
    expect(errorOf(await as.admin.gql(ARCHIVE, { id: note.id }))).toBe("This item cannot be deleted.");
    expect(errorOf(await as.northwind.gql(ARCHIVE, { id: note.id }))).toBe("Note is not found");
    expect((await notesOf(id))[0]!.archived).toBe(false);
    expect(await audit(id, "NoteArchive")).toHaveLength(0);
  });
});
