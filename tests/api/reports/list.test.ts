import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportForms, reportSubmissionAssignees, reportSubmissions, reportSubmissionTags, tags, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { generateReportId } from "../../../api/lib/report-credentials.ts";
import { REPORT_LIST_FILTERS, SORT_KEYS, type ReportListFilter, type SubmissionStatus } from "../../../api/shared/enums.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { anonymous, loginAs, type StaffClient, demoStaff, type DemoStaff } from "../../helpers/session.ts";

type Row = typeof reportSubmissions.$inferSelect;
let server: TestServer;
let demoId: string;
let northwindId: string;
let rows: Row[];
/** Report ids by assigned user id. */
let teams: Map<string, Set<string>>;
let ids: Record<"admin" | "member" | "guest", string>;
let as: DemoStaff;

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const at = (days: number) => new Date(NOW - days * DAY);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
/** Statuses the demo seed does not write, so every status filter has reports to find. */
const EXTRA_STATUSES: SubmissionStatus[] = ["Closed", "Investigated", "NotInvestigated", "NotSubstantiated", "ActionTaken", "NoActionTaken", "Completed"];

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const orgs = await server.db.select().from(organisations);
  demoId = orgs.find((o) => o.slug === "demo")!.id;
  northwindId = orgs.find((o) => o.slug === "northwind")!.id;
  const [form] = await server.db.select().from(reportForms).where(and(eq(reportForms.organisationId, demoId), eq(reportForms.name, "Workplace Misconduct Report")));
  const add = (values: Partial<typeof reportSubmissions.$inferInsert>) =>
    server.db.insert(reportSubmissions).values({ organisationId: demoId, formId: form!.id, buildId: form!.deployedBuildId, reportId: generateReportId(), completed: true, status: "New", ...values });
  // Three of each missing status, on distinct days; two share a completion time so the id must break the tie.
  let n = 0;
  for (const status of EXTRA_STATUSES) for (let i = 0; i < 3; i += 1) await add({ status, completedAt: at(n++ * 3), updatedAt: at(n * 2) });
  await add({ status: "Closed", completedAt: at(4), updatedAt: at(1) });
  await add({ status: "Closed", completedAt: at(4), updatedAt: at(1), archived: true, internalReference: "ARCH-1" });
  await add({ status: "Investigated", completedAt: at(30), isTest: true });
  // Never anyone's: a draft and a hard-deleted report.
  await add({ status: "Draft", completed: false, completedAt: null, internalReference: "DRAFT-1" });
  await add({ status: "Closed", completedAt: at(2), deletedAt: at(1), archived: true });
  const seededCompleted = (await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Completed"))))[0]!;
  await server.db.update(reportSubmissions).set({ archived: true }).where(eq(reportSubmissions.id, seededCompleted.id));

  const people = await server.db.select().from(users).where(inArray(users.email, ["admin@demo.test", "member@demo.test", "guest@demo.test"]));
  const idOf = (email: string) => people.find((u) => u.email === email)!.id;
  ids = { admin: idOf("admin@demo.test"), member: idOf("member@demo.test"), guest: idOf("guest@demo.test") };
  const [assigned] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Assigned")));
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: assigned!.id, userId: ids.guest });

  rows = (await server.db.select().from(reportSubmissions)).filter((r) => r.completed && !r.deletedAt);
  teams = new Map();
  for (const a of await server.db.select().from(reportSubmissionAssignees)) teams.set(a.userId, (teams.get(a.userId) ?? new Set()).add(a.submissionId));
  as = await demoStaff(server);
});
afterAll(() => server.stop());

const LIST = `query ($search: ReportSearchInput, $reportFormID: ID, $limit: Int, $offset: Int) {
  reportSubmissions(search: $search, reportFormID: $reportFormID, limit: $limit, offset: $offset) { total list { id reportID internalReference } } }`;
interface Listed {
  total: number;
  list: { id: string; reportID: string; internalReference: string | null }[];
}

async function list(client: StaffClient, search: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const result = await client.gql<{ reportSubmissions: Listed }>(LIST, { search, limit: 100, ...extra });
  if (result.errors) throw new Error(JSON.stringify(result.errors));
  return result.data!.reportSubmissions;
}
const errorOf = async (client: StaffClient, search: Record<string, unknown>, extra: Record<string, unknown> = {}) => (await client.gql(LIST, { search, ...extra })).errors?.[0];
const sorted = (values: string[]) => [...values].sort();
const idsOf = (listed: Listed) => sorted(listed.list.map((r) => r.id));
const demoRows = (keep: (r: Row) => boolean = () => true) => rows.filter((r) => r.organisationId === demoId && keep(r));
const expectIds = (listed: Listed, expected: Row[]) => {
  expect(expected.length).toBeGreaterThan(0);
  expect(idsOf(listed)).toEqual(sorted(expected.map((r) => r.id)));
  expect(listed.total).toBe(expected.length);
};

