import { and, eq, isNotNull } from "drizzle-orm";
import { organisations, reportForms, reportSubmissions, roles, users } from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { createUser } from "../factories/users.ts";
import * as files from "../fixtures/files.ts";
import { startDemoWithStaff } from "./demo.ts";
import { demoForm, ReporterClient, submitReport } from "./reporter.ts";
import type { TestServer } from "./server.ts";
import { loginAs, type StaffClient } from "./session.ts";
import { setTwoFactorActivated } from "./two-factor.ts";

/**
 * Two organisations for tests of another organisation's ids (decision 065): B (the demo) holds one
 * object of every kind, A (Northwind) is where the askers are. `world` names B's objects, and A's
 * own where one id of several is aimed at B.
 */

type Answer = { data?: unknown; errors?: { message: string }[] };

export interface ForeignWorld {
  server: TestServer;
  world: Record<string, string>;
  staff: { owner: StaffClient; guest: StaffClient; superAdmin: StaffClient };
  /** Reporters of B's organisation on reports of their own, and a visitor of A's reporter site. */
  reporters: { reporter: ReporterClient; drafter: ReporterClient; visitor: ReporterClient };
}

export async function uploadAs(client: StaffClient, query: string, variables: Record<string, unknown>): Promise<Answer> {
  const body = new FormData();
  body.append("operations", JSON.stringify({ query, variables: { ...variables, file: null } }));
  body.append("map", JSON.stringify({ 0: ["variables.file"] }));
  body.append("0", new Blob([files.plainJpeg()], { type: "image/jpeg" }), "picture.jpg");
  return (await client.fetch("/api/gql/query", { method: "POST", body })).json() as Promise<Answer>;
}

async function made<T>(answer: Promise<Answer>, pick: (data: Record<string, any>) => T): Promise<T> {
  const { data, errors } = await answer;
  if (errors?.length) throw new Error(`setting up: ${JSON.stringify(errors)}`);
  return pick(data as Record<string, any>);
}

export async function startForeignWorld(): Promise<ForeignWorld> {
  const world: Record<string, string> = {};
  const demo = await startDemoWithStaff();
  const { server } = demo;
  const owner = demo.as.owner;
  world.demo = demo.demoId;
  world.northwind = demo.northwindId;
  const userId = async (email: string) => (await server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  world.member = await userId("member@demo.test");
  world.ownMember = await userId("member@northwind.test");
  world.memberRole = (await server.db.select({ id: roles.id }).from(roles).where(eq(roles.name, "MEMBER")))[0]!.id;

  // B's report, with a note, a message and a guest's invite; its form, a note of the form and its build.
  const main = await demoForm(server, "demo", "Workplace Misconduct Report");
  const reportOf = async (reporter: ReporterClient) => {
    const { reportID, generatedPassword } = await submitReport(reporter, main.form.id, main.widgets);
    const [row] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    return { id: row!.id, reportID, generatedPassword };
  };
  const report = await reportOf(new ReporterClient(server, "demo.localhost"));
  world.report = report.id;
  await made(owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: world.report }), () => null);
  world.note = await made(owner.gql(`mutation ($id: ID!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: "B's note") { id } }`, { id: world.report }), (d) => d.reportSubmissionNoteCreate.id);
  world.message = await made(
    owner.gql(`mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "B's message" }) { id } }`, { id: world.report }),
    (d) => d.reportConversationSendMessage.id,
  );
  const demoGuest = await createUser(server.db, { role: "GUEST_MEMBER", organisationId: demo.demoId });
  world.guestInvite = await made(owner.gql(`mutation ($id: ID!, $e: String!) { reportSubmissionInviteUser(id: $id, email: $e) { id } }`, { id: world.report, e: demoGuest.email }), (d) => d.reportSubmissionInviteUser.id);
  world.form = main.form.id;
  world.build = main.form.deployedBuildId!;
  world.securedForm = (await demoForm(server, "demo", "Confidential Finance Concern")).form.id;
  world.formNote = await made(owner.gql(`mutation ($id: ID!) { reportFormNoteCreate(reportFormID: $id, note: "B's form note") { id } }`, { id: world.form }), (d) => d.reportFormNoteCreate.id);
  // B's tag, saved reply, subscriber, onboarding invite and logo.
  world.tag = await made(owner.gql(`mutation { tagCreate(name: "B's tag") { id } }`), (d) => d.tagCreate.id);
  world.savedReply = await made(owner.gql(`mutation { savedReplyCreate(input: { title: "B's reply", body: "Thank you." }) { id } }`), (d) => d.savedReplyCreate.id);
  world.subscriber = await made(
    owner.gql(`mutation { organisationEmailSubscriberCreate(input: { firstName: "Sub", lastName: "Scriber", email: "subscriber@example.test" }) { id } }`),
    (d) => d.organisationEmailSubscriberCreate.id,
  );
  world.onboardInvite = await made(
    owner.gql(`mutation ($r: ID!) { onboardInviteCreate(input: { email: "newcomer@example.test", firstName: "New", lastName: "Comer", roleID: $r }) { invite { id } } }`, { r: world.memberRole }),
    (d) => d.onboardInviteCreate.invite.id,
  );
  await made(uploadAs(owner, `mutation ($id: ID!, $file: File) { organisationUpdateLogo(id: $id, file: $file) { id } }`, { id: world.demo }), () => null);
  world.blob = (await server.db.select({ id: organisations.logoBlobId }).from(organisations).where(eq(organisations.id, world.demo)))[0]!.id!;

  // A's own report and form, for the cases that aim one id of several at B.
  const [ownReport] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, world.northwind), isNotNull(reportSubmissions.reportId))).limit(1);
  world.ownReport = ownReport!.id;
  world.ownForm = (await server.db.select({ id: reportForms.id }).from(reportForms).where(eq(reportForms.organisationId, world.northwind)).limit(1))[0]!.id;

  // Reporters of B's organisation on reports of their own: one signed in to a sent report, one drafting with an attachment of another draft in sight.
  const second = await reportOf(new ReporterClient(server, "demo.localhost"));
  const reporter = new ReporterClient(server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: second.reportID, password: second.generatedPassword });
  const other = new ReporterClient(server, "demo.localhost");
  await other.post("/api/auth/report_start", { reportFormID: world.form });
  const upload = new FormData();
  upload.append("file", new Blob([files.plainJpeg()], { type: "image/jpeg" }), "evidence.jpg");
  const uploaded = (await (await other.fetch("/api/files/report-attachments", { method: "POST", body: upload })).json()) as { id?: string };
  if (!uploaded.id) throw new Error(`setting up: attachment ${JSON.stringify(uploaded)}`);
  world.attachment = uploaded.id;
  const drafter = new ReporterClient(server, "demo.localhost");
  await drafter.post("/api/auth/report_start", { reportFormID: world.form });

  // A's guest may answer invites only with two-factor on (signed in first, so the session has passed it).
  const guest = await loginAs(server, "guest@northwind.test", DEMO_PASSWORD);
  await setTwoFactorActivated(server, "guest@northwind.test", true);

  // B's member with a picture of their own.
  await made(uploadAs(owner, `mutation ($id: ID!, $file: File) { userUpdateAvatar(id: $id, file: $file) { id } }`, { id: world.member }), () => null);
  world.avatar = (await server.db.select({ id: users.avatarBlobId }).from(users).where(eq(users.id, world.member!)))[0]!.id!;

  return {
    server,
    world,
    staff: { owner: demo.northwind, guest, superAdmin: demo.as.superAdmin },
    reporters: { reporter, drafter, visitor: new ReporterClient(server, "northwind.localhost") },
  };
}
