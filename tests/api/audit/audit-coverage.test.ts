import { afterAll, beforeAll, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { getNamedType, isLeafType } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { reportSubmissionAssignees, reportSubmissions, roles, userActivities, users } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { createUser } from "../../factories/users.ts";
import * as files from "../../fixtures/files.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { loginAs, type DemoStaff, type StaffClient } from "../../helpers/session.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { formInput } from "../forms/form-api.ts";

/**
 * Every mutation of the schema either leaves an audit entry when it succeeds, or is named below
 * with the reason it need not (decision 040). A new mutation fails this test until it is one or the
 * other: adding it is one line in RUNS or EXEMPT.
 */

type ActorName = keyof DemoStaff | "northwindGuest" | "fresh";
type Fixture = Record<string, string>;
interface Run {
  as: ActorName;
  /** The document; its variables come from the fixture of ids made by earlier runs. */
  query: string;
  variables?: (fx: Fixture) => Record<string, unknown>;
  /** Keeps ids the answer names for later runs. */
  keep?: (data: Record<string, any>, fx: Fixture) => void;
  /** Sent as a GraphQL multipart request with a small picture as `variables.file`, or at the input field named. */
  upload?: true | "input.file";
}

/** `name(id: $id)`, with a selection when the mutation answers an object. */
const BY_ID = (name: string) => {
  const scalar = isLeafType(getNamedType(schema.getMutationType()!.getFields()[name]!.type));
  return `mutation ($id: ID!) { ${name}(id: $id)${scalar ? "" : " { __typename }"} }`;
};

/** In order: later runs use what earlier ones made. */
const RUNS: Record<string, Run> = {
  // Tags
  tagCreate: { as: "owner", query: `mutation ($n: String!) { tagCreate(name: $n) { id } }`, variables: () => ({ n: "Coverage" }), keep: (d, fx) => (fx.tag = d.tagCreate.id) },
  tagUpdate: { as: "owner", query: `mutation ($id: ID!) { tagUpdate(id: $id, newName: "Coverage 2") { id } }`, variables: (fx) => ({ id: fx.tag }) },
  tagArchive: { as: "owner", query: BY_ID("tagArchive"), variables: (fx) => ({ id: fx.tag }) },
  tagUnarchive: { as: "owner", query: BY_ID("tagUnarchive"), variables: (fx) => ({ id: fx.tag }) },
  // Saved replies
  savedReplyCreate: { as: "owner", query: `mutation { savedReplyCreate(input: { title: "Coverage", body: "Thank you." }) { id } }`, keep: (d, fx) => (fx.savedReply = d.savedReplyCreate.id) },
  savedReplyUpdate: { as: "owner", query: `mutation ($id: ID!) { savedReplyUpdate(id: $id, input: { title: "Coverage 2", body: "Thanks." }) { id } }`, variables: (fx) => ({ id: fx.savedReply }) },
  savedReplyArchive: { as: "admin", query: BY_ID("savedReplyArchive"), variables: (fx) => ({ id: fx.savedReply }) },
  // A report's life, on a fresh report
  reportSubmissionJoin: { as: "owner", query: BY_ID("reportSubmissionJoin"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionAssignTags: { as: "owner", query: `mutation ($id: ID!, $t: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $t) { id } }`, variables: (fx) => ({ id: fx.report, t: [fx.tag] }) },
  reportSubmissionSetPriority: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionSetPriority(id: $id, priority: High) { id } }`, variables: (fx) => ({ id: fx.report }) },
  reportSubmissionInternalReference: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionInternalReference(id: $id, internalReference: "REF-9") { id } }`, variables: (fx) => ({ id: fx.report }) },
  reportSubmissionMuteNotification: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionMuteNotification(id: $id, muted: true) { id } }`, variables: (fx) => ({ id: fx.report }) },
  reportSubmissionNoteCreate: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: "Noted") { id } }`, variables: (fx) => ({ id: fx.report }), keep: (d, fx) => (fx.note = d.reportSubmissionNoteCreate.id) },
  reportSubmissionNoteUpdate: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionNoteUpdate(id: $id, note: "Noted again") { id } }`, variables: (fx) => ({ id: fx.note }) },
  reportSubmissionNoteArchive: { as: "owner", query: BY_ID("reportSubmissionNoteArchive"), variables: (fx) => ({ id: fx.note }) },
  reportConversationSendMessage: { as: "owner", query: `mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "Hello" }) { id } }`, variables: (fx) => ({ id: fx.report }), keep: (d, fx) => (fx.message = d.reportConversationSendMessage.id) },
  reportConversationMessageRedact: { as: "admin", query: `mutation ($id: ID!) { reportConversationMessageRedact(id: $id, start: 0, end: 2) { id } }`, variables: (fx) => ({ id: fx.message }) },
  reportSubmissionAnswerRedact: { as: "owner", query: `mutation ($id: ID!, $w: String!) { reportSubmissionAnswerRedact(id: $id, widgetID: $w, index: 0, start: 0, end: 1) { id } }`, variables: (fx) => ({ id: fx.report, w: fx.textWidget }) },
  reportSubmissionAssignUser: { as: "owner", query: `mutation ($id: ID!, $u: ID!) { reportSubmissionAssignUser(id: $id, userID: $u) { id } }`, variables: (fx) => ({ id: fx.report, u: fx.member }) },
  reportSubmissionUnassignUser: { as: "owner", query: `mutation ($id: ID!, $u: ID!) { reportSubmissionUnassignUser(id: $id, userID: $u) { id } }`, variables: (fx) => ({ id: fx.report, u: fx.member }) },
  reportSubmissionChangeOwner: { as: "owner", query: `mutation ($id: ID!, $u: ID!) { reportSubmissionChangeOwner(id: $id, userID: $u) { id } }`, variables: (fx) => ({ id: fx.report, u: fx.admin }) },
  reportSubmissionForwardEmail: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionForwardEmail(id: $id, email: "desk@example.test") { id } }`, variables: (fx) => ({ id: fx.report }) },
  reportSubmissionInviteUser: { as: "admin", query: `mutation ($id: ID!) { reportSubmissionInviteUser(id: $id, email: "guest@northwind.test") { id } }`, variables: (fx) => ({ id: fx.report }), keep: (d, fx) => (fx.guestInvite = d.reportSubmissionInviteUser.id) },
  guestMemberReportInviteAccept: { as: "northwindGuest", query: BY_ID("guestMemberReportInviteAccept"), variables: (fx) => ({ id: fx.guestInvite }) },
  reportSubmissionLeave: { as: "northwindGuest", query: BY_ID("reportSubmissionLeave"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionInviteRemove: { as: "admin", query: BY_ID("reportSubmissionInviteRemove"), variables: (fx) => ({ id: fx.guestInvite }) },
  reportSubmissionFeedbackGiven: { as: "owner", query: BY_ID("reportSubmissionFeedbackGiven"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionClose: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed, note: "Done") { id } }`, variables: (fx) => ({ id: fx.report }) },
  reportSubmissionArchive: { as: "owner", query: BY_ID("reportSubmissionArchive"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionUnarchive: { as: "owner", query: BY_ID("reportSubmissionUnarchive"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionOpen: { as: "owner", query: BY_ID("reportSubmissionOpen"), variables: (fx) => ({ id: fx.report }) },
  reportSubmissionHardDelete: { as: "owner", query: BY_ID("reportSubmissionHardDelete"), variables: (fx) => ({ id: fx.doomed }) },
  reportSubmissionLegalHold: { as: "owner", query: `mutation ($id: ID!) { reportSubmissionLegalHold(id: $id, hold: true) { id } }`, variables: (fx) => ({ id: fx.report }) },
  // A guest declining an invite, on a second report
  guestMemberReportInviteReject: { as: "northwindGuest", query: BY_ID("guestMemberReportInviteReject"), variables: (fx) => ({ id: fx.secondInvite }) },
  // Forms
  reportFormCreate: { as: "owner", query: `mutation ($i: ReportFormInput!) { reportFormCreate(input: $i) { id currentBuild { id } } }`, variables: () => ({ i: formInput("Coverage form") }), keep: (d, fx) => ((fx.form = d.reportFormCreate.id), (fx.build = d.reportFormCreate.currentBuild.id)) },
  reportFormUpdate: { as: "owner", query: `mutation ($id: ID!, $i: ReportFormInput!) { reportFormUpdate(id: $id, input: $i) { id currentBuild { id } } }`, variables: (fx) => ({ id: fx.form, i: formInput("Coverage form 2") }), keep: (d, fx) => (fx.build = d.reportFormUpdate.currentBuild.id) },
  reportFormPublish: { as: "owner", query: `mutation ($id: ID!, $b: ID!) { reportFormPublish(id: $id, buildID: $b) { id } }`, variables: (fx) => ({ id: fx.form, b: fx.build }) },
  reportFormUnpublish: { as: "owner", query: BY_ID("reportFormUnpublish"), variables: (fx) => ({ id: fx.form }) },
  reportFormSecure: { as: "owner", query: `mutation ($id: ID!) { reportFormSecure(id: $id, password: "open-sesame-12") { id } }`, variables: (fx) => ({ id: fx.form }) },
  reportFormLockToggle: { as: "owner", query: BY_ID("reportFormLockToggle"), variables: (fx) => ({ id: fx.form }) },
  reportFormNoteCreate: { as: "owner", query: `mutation ($id: ID!) { reportFormNoteCreate(reportFormID: $id, note: "Form note") { id } }`, variables: (fx) => ({ id: fx.form }), keep: (d, fx) => (fx.formNote = d.reportFormNoteCreate.id) },
  reportFormNoteUpdate: { as: "owner", query: `mutation ($id: ID!) { reportFormNoteUpdate(id: $id, note: "Form note 2") { id } }`, variables: (fx) => ({ id: fx.formNote }) },
  reportFormNoteArchive: { as: "owner", query: BY_ID("reportFormNoteArchive"), variables: (fx) => ({ id: fx.formNote }) },
  reportFormTranslationUpdate: { as: "owner", query: `mutation ($id: ID!) { reportFormTranslationUpdate(input: { reportFormID: $id, lang: "de", name: "form.name", translatedText: "Abdeckungsformular", reviewed: true }) { name } }`, variables: (fx) => ({ id: fx.form }) },
  reportFormArchive: { as: "owner", query: BY_ID("reportFormArchive"), variables: (fx) => ({ id: fx.form }) },
  reportFormUnarchive: { as: "owner", query: BY_ID("reportFormUnarchive"), variables: (fx) => ({ id: fx.form }) },
  // Templates and plans: the super admin's
  reportFormTemplateCreate: { as: "superAdmin", query: `mutation ($i: ReportFormTemplateInput!) { reportFormTemplateCreate(input: $i) { id } }`, variables: () => ({ i: formInput("Coverage template") }), keep: (d, fx) => (fx.template = d.reportFormTemplateCreate.id) },
  reportFormTemplateUpdate: { as: "superAdmin", query: `mutation ($id: ID!, $i: ReportFormTemplateInput!) { reportFormTemplateUpdate(id: $id, input: $i) { id } }`, variables: (fx) => ({ id: fx.template, i: formInput("Coverage template 2") }) },
  reportFormTemplateArchive: { as: "superAdmin", query: BY_ID("reportFormTemplateArchive"), variables: (fx) => ({ id: fx.template }) },
  reportFormTemplateUnarchive: { as: "superAdmin", query: BY_ID("reportFormTemplateUnarchive"), variables: (fx) => ({ id: fx.template }) },
  productPlanCreate: { as: "superAdmin", query: `mutation { productPlanCreate(input: { name: "Coverage plan", price: 10, seats: 5 }) { id } }`, keep: (d, fx) => (fx.plan = d.productPlanCreate.id) },
  productPlanUpdate: { as: "superAdmin", query: `mutation ($id: ID!) { productPlanUpdate(id: $id, input: { name: "Coverage plan 2", price: 12, seats: 6 }) { id } }`, variables: (fx) => ({ id: fx.plan }) },
  productPlanArchive: { as: "superAdmin", query: BY_ID("productPlanArchive"), variables: (fx) => ({ id: fx.plan }) },
  productPlanUnarchive: { as: "superAdmin", query: BY_ID("productPlanUnarchive"), variables: (fx) => ({ id: fx.plan }) },
  // The organisation's email subscriber
  organisationEmailSubscriberCreate: { as: "owner", query: `mutation { organisationEmailSubscriberCreate(input: { firstName: "Sub", lastName: "Scriber", email: "subscriber@example.test" }) { id } }`, keep: (d, fx) => (fx.subscriber = d.organisationEmailSubscriberCreate.id) },
  organisationEmailSubscriberDelete: { as: "owner", query: BY_ID("organisationEmailSubscriberDelete"), variables: (fx) => ({ id: fx.subscriber }) },
  // Help resources
  resourceVideoCreate: { as: "superAdmin", query: `mutation { resourceVideoCreate(input: { title: "Coverage video", description: "How to triage", videoSrc: "https://videos.example.test/triage" }) { id } }`, keep: (d, fx) => (fx.video = d.resourceVideoCreate.id) },
  resourceVideoUpdate: { as: "superAdmin", query: `mutation ($id: ID!) { resourceVideoUpdate(id: $id, input: { title: "Coverage video 2", description: "How to triage", videoSrc: "https://videos.example.test/triage-2" }) { id } }`, variables: (fx) => ({ id: fx.video }) },
  resourceVideoArchive: { as: "superAdmin", query: BY_ID("resourceVideoArchive"), variables: (fx) => ({ id: fx.video }) },
  resourceVideoUnarchive: { as: "superAdmin", query: BY_ID("resourceVideoUnarchive"), variables: (fx) => ({ id: fx.video }) },
  resourceDocumentCreate: { as: "superAdmin", query: `mutation ($input: ResourceDocumentInput!) { resourceDocumentCreate(input: $input) { id } }`, variables: () => ({ input: { title: "Coverage document", description: "The policy" } }), upload: "input.file", keep: (d, fx) => (fx.document = d.resourceDocumentCreate.id) },
  resourceDocumentUpdate: { as: "superAdmin", query: `mutation ($id: ID!) { resourceDocumentUpdate(id: $id, input: { title: "Coverage document 2", description: "The policy" }) { id } }`, variables: (fx) => ({ id: fx.document }) },
  resourceDocumentArchive: { as: "superAdmin", query: BY_ID("resourceDocumentArchive"), variables: (fx) => ({ id: fx.document }) },
  resourceDocumentUnarchive: { as: "superAdmin", query: BY_ID("resourceDocumentUnarchive"), variables: (fx) => ({ id: fx.document }) },
  // Organisations
  organisationCreate: { as: "superAdmin", query: `mutation { organisationCreate(input: { name: "Coverage Pty Ltd", abn: "12 345 678 901" }) { id } }`, keep: (d, fx) => (fx.organisation = d.organisationCreate.id) },
  organisationUpdate: { as: "owner", query: `mutation ($id: ID!) { organisationUpdate(id: $id, input: { portalWelcomeMessageEnabled: true }) { id } }`, variables: (fx) => ({ id: fx.demo }) },
  organisationUpdateLogo: { as: "superAdmin", query: `mutation ($id: ID!, $file: File) { organisationUpdateLogo(id: $id, file: $file) { id } }`, variables: (fx) => ({ id: fx.organisation }), upload: true },
  organisationArchive: { as: "superAdmin", query: BY_ID("organisationArchive"), variables: (fx) => ({ id: fx.organisation }) },
  organisationUnarchive: { as: "superAdmin", query: BY_ID("organisationUnarchive"), variables: (fx) => ({ id: fx.organisation }) },
  // Onboard invites
  onboardInviteCreate: { as: "owner", query: `mutation ($r: ID!) { onboardInviteCreate(input: { email: "newcomer@example.test", firstName: "New", lastName: "Comer", roleID: $r }) { invite { id } } }`, variables: (fx) => ({ r: fx.memberRole }), keep: (d, fx) => (fx.onboardInvite = d.onboardInviteCreate.invite.id) },
  resendOnboardInvite: { as: "owner", query: BY_ID("resendOnboardInvite"), variables: (fx) => ({ id: fx.onboardInvite }) },
  onboardInviteArchive: { as: "owner", query: BY_ID("onboardInviteArchive"), variables: (fx) => ({ id: fx.onboardInvite }) },
  onboardInviteUnarchive: { as: "owner", query: BY_ID("onboardInviteUnarchive"), variables: (fx) => ({ id: fx.onboardInvite }) },
  // Users
  userCreate: { as: "owner", query: `mutation ($r: ID!) { userCreate(input: { email: "made@example.test", firstName: "Made", lastName: "Here", password: "made-pass-123", roleID: $r }) { id } }`, variables: (fx) => ({ r: fx.memberRole }), keep: (d, fx) => (fx.user = d.userCreate.id) },
  userUpdate: { as: "owner", query: `mutation ($id: ID!) { userUpdate(id: $id, input: { firstName: "Remade" }) { id } }`, variables: (fx) => ({ id: fx.user }) },
  userUpdateAvatar: { as: "owner", query: `mutation ($id: ID!, $file: File) { userUpdateAvatar(id: $id, file: $file) { id } }`, variables: (fx) => ({ id: fx.user }), upload: true },
  userSuspend: { as: "owner", query: BY_ID("userSuspend"), variables: (fx) => ({ id: fx.user }) },
  userUnsuspend: { as: "owner", query: BY_ID("userUnsuspend"), variables: (fx) => ({ id: fx.user }) },
  userTwoFactorAuthenticationUpdate: { as: "superAdmin", query: `mutation ($u: ID!) { userTwoFactorAuthenticationUpdate(userID: $u, activated: false, password: "${DEMO_PASSWORD}") }`, variables: (fx) => ({ u: fx.twoFactorUser }) },
  userKick: { as: "owner", query: `mutation ($id: ID!, $o: ID!) { userKick(id: $id, organisationID: $o) }`, variables: (fx) => ({ id: fx.northwindGuest, o: fx.demo }) },
  userDelete: { as: "owner", query: `mutation ($id: ID!) { userDelete(id: $id) }`, variables: (fx) => ({ id: fx.user }) },
  // One's own profile, as a fresh member (the password change ends their sessions, so it comes last)
  changeDetails: { as: "fresh", query: `mutation { changeDetails(input: { firstName: "Renamed" }) { id } }` },
  changeAvatar: { as: "fresh", query: `mutation ($file: File!) { changeAvatar(file: $file) { id } }`, upload: true },
  changePassword: { as: "fresh", query: `mutation { changePassword(oldPassword: "fresh-pass-123", newPassword: "fresh-pass-456") }` },
};

/** Mutations that may succeed without an entry of their own, and why. */
const EXEMPT: Record<string, string> = {
  reportConversationReadMessages: "a read receipt, not a change of record; the messages it marks are already logged as sent",
  reportConversationUpdateUserStatus: "presence (typing, online), not a change of record",
  reportFormUnlock: "a reporter opening a password-protected form: a check, nothing changes",
  userReportSubmissionUpdate: "reporter side: a page save of the reporter's own draft is not recorded (decision 064)",
  userReportSubmissionComplete: "reporter side: records Complete with no user, tested with the reporter journey",
  userReportSubmissionChangePassword: "reporter side: records ChangeReporterPassword with no user, tested in tests/api/reporting",
  guestSendEnquiry: "reporter side: records SendEnquiry with no user behind a proof-of-work check, tested in tests/api/reporting",
  forgotPassword: "must answer the same whether or not the account exists; records ForgotPassword only for a real one",
  resendEmailVerification: "must answer the same whether or not the account exists; records ResendEmailVerification only for a real one",
  resetPassword: "needs the mailed token; records ResetPassword, tested in tests/api/account-access",
  confirmEmailChange: "needs the link mailed to the new address; records EmailChangeConfirmed, tested in tests/api/profile/email-change.test.ts",
  cancelEmailChange: "needs the link mailed to the old address; records EmailChangeCancelled, tested in tests/api/profile/email-change.test.ts",
  onboardUpdate: "a prospect's own sign-up details before any account or organisation exists; the finished sign-up records OrganisationSignUp and Onboard",
  twoFactorAuthenticationRecover: "a sign-in step that needs a device's recovery code; records TwoFactorRecovered",
  twoFactorAuthenticationUndo: "a sign-in step that needs a set-up in progress; records TwoFactorSetupUndone",
};

let server: TestServer;
let as: DemoStaff;
const clients: Partial<Record<ActorName, StaffClient>> = {};
const fx: Fixture = {};

beforeAll(async () => {
  const demo = await startDemoWithStaff();
  ({ server, as } = demo);
  Object.assign(clients, as);
  fx.demo = demo.demoId;
  const userId = async (email: string) => (await server.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
  fx.member = await userId("member@demo.test");
  fx.admin = await userId("admin@demo.test");
  fx.memberRole = (await server.db.select({ id: roles.id }).from(roles).where(eq(roles.name, "MEMBER")))[0]!.id;
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const reportIdOf = async () => {
    const { reportID } = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
    const [row] = await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, reportID));
    return row!.id;
  };
  fx.report = await reportIdOf();
  fx.textWidget = "w_summary";
  const second = await reportIdOf();
  // A closed, archived report for the hard delete; the owner on its team.
  fx.doomed = await reportIdOf();
  await server.db.update(reportSubmissions).set({ status: "Completed", archived: true, archivedAt: new Date() }).where(eq(reportSubmissions.id, fx.doomed));
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: fx.doomed, userId: await userId("owner@demo.test"), isOwner: true });
  // The admin already on the report's team, so the owner can hand it over.
  await server.db.insert(reportSubmissionAssignees).values({ submissionId: fx.report, userId: fx.admin });
  // A guest who may accept invites (two-factor on), and one invite of theirs to decline.
  // (Signed in first: with two-factor on, a password alone would leave the session short of it.)
  clients.northwindGuest = await loginAs(server, "guest@northwind.test", DEMO_PASSWORD);
  await setTwoFactorActivated(server, "guest@northwind.test", true);
  fx.northwindGuest = await userId("guest@northwind.test");
  await as.owner.gql(`mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, { id: second });
  const invited = await as.owner.gql<{ reportSubmissionInviteUser: { id: string } }>(`mutation ($id: ID!) { reportSubmissionInviteUser(id: $id, email: "guest@northwind.test") { id } }`, { id: second });
  fx.secondInvite = invited.data!.reportSubmissionInviteUser.id;
  // Someone whose two-factor a super admin may turn off, and a member to change their own profile.
  const twoFactor = await createUser(server.db, { role: "MEMBER", organisationId: demo.demoId });
  await setTwoFactorActivated(server, twoFactor.email, true);
  fx.twoFactorUser = twoFactor.id;
  const fresh = await createUser(server.db, { role: "MEMBER", organisationId: demo.demoId, password: "fresh-pass-123" });
  clients.fresh = await loginAs(server, fresh.email, "fresh-pass-123");
}, 60_000);
afterAll(() => server.stop());

