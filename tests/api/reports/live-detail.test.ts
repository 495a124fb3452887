import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, ne } from "drizzle-orm";
import type { Client } from "graphql-ws";
import { reportSubmissionAssignees, reportSubmissions, users } from "../../../db/schema/index.ts";
import { startDemoWithReporter } from "../../helpers/demo.ts";
import type { TestServer } from "../../helpers/server.ts";
import { joinTeam, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { collect, rawSocket, wsClient } from "../../helpers/websocket.ts";
import { holdsWithin } from "../../helpers/holds-within.ts";

/**
 * reportSubmission (admin view): the detail page's live report. A staff member who may see the
 * report gets it at once and again after each change by anyone; one who may not gets the answer
 * an unknown id gets, and one who loses access mid-stream stops hearing.
 */

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let submissionId: string;
let demoId: string;
const sockets: Client[] = [];

beforeAll(async () => {
  ({ server, as, northwind, submissionId, demoId } = await startDemoWithReporter());
  await joinTeam(as.admin, submissionId);
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) await socket.dispose();
  await server.stop();
});

const LIVE = `subscription ($id: ID!) { reportSubmission(id: $id) { id status priority archived internalReference
  assignedUsers { user { email } } tags { name } } }`;
const PRIORITY = `mutation ($id: ID!, $priority: Priority!) { reportSubmissionSetPriority(id: $id, priority: $priority) { id } }`;
const REFERENCE = `mutation ($id: ID!, $ref: String!) { reportSubmissionInternalReference(id: $id, internalReference: $ref) { id } }`;
const ASSIGN = `mutation ($id: ID!, $userID: ID!) { reportSubmissionAssignUser(id: $id, userID: $userID) { id } }`;
const UNASSIGN = `mutation ($id: ID!, $userID: ID!) { reportSubmissionUnassignUser(id: $id, userID: $userID) { id } }`;

type Failure = { message: string; extensions?: { code?: string } };
type View = { id: string; status: string; priority: string; archived: boolean; internalReference: string | null; assignedUsers: { user: { email: string } }[] };
type Result = { data?: { reportSubmission: View } | null; errors?: Failure[] };

function subscribe(client: StaffClient | { cookie: string }, id: unknown, count = 100) {
  const socket = wsClient(server, client.cookie);
  sockets.push(socket);
  return collect<Result>(socket, LIVE, count, { id });
}
type Live = ReturnType<typeof subscribe>;

