import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportForms, reportSubmissionAssignees, reportSubmissions, reportSubmissionTags, tags, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { generateReportId } from "../../../api/lib/report-credentials.ts";
import { PRIORITIES, REPORT_LIST_FILTERS, SORT_KEYS, SUBMISSION_STATUSES, type ReportListFilter } from "../../../api/shared/enums.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

// The list answers, page by page, exactly the rows and totals that the rules compute over the seeded
// data in plain code here: for every filter, sort order and direction, and several search texts.

type Row = typeof reportSubmissions.$inferSelect;
let server: TestServer;
let as: DemoStaff;
let demoId: string;
let rows: Row[];
let formNames: Map<string, string>;
let liveTagNames: Map<string, string>;
let tagsOf: Map<string, string[]>;
let teamOf: Map<string, Set<string>>;
let people: Record<"owner" | "admin" | "member", string>;

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const PAGE = 7;

/** A small deterministic generator, so a failure can be replayed. */
function numbers(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

async function loadFacts(): Promise<void> {
  rows = (await server.db.select().from(reportSubmissions)).filter((r) => r.organisationId === demoId && r.completed && !r.deletedAt);
  formNames = new Map((await server.db.select().from(reportForms)).map((f) => [f.id, f.name]));
  liveTagNames = new Map((await server.db.select().from(tags).where(eq(tags.archived, false))).map((t) => [t.id, t.name]));
  tagsOf = new Map();
  for (const link of await server.db.select().from(reportSubmissionTags)) tagsOf.set(link.submissionId, [...(tagsOf.get(link.submissionId) ?? []), link.tagId]);
  teamOf = new Map();
  for (const member of await server.db.select().from(reportSubmissionAssignees)) teamOf.set(member.userId, (teamOf.get(member.userId) ?? new Set()).add(member.submissionId));
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  demoId = (await server.db.select().from(organisations).where(eq(organisations.slug, "demo")))[0]!.id;
  const forms = await server.db.select().from(reportForms).where(eq(reportForms.organisationId, demoId));
  const demoTags = await server.db.select().from(tags).where(eq(tags.organisationId, demoId));
  const [archivedTag] = await server.db.insert(tags).values({ organisationId: demoId, name: "Retired Topic", archived: true }).returning();
  const staff = await server.db.select().from(users).where(inArray(users.email, ["owner@demo.test", "admin@demo.test", "member@demo.test"]));
  const idOf = (email: string) => staff.find((u) => u.email === email)!.id;
  people = { owner: idOf("owner@demo.test"), admin: idOf("admin@demo.test"), member: idOf("member@demo.test") };

  const pick = numbers(22);
  const statuses = SUBMISSION_STATUSES.filter((status) => status !== "Draft");
  const created: string[] = [];
  for (let i = 0; i < 64; i += 1) {
    const form = forms[pick(forms.length)]!;
    // Every fourth report shares its completion time with the one before, so the id breaks ties.
    const completedAt = new Date(NOW - (i % 4 === 1 ? i - 1 : i) * DAY * 0.7 - 1000);
    const [report] = await server.db
      .insert(reportSubmissions)
      .values({
        organisationId: demoId,
        formId: form.id,
        buildId: form.deployedBuildId,
        reportId: generateReportId(),
        completed: true,
        status: statuses[pick(statuses.length)]!,
        priority: PRIORITIES[pick(PRIORITIES.length)]!,
        completedAt,
        updatedAt: new Date(completedAt.getTime() + pick(5) * DAY),
        archived: pick(6) === 0,
        isTest: pick(9) === 0,
        internalReference: pick(3) === 0 ? `CASE-${100 + pick(40)}` : "",
        // A few hard-deleted reports, which nobody sees.
        deletedAt: i % 21 === 20 ? new Date(NOW - DAY) : null,
      })
      .returning();
    created.push(report!.id);
  }
  for (const id of created) {
    const chosen = new Set([...demoTags, archivedTag!].filter(() => pick(3) === 0).map((tag) => tag.id));
    if (chosen.size > 0) await server.db.insert(reportSubmissionTags).values([...chosen].map((tagId) => ({ submissionId: id, tagId })));
    const team = Object.values(people).filter(() => pick(3) === 0);
    if (team.length > 0) await server.db.insert(reportSubmissionAssignees).values(team.map((userId, k) => ({ submissionId: id, userId, isOwner: k === 0 })));
  }
  // A draft, never anyone's to see.
  await server.db.insert(reportSubmissions).values({ organisationId: demoId, formId: forms[0]!.id, reportId: generateReportId(), status: "Draft", internalReference: "CASE-101" });
  await loadFacts();
  as = await demoStaff(server);
});
afterAll(() => server.stop());

const LIST = `query ($search: ReportSearchInput, $limit: Int, $offset: Int) {
  reportSubmissions(search: $search, limit: $limit, offset: $offset) { total list { id } } }`;

/** Every page of the list, in order, and the total each page reported. */
async function allPages(client: StaffClient, search: Record<string, unknown>): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const result = await client.gql<{ reportSubmissions: { total: number; list: { id: string }[] } }>(LIST, { search, limit: PAGE, offset });
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    const page = result.data!.reportSubmissions;
    totals.push(page.total);
    ids.push(...page.list.map((r) => r.id));
    if (page.list.length < PAGE) return { ids, totals };
  }
}

const STATUS_FILTERS: Partial<Record<ReportListFilter, string>> = {
  ClosedReports: "Closed",
  CompletedReports: "Completed",
  RejectedReports: "Rejected",
  InvestigatedReports: "Investigated",
  NotInvestigatedReports: "NotInvestigated",
  SubstantiatedReports: "Substantiated",
  NotSubstantiatedReports: "NotSubstantiated",
  ActionTakenReports: "ActionTaken",
  NoActionTakenReports: "NoActionTaken",
};