describe("who sees which reports", () => {
  test("allowed: owner and admin see every Demo report and none of Northwind's", async () => {
    for (const client of [as.owner, as.admin]) {
      expectIds(await list(client, { filter: "All" }), demoRows());
      expectIds(await list(client, { filter: "All", organisationID: demoId }), demoRows());
    }
    expect((await list(as.owner, {})).list.some((r) => r.internalReference === "HR-2041")).toBe(true);
  });

  test("denied: naming Northwind, a malformed or unknown organisation is 'Organisation is not found'", async () => {
    for (const organisationID of [northwindId, "not-a-uuid"]) expect((await errorOf(as.owner, { organisationID }))?.message).toBe("Organisation is not found");
    expect((await errorOf(as.member, { organisationID: northwindId }))?.extensions?.code).toBe("NOT_FOUND");
    expect((await errorOf(as.superAdmin, { organisationID: crypto.randomUUID() }))?.message).toBe("Organisation is not found");
  });

  test("members see only reports they are on the team of; guests only theirs, without internal references", async () => {
    expectIds(await list(as.member, { filter: "All" }), rows.filter((r) => teams.get(ids.member)?.has(r.id)));
    // A guest without two-factor authentication sees none of them (decision 032).
    const refused = await list(as.guest, { filter: "All" });
    expect({ total: refused.total, rows: refused.list.length }).toEqual({ total: 0, rows: 0 });
    await setTwoFactorActivated(server, "guest@demo.test", true);
    try {
      const guest = await list(as.guest, { filter: "All" });
      expectIds(guest, rows.filter((r) => teams.get(ids.guest)?.has(r.id)));
      expect(guest.list.map((r) => r.internalReference)).toEqual([null]);
    } finally {
      await setTwoFactorActivated(server, "guest@demo.test", false);
    }
  });

  test("a super admin sees both organisations, or one by id, never internal references", async () => {
    const everything = await list(as.superAdmin, { filter: "All" });
    expectIds(everything, rows);
    expect(everything.list.every((r) => r.internalReference === null)).toBe(true);
    expectIds(await list(as.superAdmin, { filter: "All", organisationID: northwindId }), rows.filter((r) => r.organisationId === northwindId));
  });

  test("denied: anonymous callers are unauthenticated", async () => {
    const result = await anonymous(server).gql(LIST, {});
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("filters", () => {
  const STATUS_OF: Partial<Record<ReportListFilter, SubmissionStatus>> = Object.fromEntries(
    EXTRA_STATUSES.map((status) => [`${status}Reports`, status]).concat([["RejectedReports", "Rejected"], ["SubstantiatedReports", "Substantiated"]]),
  );
  const expected = (filter: ReportListFilter) => (r: Row) => {
    if (filter === "All") return true;
    if (filter === "Archived") return r.archived;
    if (filter === "MyReports") return !r.archived && Boolean(teams.get(ids.admin)?.has(r.id));
    return !r.archived && (filter === "Active" || r.status === STATUS_OF[filter]);
  };

  test.each([...REPORT_LIST_FILTERS])("%s", async (filter) => {
    expectIds(await list(as.admin, { filter }), demoRows(expected(filter)));
  });

  test("Active is the default", async () => {
    expectIds(await list(as.owner), demoRows((r) => !r.archived));
  });

  test("excludeTestReports leaves test reports out; by default they are listed", async () => {
    const tests = demoRows((r) => r.isTest);
    expect(idsOf(await list(as.owner))).toEqual(expect.arrayContaining(tests.map((r) => r.id)));
    expectIds(await list(as.owner, { excludeTestReports: true }), demoRows((r) => !r.archived && !r.isTest));
  });

  test("reportFormID narrows to one form; a malformed id is not found", async () => {
    const [enquiry] = await server.db.select().from(reportForms).where(and(eq(reportForms.organisationId, demoId), eq(reportForms.name, "General Enquiry")));
    expectIds(await list(as.owner, {}, { reportFormID: enquiry!.id }), demoRows((r) => r.formId === enquiry!.id));
    expect((await errorOf(as.owner, {}, { reportFormID: "nope" }))?.message).toBe("Report Form is not found");
  });

  test("tagIDs: reports carrying all the given tags; unknown ids match nothing, malformed ones are refused", async () => {
    const demoTags = await server.db.select().from(tags).where(eq(tags.organisationId, demoId));
    const tagId = (name: string) => demoTags.find((t) => t.name === name)!.id;
    const links = await server.db.select().from(reportSubmissionTags);
    const withAll = (names: string[]) => (r: Row) => names.every((name) => links.some((l) => l.submissionId === r.id && l.tagId === tagId(name)));
    expectIds(await list(as.owner, { tagIDs: [tagId("Finance")] }), demoRows(withAll(["Finance"])));
    const both = demoRows(withAll(["Finance", "Escalated"]));
    expect(both.length).toBeLessThan(demoRows(withAll(["Finance"])).length);
    expectIds(await list(as.owner, { tagIDs: [tagId("Finance"), tagId("Escalated")] }), both);
    expect((await list(as.owner, { tagIDs: [tagId("Finance"), crypto.randomUUID()] })).total).toBe(0);
    expect((await errorOf(as.owner, { tagIDs: ["x"] }))?.message).toBe("Tag not found");
  });

  test("dateFilter: inclusive days on completedAt; future, reversed and malformed dates are refused", async () => {
    const from = isoDay(at(12));
    const to = isoDay(at(3));
    const within = (r: Row) => isoDay(r.completedAt!) >= from && isoDay(r.completedAt!) <= to;
    expectIds(await list(as.owner, { filter: "All", dateFilter: { from, to } }), demoRows(within));
    expectIds(await list(as.owner, { filter: "All", dateFilter: { from: to } }), demoRows((r) => isoDay(r.completedAt!) >= to));
    const future = isoDay(new Date(Date.now() + 2 * DAY));
    const refused = await errorOf(as.owner, { dateFilter: { to: future } });
    expect(refused).toMatchObject({ message: "Date cannot be in the future", extensions: { code: "BAD_USER_INPUT" } });
    expect((await errorOf(as.owner, { dateFilter: { from: to, to: from } }))?.extensions?.code).toBe("BAD_USER_INPUT");
    expect((await errorOf(as.owner, { dateFilter: { from: "2026-02-30" } }))?.message).toBe("Invalid date");
  });
});

describe("text search", () => {
  test("matches report ID, form name and tag names case-insensitively", async () => {
    const target = demoRows((r) => !r.archived)[0]!;
    expectIds(await list(as.owner, { text: target.reportId!.slice(2, 9).toLowerCase() }), [target]);
    const [enquiry] = await server.db.select().from(reportForms).where(and(eq(reportForms.organisationId, demoId), eq(reportForms.name, "General Enquiry")));
    expectIds(await list(as.owner, { text: "gENERAL enq" }), demoRows((r) => r.formId === enquiry!.id));
    const culture = await list(as.owner, { text: "people and cult" });
    expect(culture.total).toBe(1);
    expect(culture.list[0]!.internalReference).toBe("HR-2041");
  });

  test("internal references are searched for owners, not for super admins or guests", async () => {
    expect((await list(as.owner, { text: "hr-2041" })).total).toBe(1);
    expect((await list(as.guest, { text: "HR-2041" })).total).toBe(0);
    expect((await list(as.superAdmin, { text: "HR-2041" })).total).toBe(0);
  });

  test("LIKE wildcards in the text are literal", async () => {
    expect((await list(as.owner, { filter: "All", text: "%" })).total).toBe(0);
    expect((await list(as.owner, { filter: "All", text: "_" })).total).toBe(0);
    expect((await list(as.owner, { filter: "All", text: "HR_2041" })).total).toBe(0);
  });

  test("any text, short or long, finds exactly the reports whose ID, reference, form or tag contains it", async () => {
    const formNames = new Map((await server.db.select().from(reportForms)).map((f) => [f.id, f.name]));
    const tagNames = new Map((await server.db.select().from(tags).where(eq(tags.archived, false))).map((t) => [t.id, t.name]));
    const links = await server.db.select().from(reportSubmissionTags);
    const target = demoRows((r) => r.internalReference !== "")[0]!;
    const matching = (text: string, withReference: boolean) => (r: Row) =>
      [r.reportId!, withReference ? r.internalReference : "", formNames.get(r.formId)!, ...links.filter((l) => l.submissionId === r.id).map((l) => tagNames.get(l.tagId) ?? "")].some((field) =>
        field.toLowerCase().includes(text.toLowerCase()),
      );
    const texts = ["a", "7", "Hr", target.reportId!.slice(4, 6).toLowerCase(), target.reportId!.slice(1, 4), target.internalReference.slice(1).toLowerCase(), "ENQ", "ulture", "Escal"];
    for (const text of texts) {
      expectIds(await list(as.owner, { filter: "All", text }), demoRows(matching(text, true)));
      // Without the references, some texts rightly find nothing.
      const found = await list(as.superAdmin, { filter: "All", text });
      expect(idsOf(found)).toEqual(sorted(rows.filter(matching(text, false)).map((r) => r.id)));
    }
    // Report IDs are random Crockford base32, which never uses U: this text can match nothing.
    expect((await list(as.owner, { filter: "All", text: "uq" })).total).toBe(0);
  });

  test("a whole report ID typed without its dash, spaced, or with O for 0 finds that report; other dashless text does not", async () => {
    const target = demoRows((r) => !r.archived)[0]!;
    const original = target.reportId!;
    // An ID with zeros and ones, so the letters a reporter may read in their place can be typed.
    await server.db.update(reportSubmissions).set({ reportId: "K0RT1-0PQ1Z" }).where(eq(reportSubmissions.id, target.id));
    try {
      for (const text of ["K0RT10PQ1Z", "kort1 opq1z", "KORTI-OPQLZ", "k0rt1-0pq1z"]) expectIds(await list(as.owner, { text }), [target]);
      expect((await list(as.owner, { text: "K0RT10PQ1" })).total).toBe(0);
      expect((await list(as.owner, { text: "K0RT10PQ1Y" })).total).toBe(0);
    } finally {
      // updatedAt too, which the sorting tests compare with the rows read at the start.
      await server.db.update(reportSubmissions).set({ reportId: original, updatedAt: target.updatedAt }).where(eq(reportSubmissions.id, target.id));
    }
  });

  test("archived tags and other organisations' tags and forms do not match", async () => {
    const [escalated] = await server.db.select().from(tags).where(and(eq(tags.organisationId, demoId), eq(tags.name, "Escalated")));
    expect((await list(as.owner, { filter: "All", text: "escalated" })).total).toBeGreaterThan(0);
    await server.db.update(tags).set({ archived: true }).where(eq(tags.id, escalated!.id));
    try {
      expect((await list(as.owner, { filter: "All", text: "escalated" })).total).toBe(0);
    } finally {
      await server.db.update(tags).set({ archived: false }).where(eq(tags.id, escalated!.id));
    }
    // The demo seed gives only Northwind a "Safety and Compliance Report" form and a "Suppliers" tag.
    for (const text of ["safety and compliance", "suppliers"]) {
      expect((await list(as.owner, { filter: "All", text })).total).toBe(0);
      expect((await list(as.superAdmin, { filter: "All", text, organisationID: northwindId })).total).toBeGreaterThan(0);
    }
  });
});

describe("sorting", () => {
  const keyOf = { DateCreated: (r: Row) => r.completedAt!.getTime(), DateUpdated: (r: Row) => r.updatedAt.getTime(), Alphabetical: (r: Row) => r.reportId! } as const;
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  for (const sortBy of SORT_KEYS) {
    for (const sortDir of ["Ascending", "Descending"] as const) {
      test(`${sortBy} ${sortDir}, ties broken by id`, async () => {
        const sign = sortDir === "Ascending" ? 1 : -1;
        const want = demoRows().sort((a, b) => sign * (cmp(keyOf[sortBy](a), keyOf[sortBy](b)) || cmp(a.id, b.id)));
        const got = await list(as.owner, { filter: "All", sortBy, sortDir });
        expect(got.list.map((r) => r.id)).toEqual(want.map((r) => r.id));
      });
    }
  }

  test("DateCreated Descending is the default", async () => {
    const want = demoRows((r) => !r.archived).sort((a, b) => b.completedAt!.getTime() - a.completedAt!.getTime() || cmp(b.id, a.id));
    expect((await list(as.owner)).list.map((r) => r.id)).toEqual(want.map((r) => r.id));
  });
});

describe("paging", () => {
  test("offset pages through a stable order while the total stays", async () => {
    const all = await list(as.owner, { filter: "All" });
    expect(all.total).toBeGreaterThan(20);
    const pages: string[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const page = await list(as.owner, { filter: "All" }, { limit: 7, offset });
      expect(page.total).toBe(all.total);
      pages.push(...page.list.map((r) => r.id));
    }
    expect(pages).toEqual(all.list.map((r) => r.id));
    expect((await list(as.owner, { filter: "All" }, { offset: all.total })).list).toEqual([]);
  });

  test("an invalid limit falls back to 20, and -1 (exports only) is invalid over GraphQL", async () => {
    for (const limit of [0, -1, 101, null]) {
      const page = await list(as.owner, { filter: "All" }, { limit });
      expect(page.list).toHaveLength(20);
      expect(page.total).toBeGreaterThan(20);
    }
    expect((await list(as.owner, { filter: "All" }, { limit: 3 })).list).toHaveLength(3);
  });

  test("the total is fresh right after a change", async () => {
    const before = await list(as.owner);
    const target = before.list[0]!.id;
    await server.db.update(reportSubmissions).set({ archived: true }).where(eq(reportSubmissions.id, target));
    try {
      expect((await list(as.owner)).total).toBe(before.total - 1);
    } finally {
      await server.db.update(reportSubmissions).set({ archived: false }).where(eq(reportSubmissions.id, target));
    }
  });
});