const until = (check: () => boolean, ms = 10_000) => holdsWithin(check, ms);
const views = (live: Live) => live.results.flatMap((result) => (result.data ? [result.data.reportSubmission] : []));
const latest = (live: Live) => views(live).at(-1);
const failure = (live: Live): Failure | undefined => live.results.find((result) => result.errors)?.errors?.[0] ?? (live.errors[0] as Failure[] | undefined)?.[0];
const ended = (live: Live, ms = 5_000) => Promise.race([live.done.then(() => true), Bun.sleep(ms).then(() => false)]);
/** One of Demo's seeded Assigned reports, with the owner on its team. */
async function seededReportOfOwner() {
  const [report] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Assigned"), ne(reportSubmissions.id, submissionId)));
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: report!.id, userId: await userId("owner@demo.test") }).onConflictDoNothing();
  return report!;
}
const userId = async (email: string) => (await server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

describe("allowed", () => {
  test("an admin on the team sees the report at once, then the owner's changes as they commit", async () => {
    const live = subscribe(as.admin, submissionId);
    expect(await until(() => views(live).length === 1)).toBe(true);
    expect(latest(live)).toMatchObject({ id: submissionId, status: "Assigned", archived: false });

    await joinTeam(as.owner, submissionId);
    expect(await until(() => latest(live)!.assignedUsers.some((member) => member.user.email === "owner@demo.test"))).toBe(true);
    expect((await as.owner.gql(PRIORITY, { id: submissionId, priority: "High" })).errors).toBeUndefined();
    expect(await until(() => latest(live)!.priority === "High")).toBe(true);
    expect((await as.owner.gql(REFERENCE, { id: submissionId, ref: "CASE-7" })).errors).toBeUndefined();
    expect(await until(() => latest(live)!.internalReference === "CASE-7")).toBe(true);
    expect(failure(live)).toBeUndefined();
    live.dispose();
  });

  test("a change to another report sends nothing", async () => {
    const live = subscribe(as.admin, submissionId);
    expect(await until(() => views(live).length === 1)).toBe(true);
    const other = await seededReportOfOwner();
    expect((await as.owner.gql(PRIORITY, { id: other!.id, priority: "Medium" })).errors).toBeUndefined();
    // Then a change to this report: the stream's next value is that one, nothing in between.
    expect((await as.owner.gql(PRIORITY, { id: submissionId, priority: "Medium" })).errors).toBeUndefined();
    expect(await until(() => latest(live)!.priority === "Medium")).toBe(true);
    expect(views(live).length).toBe(2);
    live.dispose();
  });
});

describe("losing access mid-stream", () => {
  test("closing, archiving and deleting the report: the first two arrive, the deletion ends the stream with 'not found'", async () => {
    const seeded = await seededReportOfOwner();
    const live = subscribe(as.owner, seeded!.id);
    expect(await until(() => views(live).length === 1)).toBe(true);
    const step = async (mutation: string) => expect((await as.owner.gql(`mutation ($id: ID!) { ${mutation} }`, { id: seeded!.id })).errors).toBeUndefined();
    await step("reportSubmissionClose(id: $id, completeStatus: Completed) { id }");
    expect(await until(() => latest(live)!.status === "Completed")).toBe(true);
    await step("reportSubmissionArchive(id: $id) { id }");
    expect(await until(() => latest(live)!.archived)).toBe(true);
    await step("reportSubmissionHardDelete(id: $id) { id }");
    expect(await ended(live)).toBe(true);
    expect(failure(live)).toMatchObject({ message: "Report Submission is not found", extensions: { code: "NOT_FOUND" } });
  });


  test("a member unassigned by an admin gets 'not found' and the stream ends", async () => {
    const memberId = await userId("member@demo.test");
    expect((await as.admin.gql(ASSIGN, { id: submissionId, userID: memberId })).errors).toBeUndefined();
    const live = subscribe(as.member, submissionId);
    expect(await until(() => views(live).length === 1)).toBe(true);
    expect((await as.admin.gql(UNASSIGN, { id: submissionId, userID: memberId })).errors).toBeUndefined();
    expect(await ended(live)).toBe(true);
    expect(failure(live)).toMatchObject({ message: "Report Submission is not found", extensions: { code: "NOT_FOUND" } });
    const heard = views(live).length;
    expect((await as.admin.gql(PRIORITY, { id: submissionId, priority: "Low" })).errors).toBeUndefined();
    await Bun.sleep(400);
    expect(views(live).length).toBe(heard);
  });

  test("a suspended member hears nothing more", async () => {
    const memberId = await userId("member@demo.test");
    expect((await as.admin.gql(ASSIGN, { id: submissionId, userID: memberId })).errors).toBeUndefined();
    const live = subscribe(as.member, submissionId);
    expect(await until(() => views(live).length === 1)).toBe(true);
    try {
      expect((await as.owner.gql(`mutation ($id: ID!) { userSuspend(id: $id) { id } }`, { id: memberId })).errors).toBeUndefined();
      expect(await ended(live)).toBe(true);
      const heard = views(live).length;
      expect((await as.admin.gql(PRIORITY, { id: submissionId, priority: "High" })).errors).toBeUndefined();
      await Bun.sleep(400);
      expect(views(live).length).toBe(heard);
    } finally {
      await server.db.update(users).set({ suspended: false }).where(eq(users.id, memberId));
    }
  });
});

describe("denied", () => {
  const refusals: [string, () => StaffClient | { cookie: string }, () => unknown, string][] = [
    ["a guest member not on the team", () => as.guest, () => submissionId, "NOT_FOUND"],
    ["another organisation's owner", () => northwind, () => submissionId, "NOT_FOUND"],
    ["an unknown id", () => as.admin, () => crypto.randomUUID(), "NOT_FOUND"],
    ["a malformed id", () => as.admin, () => "'; drop table report_submissions; --", "NOT_FOUND"],
    // The request guard refuses these before any field runs, as it does over HTTP.
    ["an id with a NUL byte", () => as.admin, () => `${crypto.randomUUID()}\u0000`, "BAD_USER_INPUT"],
    ["a 100,000-character id", () => as.admin, () => "x".repeat(100_000), "BAD_USER_INPUT"],
    ["a signed-out caller", () => ({ cookie: "" }), () => submissionId, "UNAUTHENTICATED"],
  ];
  for (const [name, client, id, code] of refusals) {
    test(`${name}: refused at once with ${code}, nothing about the report`, async () => {
      const live = subscribe(client(), id());
      expect(await ended(live)).toBe(true);
      expect(views(live)).toEqual([]);
      expect(failure(live)?.extensions?.code).toBe(code);
      if (code === "NOT_FOUND") expect(failure(live)?.message).toBe("Report Submission is not found");
    });
  }

  test("another organisation's report reads exactly as an unknown one", async () => {
    const [theirs, unknown] = [subscribe(northwind, submissionId), subscribe(northwind, crypto.randomUUID())];
    await Promise.all([ended(theirs), ended(unknown)]);
    expect(failure(theirs)).toEqual(failure(unknown)!);
  });
});

describe("hostile frames", () => {
  const frame = (value: unknown) => JSON.stringify(value);
  const cases: [string, Record<string, unknown>][] = [
    ["an object for the id", { query: LIVE, variables: { id: { $ne: null } } }],
    ["a list for the id", { query: LIVE, variables: { id: [submissionId, submissionId] } }],
    ["no id", { query: LIVE, variables: {} }],
    ["a boolean for the id", { query: LIVE, variables: { id: true } }],
    ["a fragment cycle", { query: "subscription { reportSubmission(id: \"x\") { ...A } } fragment A on ReportSubmission { ...A }" }],
    ["two root fields", { query: `subscription { a: reportSubmission(id: "x") { id } b: reportSubmission(id: "y") { id } }` }],
  ];
  for (const [name, payload] of cases) {
    test(`${name}: an error for that operation; the socket and the server go on serving`, async () => {
      const socket = await rawSocket(server, { cookie: as.admin.cookie });
      socket.send(frame({ type: "connection_init" }));
      expect(await socket.waitFor((m) => m.type === "connection_ack")).toBe(true);
      socket.send(frame({ type: "subscribe", id: "bad", payload }));
      expect(await socket.waitFor((m) => (m.type === "error" || m.type === "complete") && m.id === "bad")).toBe(true);
      expect(JSON.stringify(socket.messages)).not.toMatch(/INTERNAL_SERVER_ERROR|Unexpected error/);
      socket.send(frame({ type: "subscribe", id: "good", payload: { query: LIVE, variables: { id: submissionId } } }));
      expect(await socket.waitFor((m) => m.type === "next" && m.id === "good")).toBe(true);
      socket.close();
    });
  }
});
