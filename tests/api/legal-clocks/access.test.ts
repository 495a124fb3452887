import { beforeAll, describe, expect, test } from "bun:test";
import { and, eq, inArray } from "drizzle-orm";
import { organisations, reportSubmissionAssignees, reportSubmissions, userActivities, users } from "../../../db/schema/index.ts";
import { CLOCKS_OFF, FEEDBACK_ALREADY_GIVEN, TEAM_ONLY_FEEDBACK } from "../../../api/modules/legal-clocks/service.ts";
import { markAcknowledged, markFeedbackGiven } from "../../../api/modules/legal-clocks/hooks.ts";
import { demoReportServer, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { anonymous, demoStaff, loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { updateOrganisations } from "../../helpers/organisations.ts";

/** Who may read a report's legal clocks, record feedback and read the dashboard's counts (decision 050). */

const state = demoReportServer();
let as: DemoStaff;
let northwind: StaffClient;

const DAY = 24 * 60 * 60 * 1000;
const CLOCKS = `query ($id: ID!) { reportSubmissionGet(id: $id) { id legalClocks { acknowledgeBy acknowledgedAt acknowledgeState feedbackBy feedbackAt feedbackState } } }`;
const FEEDBACK = `mutation ($id: ID!) { reportSubmissionFeedbackGiven(id: $id) { id legalClocks { feedbackAt feedbackState } } }`;
const COUNTS = `query ($org: ID) { legalClockCounts(organisationID: $org) { acknowledgeDueSoon acknowledgeOverdue feedbackDueSoon feedbackOverdue } }`;

interface Clocks {
  acknowledgeBy: string;
  acknowledgedAt: string | null;
  acknowledgeState: string;
  feedbackBy: string;
  feedbackAt: string | null;
  feedbackState: string;
}
type Counts = Record<"acknowledgeDueSoon" | "acknowledgeOverdue" | "feedbackDueSoon" | "feedbackOverdue", number>;

beforeAll(async () => {
  as = await demoStaff(state.server);
  northwind = await loginAs(state.server, "owner@northwind.test", DEMO_PASSWORD);
});

/** A freshly received report with its reporter signed in, the member (and the guest, when asked) on its team. */
async function freshReport(options: { withGuest?: boolean } = {}) {
  const { server, main } = state;
  const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), main.form.id, main.widgets, { w_summary: ["Something happened"] });
  const reporter = new ReporterClient(server, "demo.localhost");
  expect((await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status).toBe(200);
  const [report] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  const team = await server.db.select().from(users).where(inArray(users.email, options.withGuest ? ["member@demo.test", "guest@demo.test"] : ["member@demo.test"]));
  await server.db.insert(reportSubmissionAssignees).values(team.map((user, index) => ({ submissionId: report!.id, userId: user.id, isOwner: index === 0 })));
  await server.db.update(reportSubmissions).set({ status: "Assigned" }).where(eq(reportSubmissions.id, report!.id));
  return { report: report!, reporter };
}

const clocksOf = async (client: StaffClient, id: string) => client.gql<{ reportSubmissionGet: { legalClocks: Clocks | null } }>(CLOCKS, { id });
const countsOf = async (client: StaffClient, org?: string) => {
  const result = await client.gql<{ legalClockCounts: Counts }>(COUNTS, org ? { org } : {});
  expect(result.errors).toBeUndefined();
  return result.data!.legalClockCounts;
};
const receivedDaysAgo = (id: string, days: number) => state.server.db.update(reportSubmissions).set({ completedAt: new Date(Date.now() - days * DAY) }).where(eq(reportSubmissions.id, id));
const setClocks = (enabled: boolean) => updateOrganisations(state.server, eq(organisations.id, state.demoId), { legalClocksEnabled: enabled });

describe("the report's legalClocks field", () => {
  test("its team and the organisation's managers see both due dates, computed from the receipt", async () => {
    const { report } = await freshReport();
    for (const client of [as.member, as.owner, as.admin]) {
      const result = await clocksOf(client, report.id);
      expect(result.errors).toBeUndefined();
      const clocks = result.data!.reportSubmissionGet.legalClocks!;
      expect(new Date(clocks.acknowledgeBy).getTime()).toBe(report.completedAt!.getTime() + 7 * DAY);
      expect(clocks).toMatchObject({ acknowledgedAt: null, acknowledgeState: "Pending", feedbackAt: null, feedbackState: "Pending" });
    }
  });

  test("another organisation, a member of another report's team, the reporter and nobody signed in cannot read it", async () => {
    const { report, reporter } = await freshReport();
    await state.server.db.delete(reportSubmissionAssignees).where(eq(reportSubmissionAssignees.submissionId, report.id));
    for (const client of [northwind, as.member, anonymous(state.server)]) {
      const result = await clocksOf(client, report.id);
      expect(result.errors?.length).toBeGreaterThan(0);
      expect(result.data?.reportSubmissionGet ?? null).toBeNull();
    }
    const asReporter = await reporter.gql(CLOCKS, { id: report.id });
    expect(asReporter.errors?.length).toBeGreaterThan(0);
  });

  test("is null while the organisation has legal deadlines off", async () => {
    const { report } = await freshReport();
    await setClocks(false);
    try {
      const result = await clocksOf(as.member, report.id);
      expect(result.errors).toBeUndefined();
      expect(result.data!.reportSubmissionGet.legalClocks).toBeNull();
    } finally {
      await setClocks(true);
    }
  });
});

describe("reportSubmissionFeedbackGiven", () => {
  test("a team member records it once: the clock shows met, the audit log has the entry, a second time is refused", async () => {
    const { report } = await freshReport();
    const result = await as.member.gql<{ reportSubmissionFeedbackGiven: { legalClocks: Clocks } }>(FEEDBACK, { id: report.id });
    expect(result.errors).toBeUndefined();
    expect(result.data!.reportSubmissionFeedbackGiven.legalClocks.feedbackState).toBe("Met");
    const entries = await state.server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "FeedbackGiven")));
    expect(entries.length).toBe(1);
    const again = await as.member.gql(FEEDBACK, { id: report.id });
    expect(again.errors?.[0]?.message).toBe(FEEDBACK_ALREADY_GIVEN);
    expect((await state.server.db.select().from(userActivities).where(and(eq(userActivities.objectId, report.id), eq(userActivities.action, "FeedbackGiven")))).length).toBe(1);
  });

  test("refused to a manager not on the team, a guest on it, another organisation, the reporter and nobody; nothing changes", async () => {
    const { report, reporter } = await freshReport({ withGuest: true });
    expect((await as.admin.gql(FEEDBACK, { id: report.id })).errors?.[0]?.message).toBe(TEAM_ONLY_FEEDBACK);
    for (const client of [as.guest, northwind, anonymous(state.server)]) expect((await client.gql(FEEDBACK, { id: report.id })).errors?.length).toBeGreaterThan(0);
    expect((await reporter.gql(FEEDBACK, { id: report.id })).errors?.length).toBeGreaterThan(0);
    expect((await as.member.gql(FEEDBACK, { id: "not-an-id" })).errors?.length).toBeGreaterThan(0);
    const [after] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report.id));
    expect(after!.feedbackAt).toBeNull();
  });

  test("refused while the organisation has legal deadlines off", async () => {
    const { report } = await freshReport();
    await setClocks(false);
    try {
      expect((await as.member.gql(FEEDBACK, { id: report.id })).errors?.[0]?.message).toBe(CLOCKS_OFF);
    } finally {
      await setClocks(true);
    }
    const [after] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report.id));
    expect(after!.feedbackAt).toBeNull();
  });
});

