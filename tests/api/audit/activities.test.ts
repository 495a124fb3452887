import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { organisationEmailSubscribers, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

let server: TestServer;
let form: Awaited<ReturnType<typeof demoForm>>;
let orgs: { demoId: string; northwindId: string };
const as: Record<"owner" | "admin" | "member" | "guest" | "superAdmin" | "northwind", StaffClient> = {} as never;
const userIds = new Map<string, string>();

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  form = await demoForm(server, "demo", "Workplace Misconduct Report");
  orgs = await demoOrganisationIds(server);
  const logins = {
    owner: "owner@demo.test",
    admin: "admin@demo.test",
    member: "member@demo.test",
    guest: "guest@demo.test",
    superAdmin: "admin@lantern.test",
    northwind: "owner@northwind.test",
  };
  for (const [key, email] of Object.entries(logins)) as[key as keyof typeof as] = await loginAs(server, email, DEMO_PASSWORD);
  for (const user of await server.db.select({ id: users.id, email: users.email }).from(users)) userIds.set(user.email, user.id);
  // With a subscriber every new report is announced (NotifyNewReport), so each report's log has a known shape.
  await server.db.insert(organisationEmailSubscribers).values({ organisationId: orgs.demoId, firstName: "Case", lastName: "Desk", email: "cases@demo.test" });
  // The demo seed and one password check per login: seconds on a busy machine, beyond the 5 s hook default.
}, 30_000);
afterAll(() => server.stop());

/** A report submitted by a real reporter who then signs in again; its team put in place directly. */
async function freshReport(team: string[]) {
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.form.id, form.widgets);
  const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  await announced(row!.id);
  await server.db.insert(reportSubmissionAssignees).values(team.map((email, index) => ({ submissionId: row!.id, userId: userIds.get(email)!, isOwner: index === 0 })));
  await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, row!.id));
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  return { id: row!.id, password: credentials.generatedPassword };
}

/** The notifier writes NotifyNewReport in the background; wait for it so the log's order does not depend on timing. */
async function announced(submissionId: string) {
  for (let tries = 0; tries < 200; tries += 1) {
    const rows = await server.db.select({ id: userActivities.id }).from(userActivities).where(and(eq(userActivities.objectId, submissionId), eq(userActivities.action, "NotifyNewReport")));
    if (rows.length > 0) return;
    await Bun.sleep(25);
  }
  throw new Error("the new report was never announced");
}

const errorOf = (result: { errors?: { message: string }[] }) => result.errors?.[0]?.message;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;

const ENTRY = "id action createdAt objectID objectType isGrouped metadata user { firstName lastName role } parent { id }";
const LIST = `query ($organisationID: ID, $parentID: ID, $objectID: ID, $objectType: AuditObjectType, $limit: Int, $offset: Int) {
  userActivities(organisationID: $organisationID, parentID: $parentID, objectID: $objectID, objectType: $objectType, limit: $limit, offset: $offset) { total list { ${ENTRY} } } }`;
const ONE = `query ($id: ID!) { userActivity(id: $id) { ${ENTRY} } }`;

interface Entry {
  id: string;
  action: string;
  createdAt: string;
  objectID: string | null;
  objectType: string;
  isGrouped: boolean;
  metadata: Record<string, unknown>;
  user: { firstName: string; lastName: string; role: string } | null;
  parent: { id: string } | null;
}
type List = { userActivities: { total: number; list: Entry[] } };

const reportLog = (client: StaffClient, id: string, extra: Record<string, unknown> = {}) =>
  client.gql<List>(LIST, { objectType: "ReportSubmission", objectID: id, ...extra });

async function logOf(client: StaffClient, id: string, extra: Record<string, unknown> = {}) {
  const result = await reportLog(client, id, extra);
  if (!result.data) throw new Error(JSON.stringify(result.errors));
  return result.data.userActivities;
}

async function run(client: StaffClient, query: string, variables: Record<string, unknown>) {
  const result = await client.gql(query, variables);
  if (result.errors) throw new Error(JSON.stringify(result.errors));
}

const northwindReportId = async () =>
  (await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, orgs.northwindId), eq(reportSubmissions.completed, true))).limit(1))[0]!.id;