function passesFilter(filter: ReportListFilter, viewer: string, r: Row): boolean {
  if (filter === "All") return true;
  if (filter === "Archived") return r.archived;
  if (r.archived) return false;
  if (filter === "MyReports") return Boolean(teamOf.get(viewer)?.has(r.id));
  const status = STATUS_FILTERS[filter];
  return status ? r.status === status : true;
}

function matchesText(text: string, r: Row): boolean {
  const needle = text.toLowerCase();
  const fields = [r.reportId ?? "", r.internalReference, formNames.get(r.formId) ?? "", ...(tagsOf.get(r.id) ?? []).map((id) => liveTagNames.get(id) ?? "")];
  return fields.some((field) => field.toLowerCase().includes(needle));
}

const SORT_KEY = { DateCreated: (r: Row) => r.completedAt!.getTime(), DateUpdated: (r: Row) => r.updatedAt.getTime(), Alphabetical: (r: Row) => r.reportId! } as const;
const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

function expected(viewer: string, visible: (r: Row) => boolean, search: { filter: ReportListFilter; sortBy: keyof typeof SORT_KEY; sortDir: "Ascending" | "Descending"; text?: string }): string[] {
  const sign = search.sortDir === "Ascending" ? 1 : -1;
  return rows
    .filter((r) => visible(r) && passesFilter(search.filter, viewer, r) && (!search.text || matchesText(search.text, r)))
    .sort((a, b) => sign * (compare(SORT_KEY[search.sortBy](a), SORT_KEY[search.sortBy](b)) || compare(a.id, b.id)))
    .map((r) => r.id);
}

async function expectSameList(client: StaffClient, viewer: string, visible: (r: Row) => boolean, search: Parameters<typeof expected>[2]) {
  const want = expected(viewer, visible, search);
  const got = await allPages(client, search);
  expect({ search, ids: got.ids }).toEqual({ search, ids: want });
  for (const total of got.totals) expect({ search, total }).toEqual({ search, total: want.length });
}

describe("the list answers the rows and totals the rules give", () => {
  for (const filter of REPORT_LIST_FILTERS) {
    test(`${filter}: every sort, both directions, every page (owner)`, async () => {
      for (const sortBy of SORT_KEYS) for (const sortDir of ["Ascending", "Descending"] as const) await expectSameList(as.owner, people.owner, () => true, { filter, sortBy, sortDir });
    });
  }

  test("a member's list is the reports on their team, filtered and sorted alike", async () => {
    const onTeam = (r: Row) => Boolean(teamOf.get(people.member)?.has(r.id));
    for (const filter of ["All", "Active", "Archived", "MyReports", "ClosedReports"] as const) {
      for (const sortDir of ["Ascending", "Descending"] as const) await expectSameList(as.member, people.member, onTeam, { filter, sortBy: "DateUpdated", sortDir });
    }
  });

  test("search texts: part of a report ID, a reference, a form's name, a tag's name, one or two letters", async () => {
    const sample = rows.find((r) => r.internalReference !== "")!;
    const texts = [sample.reportId!.slice(3, 8).toLowerCase(), "case-1", sample.internalReference.slice(2), "enquiry", "FINANCE", "culture", "retired topic", "e", "7", "zz", "nothing like this"];
    for (const text of texts) {
      for (const filter of ["All", "Active"] as const) {
        for (const sortDir of ["Ascending", "Descending"] as const) await expectSameList(as.owner, people.owner, () => true, { filter, sortBy: "Alphabetical", sortDir, text });
      }
    }
  });
});

describe("totals stay exact across changes", () => {
  test("archiving, a status change, a tag, a team change, a renamed tag and a deleted report show at once", async () => {
    const search = { filter: "All" as ReportListFilter, sortBy: "DateCreated" as const, sortDir: "Descending" as const };
    // Warm: the totals of these lists are now kept.
    const lists = [
      { ...search },
      { ...search, filter: "Active" as ReportListFilter },
      { ...search, filter: "ClosedReports" as ReportListFilter },
      { ...search, filter: "MyReports" as ReportListFilter },
      { ...search, text: "finance" },
    ];
    for (const list of lists) await expectSameList(as.owner, people.owner, () => true, list);
    const target = rows.find((r) => !r.archived && r.status !== "Closed" && !teamOf.get(people.owner)?.has(r.id))!;
    const [finance] = await server.db.select().from(tags).where(and(eq(tags.organisationId, demoId), eq(tags.name, "Finance")));
    const changes = [
      () => server.db.update(reportSubmissions).set({ status: "Closed" }).where(eq(reportSubmissions.id, target.id)),
      () => server.db.update(reportSubmissions).set({ archived: true }).where(eq(reportSubmissions.id, target.id)),
      () => server.db.update(reportSubmissions).set({ archived: false }).where(eq(reportSubmissions.id, target.id)),
      () => server.db.insert(reportSubmissionAssignees).values({ submissionId: target.id, userId: people.owner }),
      () => server.db.insert(reportSubmissionTags).values({ submissionId: target.id, tagId: finance!.id }).onConflictDoNothing(),
      () => server.db.update(tags).set({ name: "Money" }).where(eq(tags.id, finance!.id)),
      () => server.db.update(tags).set({ name: "Finance" }).where(eq(tags.id, finance!.id)),
      () => server.db.update(reportSubmissions).set({ deletedAt: new Date() }).where(eq(reportSubmissions.id, target.id)),
    ];
    for (const change of changes) {
      await change();
      await loadFacts();
      for (const list of lists) await expectSameList(as.owner, people.owner, () => true, list);
    }
  });
});