describe("legalClockCounts", () => {
  test("counts a report due soon, then overdue, for its organisation's staff; another organisation's counts do not move", async () => {
    const { report } = await freshReport();
    const before = await countsOf(as.owner, state.demoId);
    const elsewhere = await countsOf(northwind);
    const memberBefore = await countsOf(as.member);
    await receivedDaysAgo(report.id, 6);
    expect(await countsOf(as.owner, state.demoId)).toEqual({ ...before, acknowledgeDueSoon: before.acknowledgeDueSoon + 1 });
    expect(await countsOf(as.member)).toEqual({ ...memberBefore, acknowledgeDueSoon: memberBefore.acknowledgeDueSoon + 1 });
    await receivedDaysAgo(report.id, 8);
    expect(await countsOf(as.owner, state.demoId)).toEqual({ ...before, acknowledgeOverdue: before.acknowledgeOverdue + 1 });
    expect(await countsOf(northwind)).toEqual(elsewhere);
    await state.server.db.update(reportSubmissions).set({ acknowledgedAt: new Date() }).where(eq(reportSubmissions.id, report.id));
    expect(await countsOf(as.owner, state.demoId)).toEqual(before);
  });

  test("refused for another organisation's id, to guests, the reporter and nobody", async () => {
    const { reporter } = await freshReport();
    expect((await northwind.gql(COUNTS, { org: state.demoId })).errors?.length).toBeGreaterThan(0);
    for (const client of [as.guest, anonymous(state.server)]) expect((await client.gql(COUNTS)).errors?.length).toBeGreaterThan(0);
    expect((await reporter.gql(COUNTS)).errors?.length).toBeGreaterThan(0);
  });

  test("an organisation with legal deadlines off counts nothing", async () => {
    const { report } = await freshReport();
    await receivedDaysAgo(report.id, 8);
    await setClocks(false);
    try {
      expect(await countsOf(as.owner, state.demoId)).toEqual({ acknowledgeDueSoon: 0, acknowledgeOverdue: 0, feedbackDueSoon: 0, feedbackOverdue: 0 });
    } finally {
      await setClocks(true);
    }
    expect((await countsOf(as.owner, state.demoId)).acknowledgeOverdue).toBeGreaterThan(0);
  });
});

