import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportSubmissions, tags, userActivities, users } from "../../../db/schema/index.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { anonymous, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import type { TestServer } from "../../helpers/server.ts";

// The Audit Logs screens' arguments (decision 040): by user and by date, and grouped entries' children.

let server: TestServer;
let as: DemoStaff;
let northwind: StaffClient;
let demoId: string;
let northwindId: string;
const userIds = new Map<string, string>();

beforeAll(async () => {
  ({ server, as, northwind, demoId, northwindId } = await startDemoWithStaff());
  for (const user of await server.db.select({ id: users.id, email: users.email }).from(users)) userIds.set(user.email, user.id);
}, 30_000);
afterAll(() => server.stop());

const LIST = `query ($organisationID: ID, $parentID: ID, $objectType: AuditObjectType, $userID: ID, $dateFilter: DateFilterInput, $limit: Int) {
  userActivities(organisationID: $organisationID, parentID: $parentID, objectType: $objectType, userID: $userID, dateFilter: $dateFilter, limit: $limit) {
    total list { id action objectType objectID isGrouped metadata user { firstName lastName role } parent { id } } } }`;
type Entry = { id: string; action: string; objectType: string; objectID: string | null; isGrouped: boolean; metadata: Record<string, unknown>; user: { firstName: string } | null; parent: { id: string } | null };
type List = { userActivities: { total: number; list: Entry[] } };

const errorOf = (result: { errors?: { message: string }[] }) => result.errors?.[0]?.message;
const codeOf = (result: { errors?: { extensions?: { code?: string } }[] }) => result.errors?.[0]?.extensions?.code;
const today = () => new Date().toISOString().slice(0, 10);

async function listOf(client: StaffClient, variables: Record<string, unknown>) {
  const result = await client.gql<List>(LIST, { limit: 100, ...variables });
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.userActivities;
}

/** The owner tags a Demo report with two tags (one assignment): the grouped entry and its children. */
async function tagReport(): Promise<Entry> {
  const [report] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, demoId)).limit(1);
  const demoTags = await server.db.select({ id: tags.id, name: tags.name }).from(tags).where(and(eq(tags.organisationId, demoId), eq(tags.archived, false))).limit(2);
  expect(demoTags.length).toBe(2);
  await as.owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: report!.id });
  const ASSIGN = `mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id } }`;
  // Cleared first, so the assignment below adds exactly these two.
  expect((await as.owner.gql(ASSIGN, { id: report!.id, tags: [] })).errors).toBeUndefined();
  const assigned = await as.owner.gql(`mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id } }`, { id: report!.id, tags: demoTags.map((tag) => tag.id) });
  expect(assigned.errors).toBeUndefined();
  const entry = (await listOf(as.owner, { objectType: "ReportSubmission" })).list.find((row) => row.action === "AssignTags");
  return entry!;
}

