import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, isNotNull } from "drizzle-orm";
import { organisations, reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { reporterStatusOf, standingMessageNameOf } from "../../../api/modules/reporting/follow-up.ts";
import { SUBMISSION_STATUSES } from "../../../api/shared/enums.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { joinTeam, loginAs, type StaffClient } from "../../helpers/session.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";

// The follow-up dashboard tells reporters where their report stands in three words, never the
// staff status, its outcome, assignees, tags or notes.

const STATUS = `{ reporterSubmission { id reportID reporterStatus organisationName } }`;
const STANDING = `{ reporterSubmission { reporterStatus standingMessage standingMessageName } }`;
type StatusAnswer = { reporterSubmission: { id: string; reportID: string; reporterStatus: string; organisationName: string } | null };

let server: TestServer;
let owner: StaffClient;

async function reporterOf(reportID: string, password: string): Promise<ReporterClient> {
  const reporter = new ReporterClient(server, "demo.localhost");
  const login = await reporter.post("/api/auth/report_login", { reportID, password });
  expect(login.status).toBe(200);
  return reporter;
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  owner = await loginAs(server, "owner@demo.test", DEMO_PASSWORD);
});
afterAll(() => server.stop());

describe("a reporter sees where their report stands", () => {
  test("received, then being handled once someone takes it on, then closed, with no outcome named", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const reporter = await reporterOf(credentials.reportID, credentials.generatedPassword);
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));

    const fresh = await reporter.gql<StatusAnswer>(STATUS);
    expect(fresh.data?.reporterSubmission).toMatchObject({ reportID: credentials.reportID, reporterStatus: "RECEIVED", organisationName: "Demo Organisation" });

    await joinTeam(owner, row!.id);
    expect((await reporter.gql<StatusAnswer>(STATUS)).data?.reporterSubmission?.reporterStatus).toBe("IN_PROGRESS");

    const closed = await owner.gql(`mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: NotSubstantiated, note: "Internal finding") { id } }`, { id: row!.id });
    expect(closed.errors).toBeUndefined();
    const after = await reporter.gql<StatusAnswer>(STATUS);
    expect(after.data?.reporterSubmission?.reporterStatus).toBe("CLOSED");
    expect(JSON.stringify(after)).not.toMatch(/Substantiated|Internal finding/);
  });

  test("the form's own message for the standing comes with it: assigned-to-support while handled, report-closed once closed", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const assigned = "<p>A <strong>case officer</strong> is on it.</p>";
    const closedMessage = "<p>Thank you. This report is now closed.</p>";
    await server.db.update(reportForms).set({ assignedToSupportMessage: assigned, reportClosedMessage: closedMessage }).where(eq(reportForms.id, form.id));
    const credentials = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const reporter = await reporterOf(credentials.reportID, credentials.generatedPassword);
    const [row] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
    const standing = async () => (await reporter.gql<{ reporterSubmission: { reporterStatus: string; standingMessage: string; standingMessageName: string | null } }>(STANDING)).data?.reporterSubmission;

    // Each message comes with its name, so the follow-up area can ask for it in the reporter's language.
    expect(await standing()).toEqual({ reporterStatus: "RECEIVED", standingMessage: "", standingMessageName: null });
    await joinTeam(owner, row!.id);
    expect(await standing()).toEqual({ reporterStatus: "IN_PROGRESS", standingMessage: assigned, standingMessageName: "form.assignedToSupportMessage" });
    const closed = await owner.gql(`mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Investigated) { id } }`, { id: row!.id });
    expect(closed.errors).toBeUndefined();
    expect(await standing()).toEqual({ reporterStatus: "CLOSED", standingMessage: closedMessage, standingMessageName: "form.reportClosedMessage" });
    // The area asks for the texts of this organisation and form (translateData), so it learns both.
    const ids = await reporter.gql<{ reporterSubmission: { organisationID: string; formID: string } }>(`{ reporterSubmission { organisationID formID } }`);
    expect(ids.data?.reporterSubmission).toEqual({ organisationID: row!.organisationId, formID: form.id });
  });

  test("every seeded staff status reads as one of the three reporter words", async () => {
    const [demo] = await server.db.select().from(organisations).where(eq(organisations.slug, "demo"));
    const seeded = await server.db
      .select({ reportID: reportSubmissions.reportId, status: reportSubmissions.status })
      .from(reportSubmissions)
      .where(and(eq(reportSubmissions.organisationId, demo!.id), isNotNull(reportSubmissions.reportId), eq(reportSubmissions.completed, true)));
    const expected: Record<string, string> = { New: "RECEIVED", Assigned: "IN_PROGRESS", Substantiated: "CLOSED", Completed: "CLOSED", Rejected: "CLOSED" };
    const seen = new Set<string>();
    for (const { reportID, status } of seeded) {
      if (!(status in expected)) continue;
      const reporter = await reporterOf(reportID!, DEMO_REPORT_PASSWORD);
      const answer = await reporter.gql<StatusAnswer>(STATUS);
      expect({ status, reporterStatus: answer.data?.reporterSubmission?.reporterStatus }).toEqual({ status, reporterStatus: expected[status]! });
      seen.add(status);
    }
    expect([...seen].sort()).toEqual(Object.keys(expected).sort());
  });
});

test("every staff status has its reporter word: only Assigned is being handled, every concluded status is closed", () => {
  const words = Object.fromEntries(SUBMISSION_STATUSES.map((status) => [status, reporterStatusOf(status)]));
  expect(words).toEqual({
    Draft: "RECEIVED",
    New: "RECEIVED",
    Assigned: "IN_PROGRESS",
    Closed: "CLOSED",
    Rejected: "CLOSED",
    Completed: "CLOSED",
    Investigated: "CLOSED",
    NotInvestigated: "CLOSED",
    Substantiated: "CLOSED",
    NotSubstantiated: "CLOSED",
    ActionTaken: "CLOSED",
    NoActionTaken: "CLOSED",
  });
});

test("a blank message for the standing is no message: it has no name to translate", () => {
  const form = { assignedToSupportMessage: "  ", reportClosedMessage: "<p>Closed.</p>" };
  expect([standingMessageNameOf("IN_PROGRESS", form), standingMessageNameOf("CLOSED", form), standingMessageNameOf("RECEIVED", form)]).toEqual([null, "form.reportClosedMessage", null]);
});

describe("nobody else reads a report's standing", () => {
  test("without a reporter session there is no submission to read, staff included", async () => {
    expect((await new ReporterClient(server, "demo.localhost").gql<StatusAnswer>(STATUS)).data?.reporterSubmission).toBeNull();
    expect((await owner.gql<StatusAnswer>(STATUS)).data?.reporterSubmission).toBeNull();
  });

  test("another report's session reads only its own report", async () => {
    const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
    const first = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const second = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const [firstRow] = await server.db.select().from(reportSubmissions).where(eq(reportSubmissions.reportId, first.reportID));
    await joinTeam(owner, firstRow!.id);
    const other = await reporterOf(second.reportID, second.generatedPassword);
    const answer = await other.gql<StatusAnswer>(STATUS);
    expect(answer.data?.reporterSubmission).toMatchObject({ reportID: second.reportID, reporterStatus: "RECEIVED" });
  });

  test("the reporter's type has no staff status field to ask for", async () => {
    const reporter = new ReporterClient(server, "demo.localhost");
    const answer = await reporter.gql(`{ reporterSubmission { status } }`);
    expect(answer.errors?.[0]?.message).toMatch(/Cannot query field "status"/);
  });
});