describe("userActivities for a report", () => {
  test("allowed: the owner sees who did what, newest first, reporters as no one, metadata without private values", async () => {
    const { id } = await freshReport(["owner@demo.test"]);
    await run(as.owner, `mutation ($id: ID!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: "Called the site manager") { id } }`, { id });
    await run(as.owner, `mutation ($id: ID!) { reportSubmissionInternalReference(id: $id, internalReference: "HR-2291") { id } }`, { id });
    await run(as.owner, `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed, note: "Resolved") { id } }`, { id });

    const log = await logOf(as.owner, id);
    const stored = await server.db.select().from(userActivities).where(eq(userActivities.objectId, id));
    expect(log.total).toBe(stored.length);
    expect(log.list.map((entry) => entry.action).slice(0, 5)).toEqual(["Close", "InternalReference", "NoteCreate", "ReporterLogin", "NotifyNewReport"]);
    expect(log.list.at(-1)!.action).toBe("Start");
    const [close, reference, note, login] = log.list;
    expect(close).toMatchObject({ objectID: id, objectType: "ReportSubmission", isGrouped: false, parent: null, metadata: { from: "Assigned", to: "Completed" } });
    expect(close!.user).toEqual({ firstName: "Olivia", lastName: "Bennett", role: "ORGANISATION_OWNER" });
    // The internal reference and the note's id are recorded but not shown.
    expect(reference!.metadata).toEqual({});
    expect(note!.metadata).toEqual({});
    expect(JSON.stringify(log)).not.toContain("HR-2291");
    // Whatever the reporter did is theirs alone: no user, nothing about them.
    expect(login!.user).toBeNull();
    // Page saves are not recorded (decision 064).
    expect(log.list.filter((entry) => entry.user === null).map((entry) => entry.action)).toEqual(["ReporterLogin", "NotifyNewReport", "Complete", "Start"]);
    // Dates descend.
    const times = log.list.map((entry) => Date.parse(entry.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // Admins of the organisation and the super admin (also inside the organisation) read the same log.
    expect((await logOf(as.admin, id)).list.map((entry) => entry.id)).toEqual(log.list.map((entry) => entry.id));
    expect((await logOf(as.superAdmin, id)).total).toBe(log.total);
    expect((await logOf(as.superAdmin, id, { organisationID: orgs.demoId })).total).toBe(log.total);

    // One entry by id, as the list shows it.
    const one = await as.owner.gql<{ userActivity: Entry }>(ONE, { id: close!.id });
    expect(one.data?.userActivity).toEqual(close!);
  });

  test("allowed: paged; an invalid limit falls back to 20", async () => {
    const { id } = await freshReport(["owner@demo.test"]);
    for (const priority of ["High", "Low", "Medium"]) await run(as.owner, `mutation ($id: ID!, $p: Priority!) { reportSubmissionSetPriority(id: $id, priority: $p) { id } }`, { id, p: priority });
    const all = await logOf(as.owner, id);
    const page = await logOf(as.owner, id, { limit: 2, offset: 1 });
    expect(page.total).toBe(all.total);
    expect(page.list.map((entry) => entry.id)).toEqual(all.list.slice(1, 3).map((entry) => entry.id));
    expect(page.list[0]!.metadata).toEqual({ from: "High", to: "Low" });
    expect((await logOf(as.owner, id, { limit: -5 })).list).toHaveLength(Math.min(20, all.total));
    expect((await logOf(as.owner, id, { limit: 5000 })).list).toHaveLength(Math.min(20, all.total));
  });

  test("denied: roles without UserActivityList, even on the report's team", async () => {
    const { id } = await freshReport(["member@demo.test", "guest@demo.test"]);
    for (const client of [as.member, as.guest]) {
      const result = await reportLog(client, id);
      expect(codeOf(result)).toBe("FORBIDDEN");
      expect(result.data ?? null).toBeNull();
    }
    const [entry] = await server.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.objectId, id)).limit(1);
    expect(codeOf(await as.member.gql(ONE, { id: entry!.id }))).toBe("FORBIDDEN");
  });

  test("denied: a report nobody may see (a reporter's unfinished draft, a malformed id) gives an error, never rows", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    expect((await reporter.post("/api/auth/report_start", { reportFormID: form.form.id })).status).toBe(200);
    const [draft] = await server.db
      .select({ id: reportSubmissions.id })
      .from(reportSubmissions)
      .where(eq(reportSubmissions.completed, false))
      .orderBy(desc(reportSubmissions.createdAt))
      .limit(1);
    expect(errorOf(await reportLog(as.owner, draft!.id))).toBe("Report Submission is not found");
    expect(errorOf(await reportLog(as.superAdmin, draft!.id))).toBe("Report Submission is not found");
    expect(errorOf(await reportLog(as.owner, "not-a-report"))).toBe("Report Submission is not found");
    // Nor do the draft's entries turn up when asked for without the report's type.
    expect((await as.owner.gql<List>(LIST, { objectID: draft!.id })).data?.userActivities).toEqual({ total: 0, list: [] });
    const [started] = await server.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.objectId, draft!.id));
    expect(errorOf(await as.owner.gql(ONE, { id: started!.id }))).toBe("Audit log not found");
  });

  test("cross-organisation: another organisation's report or organisation answers like a missing one", async () => {
    const northwindReport = await northwindReportId();
    expect(errorOf(await reportLog(as.owner, northwindReport))).toBe("Report Submission is not found");
    expect(errorOf(await reportLog(as.owner, crypto.randomUUID()))).toBe("Report Submission is not found");
    const { id } = await freshReport(["owner@demo.test"]);
    expect(errorOf(await reportLog(as.northwind, id))).toBe("Report Submission is not found");
    // A super admin working inside Northwind does not reach Demo's report from there.
    expect(errorOf(await reportLog(as.superAdmin, id, { organisationID: orgs.northwindId }))).toBe("Report Submission is not found");

    const other = await as.owner.gql(LIST, { organisationID: orgs.northwindId });
    const missing = await as.owner.gql(LIST, { organisationID: crypto.randomUUID() });
    expect(errorOf(other)).toBe("Organisation is not found");
    expect(other.errors).toEqual(missing.errors!);
    expect(errorOf(await as.superAdmin.gql(LIST, { organisationID: crypto.randomUUID() }))).toBe("Organisation is not found");

    const [entry] = await server.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.objectId, id)).limit(1);
    expect(errorOf(await as.northwind.gql(ONE, { id: entry!.id }))).toBe("Audit log not found");
    expect(errorOf(await as.owner.gql(ONE, { id: "nope" }))).toBe("Audit log not found");
  });

  test("unauthenticated: no session, no log", async () => {
    const { id } = await freshReport(["owner@demo.test"]);
    const result = await reportLog(anonymous(server), id);
    expect(codeOf(result)).toBe("UNAUTHENTICATED");
    expect(result.data ?? null).toBeNull();
  });
});