/** Entries written as this person: background writers (the new-report mail) record as no one, so they cannot pass for a run's. */
const entriesBy = async (userId: string) => (await server.db.select({ n: count() }).from(userActivities).where(eq(userActivities.userId, userId)))[0]!.n;
const idOf = async (client: StaffClient) => (await client.gql<{ viewer: { id: string } }>(`{ viewer { id } }`)).data!.viewer.id;

async function send(run: Run, client: StaffClient): Promise<{ data?: Record<string, any>; errors?: { message: string }[] }> {
  const variables = run.variables?.(fx) ?? {};
  if (!run.upload) return client.gql(run.query, variables);
  const body = new FormData();
  const nested = run.upload === "input.file";
  const withSlot = nested ? { ...variables, input: { ...(variables.input as object), file: null } } : { ...variables, file: null };
  body.append("operations", JSON.stringify({ query: run.query, variables: withSlot }));
  body.append("map", JSON.stringify({ 0: [nested ? "variables.input.file" : "variables.file"] }));
  body.append("0", new Blob([files.plainJpeg()], { type: "image/jpeg" }), "picture.jpg");
  return (await client.fetch("/api/gql/query", { method: "POST", body })).json() as never;
}

test("every mutation is run here or exempt with a reason, and none is both", () => {
  const mutations = Object.keys(schema.getMutationType()!.getFields()).sort();
  const walked = [...Object.keys(RUNS), ...Object.keys(EXEMPT)].sort();
  expect(walked).toEqual(mutations);
  expect(Object.keys(RUNS).filter((name) => name in EXEMPT)).toEqual([]);
});

test("every mutation run successfully leaves a new audit entry once it has answered", async () => {
  const silent: string[] = [];
  for (const [name, run] of Object.entries(RUNS)) {
    const actorId = await idOf(clients[run.as]!);
    const before = await entriesBy(actorId);
    const answer = await send(run, clients[run.as]!);
    if (answer.errors?.length) throw new Error(`${name} failed: ${JSON.stringify(answer.errors)}`);
    run.keep?.(answer.data!, fx);
    if ((await entriesBy(actorId)) <= before) silent.push(name);
  }
  expect(silent).toEqual([]);
}, 120_000);