describe("userActivities by user and date", () => {
  test("allowed: an owner narrows to one person of their organisation, and to today", async () => {
    const ownerId = userIds.get("owner@demo.test")!;
    const mine = await listOf(as.owner, { userID: ownerId });
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.list.every((entry) => entry.user?.firstName === mine.list[0]!.user?.firstName)).toBe(true);
    const todays = await listOf(as.owner, { userID: ownerId, dateFilter: { from: today(), to: today() } });
    expect(todays.total).toBe(mine.total);
    const longAgo = await listOf(as.owner, { dateFilter: { from: "2001-01-01", to: "2001-01-31" } });
    expect(longAgo).toEqual({ total: 0, list: [] });
  });

  test("allowed: an admin and a super admin (inside Demo, or across organisations) filter too", async () => {
    const adminId = userIds.get("admin@demo.test")!;
    expect((await listOf(as.admin, { userID: adminId })).total).toBeGreaterThan(0);
    expect((await listOf(as.superAdmin, { organisationID: demoId, userID: adminId })).total).toBeGreaterThan(0);
    // A super admin who acted inside Demo is someone Demo's log may be narrowed to.
    await as.superAdmin.gql(`mutation ($name: String!, $organisationID: ID) { tagCreate(name: $name, organisationID: $organisationID) { id } }`, { name: "Filed by Lantern", organisationID: demoId });
    const superAdminId = userIds.get("admin@lantern.test")!;
    const theirs = await listOf(as.owner, { userID: superAdminId, objectType: "Tag" });
    expect(theirs.list.map((entry) => entry.action)).toContain("Create");
    expect((await listOf(as.superAdmin, { userID: userIds.get("owner@northwind.test")! })).total).toBeGreaterThan(0);
  });

  test("denied: members, guests and the signed-out cannot list, with or without filters", async () => {
    const filters = { userID: userIds.get("member@demo.test"), dateFilter: { from: today(), to: today() } };
    expect(codeOf(await as.member.gql(LIST, filters))).toBe("FORBIDDEN");
    expect(codeOf(await as.guest.gql(LIST, filters))).toBe("FORBIDDEN");
    expect(codeOf(await anonymous(server).gql(LIST, filters))).toBe("UNAUTHENTICATED");
  });

  test("cross-organisation: another organisation's user is not found, like one that never existed", async () => {
    const stranger = userIds.get("owner@northwind.test")!;
    expect(errorOf(await as.owner.gql(LIST, { userID: stranger }))).toBe("User is not found");
    expect(errorOf(await as.owner.gql(LIST, { userID: crypto.randomUUID() }))).toBe("User is not found");
    expect(errorOf(await as.owner.gql(LIST, { userID: "nope" }))).toBe("User is not found");
    expect(errorOf(await northwind.gql(LIST, { userID: userIds.get("owner@demo.test") }))).toBe("User is not found");
    expect(errorOf(await as.superAdmin.gql(LIST, { organisationID: northwindId, userID: userIds.get("member@demo.test") }))).toBe("User is not found");
  });

  test("bad input: future, malformed, reversed or oversized dates are refused with a clear message", async () => {
    const tomorrow = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    expect(errorOf(await as.owner.gql(LIST, { dateFilter: { from: tomorrow } }))).toBe("Date cannot be in the future");
    expect(codeOf(await as.owner.gql(LIST, { dateFilter: { from: "31/01/2026" } }))).toBe("BAD_USER_INPUT");
    expect(errorOf(await as.owner.gql(LIST, { dateFilter: { from: "2026-02-01", to: "2026-01-01" } }))).toBe("From date cannot be after To date");
    expect(codeOf(await as.owner.gql(LIST, { dateFilter: { to: "x".repeat(100_000) } }))).toBe("BAD_USER_INPUT");
    expect(codeOf(await as.owner.gql(LIST, { userID: `${"a".repeat(200)}\u0000` }))).toBe("BAD_USER_INPUT");
  });
});

describe("grouped entries", () => {
  test("allowed: one tag assignment is one grouped entry whose children name each tag", async () => {
    const parent = await tagReport();
    expect(parent.isGrouped).toBe(true);
    const children = await listOf(as.owner, { parentID: parent.id });
    expect(children.list.map((entry) => entry.action).sort()).toEqual(["TagAdded", "TagAdded"]);
    expect(children.list.every((entry) => entry.objectType === "Tag" && entry.parent?.id === parent.id && typeof entry.metadata.name === "string")).toBe(true);
    // Children are never listed at the top level.
    expect((await listOf(as.owner, { objectType: "Tag" })).list.some((entry) => entry.action === "TagAdded")).toBe(false);
    expect((await listOf(as.superAdmin, { organisationID: demoId, parentID: parent.id })).total).toBe(2);
  });

  test("denied: another organisation's grouped entry is not found, and a member cannot open one", async () => {
    const [parent] = await server.db.select({ id: userActivities.id }).from(userActivities).where(eq(userActivities.isGrouped, true)).limit(1);
    expect(errorOf(await northwind.gql(LIST, { parentID: parent!.id }))).toBe("Audit log not found");
    expect(errorOf(await as.superAdmin.gql(LIST, { organisationID: northwindId, parentID: parent!.id }))).toBe("Audit log not found");
    expect(codeOf(await as.member.gql(LIST, { parentID: parent!.id }))).toBe("FORBIDDEN");
  });
});