describe("the hooks other modules call", () => {
  test("markAcknowledged and markFeedbackGiven keep the first time only", async () => {
    const { report: fresh } = await freshReport();
    const [report] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, fresh.id));
    const first = new Date("2026-01-02T03:04:05Z");
    const later = new Date("2026-02-02T03:04:05Z");
    expect(await markAcknowledged(state.server.db, report!.id, first)).toBe(true);
    expect(await markAcknowledged(state.server.db, report!.id, later)).toBe(false);
    expect(await markFeedbackGiven(state.server.db, report!.id, first)).toBe(true);
    expect(await markFeedbackGiven(state.server.db, report!.id, later)).toBe(false);
    const [after] = await state.server.db.select().from(reportSubmissions).where(eq(reportSubmissions.id, report!.id));
    expect(after!.acknowledgedAt).toEqual(first);
    expect(after!.feedbackAt).toEqual(first);
    expect(after!.updatedAt).toEqual(report!.updatedAt);
  });
});

describe("what stops the clocks in the product", () => {
  const SEND = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;
  const CLOSE = `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Substantiated) { id } }`;

  test("the reporter's message acknowledges nothing; the first staff message acknowledges; closing with an outcome is feedback", async () => {
    const { report, reporter } = await freshReport();
    expect((await reporter.gql(SEND, { text: "Is anyone there?" })).errors).toBeUndefined();
    expect((await clocksOf(as.member, report.id)).data!.reportSubmissionGet.legalClocks).toMatchObject({ acknowledgedAt: null, acknowledgeState: "Pending" });
    expect((await as.member.gql(SEND, { id: report.id, text: "We have your report." })).errors).toBeUndefined();
    const acknowledged = (await clocksOf(as.member, report.id)).data!.reportSubmissionGet.legalClocks!;
    expect(acknowledged.acknowledgeState).toBe("Met");
    expect(acknowledged.acknowledgedAt).not.toBeNull();
    // A later staff message keeps the first acknowledgement's time.
    expect((await as.member.gql(SEND, { id: report.id, text: "Still on it." })).errors).toBeUndefined();
    expect((await clocksOf(as.member, report.id)).data!.reportSubmissionGet.legalClocks!.acknowledgedAt).toBe(acknowledged.acknowledgedAt);
    expect((await as.member.gql(CLOSE, { id: report.id })).errors).toBeUndefined();
    expect((await clocksOf(as.member, report.id)).data!.reportSubmissionGet.legalClocks).toMatchObject({ feedbackState: "Met" });
  });
});

describe("the organisation setting", () => {
  const UPDATE = `mutation ($id: ID!, $on: Boolean!) { organisationUpdate(id: $id, input: { legalClocksEnabled: $on }) { legalClocksEnabled } }`;

  test("on by default; an owner switches it off and on; a member may not", async () => {
    const read = await as.owner.gql<{ organisation: { legalClocksEnabled: boolean } }>(`query ($id: ID!) { organisation(id: $id) { legalClocksEnabled } }`, { id: state.demoId });
    expect(read.data!.organisation.legalClocksEnabled).toBe(true);
    expect((await as.member.gql(UPDATE, { id: state.demoId, on: false })).errors?.length).toBeGreaterThan(0);
    const off = await as.owner.gql<{ organisationUpdate: { legalClocksEnabled: boolean } }>(UPDATE, { id: state.demoId, on: false });
    expect(off.data!.organisationUpdate.legalClocksEnabled).toBe(false);
    const on = await as.owner.gql<{ organisationUpdate: { legalClocksEnabled: boolean } }>(UPDATE, { id: state.demoId, on: true });
    expect(on.data!.organisationUpdate.legalClocksEnabled).toBe(true);
  });
});