describe("userActivities for an organisation", () => {
  test("allowed: an owner reads only their own organisation's entries; a super admin picks one", async () => {
    await loginAs(server, "admin@northwind.test", DEMO_PASSWORD);
    const mine = (await as.owner.gql<List>(LIST, { limit: 100 })).data!.userActivities;
    expect(mine.total).toBeGreaterThan(0);
    const ids = mine.list.map((entry) => entry.id);
    const organisationsOf = await server.db.select({ id: userActivities.id, organisationId: userActivities.organisationId }).from(userActivities);
    const byId = new Map(organisationsOf.map((row) => [row.id, row.organisationId]));
    expect(new Set(ids.map((entryId) => byId.get(entryId)))).toEqual(new Set([orgs.demoId]));
    // Northwind's admin signing in is Northwind's business, and shows only there.
    const northwind = (await as.superAdmin.gql<List>(LIST, { organisationID: orgs.northwindId, objectType: "Self", limit: 100 })).data!.userActivities;
    expect(northwind.list.some((entry) => entry.action === "Login" && entry.user?.lastName === "Okafor")).toBe(true);
    expect(mine.list.some((entry) => entry.user?.lastName === "Okafor")).toBe(false);
  });

  test("denied: a parent entry of another organisation is not found", async () => {
    const [northwindEntry] = await server.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.organisationId, orgs.northwindId)).limit(1);
    expect(errorOf(await as.owner.gql(LIST, { parentID: northwindEntry!.id }))).toBe("Audit log not found");
    expect(errorOf(await as.owner.gql(LIST, { parentID: "x" }))).toBe("Audit log not found");
    expect(codeOf(await as.member.gql(LIST, {}))).toBe("FORBIDDEN");
    expect(codeOf(await anonymous(server).gql(LIST, {}))).toBe("UNAUTHENTICATED");
  });

  test("no entry anywhere carries a password, its hash or the reporter's credentials", async () => {
    const { password } = await freshReport(["owner@demo.test"]);
    const everything = JSON.stringify(await server.db.select().from(userActivities));
    for (const secret of [DEMO_PASSWORD, DEMO_REPORT_PASSWORD, password, "$argon2"]) expect(everything).not.toContain(secret);
  });
});
