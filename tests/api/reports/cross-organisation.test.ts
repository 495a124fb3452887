import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { reportSubmissions, tags, users } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { sendImage, STAFF_SEND_IMAGE } from "../../fixtures/chat-images.ts";
import { plainJpeg } from "../../fixtures/files.ts";
import { demoOrganisationIds } from "../../helpers/demo.ts";
import { buildNorthwindReport, missingIds, organisationState, type HomeIds, type NorthwindReport, type TargetIds } from "../../helpers/northwind-report.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { demoStaff, type DemoStaff, type StaffClient } from "../../helpers/session.ts";

/**
 * The "done when": Demo's staff get only errors when they reach for Northwind's reports,
 * notes, messages, tags, files, audit entries or exports by id. Every call is made twice, with
 * Northwind's id and with an id that names nothing: the answers must be identical (so they reveal
 * nothing, not even that the id exists) and Northwind's data must not change. Then Northwind's own
 * staff make the same calls, to show each id is real and each call would reach it.
 */

let server: TestServer;
let as: DemoStaff;
let northwind: NorthwindReport;
let demoHome: HomeIds;

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  as = await demoStaff(server);
  northwind = await buildNorthwindReport(server);
  // Northwind's guest works its report as an allowed guest does: with two-factor active (decision 032),
  // given once signed in, as if that session had passed it.
  await setTwoFactorActivated(server, "guest@northwind.test", true);
  const { demoId } = await demoOrganisationIds(server);
  // Demo's seeded Assigned report has its member and admin on the team, and a chat.
  const [demoReport] = await server.db.select().from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, demoId), eq(reportSubmissions.status, "Assigned")));
  const [demoTag] = await server.db.select().from(tags).where(and(eq(tags.organisationId, demoId), eq(tags.name, "Finance")));
  const [demoMember] = await server.db.select().from(users).where(eq(users.email, "member@demo.test"));
  demoHome = { ownReport: demoReport!.id, ownTag: demoTag!.id, ownUser: demoMember!.id, memberRole: northwind.home.memberRole };
}, 60_000);
afterAll(() => server.stop());

type Ids = TargetIds & HomeIds;
type Answer = { status?: number; data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };

const REPORT = "Report Submission is not found";
const ORGANISATION = "Organisation is not found";
const TAG = "Tag not found";
const AUDIT = "Audit log not found";
const INVITE = "Invite is not found";
/** Invites to an organisation's staff say the same (api/modules/invites/views.ts). */
const STAFF_INVITE = "Invite is not found";
const USER = "User is not found";
const SUBSCRIBER = "Subscriber is not found";
const FORM = "Report Form is not found";
const FORM_INPUT = `{ name: "Planted form", widgets: [{ type: Section, title: "S" }, { type: ShortText, title: "Q" }] }`;

interface Row {
  name: string;
  doc: string;
  vars: (ids: Ids) => Record<string, unknown>;
  /** What Demo's owner is told; null where the call succeeds with exactly the answer an unknown id gets. */
  owner: string | null;
  /** A read: Northwind's staff get it without errors. */
  read?: true;
  /** Who on Northwind's side makes the call to show the id is real (default: the owner). */
  allowedAs?: "guest";
  multipart?: true;
}

const row = (name: string, doc: string, vars: Row["vars"], owner: string | null, extra: Partial<Row> = {}): Row => ({ name, doc, vars, owner, ...extra });
const read = { read: true } as const;
const byGuest = { allowedAs: "guest" } as const;

/**
 * Every operation of reports, tags, conversations and audit that takes an id. The order matters
 * only for Northwind's own run at the end, where each call must still find its target: reads
 * first, invites before the ownership moves, tags assigned before the tag is archived.
 */
const GRAPHQL: Row[] = [
  row("reportSubmissionGet", `query ($id: ID!) { reportSubmissionGet(id: $id) { id reportID } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportSubmissionNotes", `query ($id: ID!) { reportSubmissionNotes(reportSubmissionID: $id) { total list { id note } } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportSubmissionUsers", `query ($id: ID!) { reportSubmissionUsers(reportSubmissionID: $id) { owner user { id email } } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportSubmissionAssignableUsers", `query ($id: ID!) { reportSubmissionAssignableUsers(reportSubmissionID: $id) { total } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportSubmissionInvites", `query ($id: ID!) { reportSubmissionInvites(reportSubmissionID: $id) { id email } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportConversationMessages", `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id) { messages { id message } } }`, (i) => ({ id: i.report }), REPORT, read),
  row("reportConversationMessages before another's message", `query ($id: ID, $before: ID) { reportConversationMessages(reportSubmissionID: $id, before: $before) { messages { id } } }`, (i) => ({ id: i.ownReport, before: i.message }), "Invalid cursor", read),
  row("tagGet", `query ($id: ID!) { tagGet(id: $id) { id name } }`, (i) => ({ id: i.tag }), TAG, read),
  row("tags of the organisation", `query ($org: ID) { tags(organisationID: $org, filter: All) { total list { id name } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("reportSubmissions of the organisation", `query ($search: ReportSearchInput) { reportSubmissions(search: $search) { total list { id } } }`, (i) => ({ search: { organisationID: i.organisation } }), ORGANISATION, read),
  row("reportSubmissions by another's tag", `query ($search: ReportSearchInput) { reportSubmissions(search: $search) { total list { id } } }`, (i) => ({ search: { tagIDs: [i.tag] } }), null, read),
  row("reportSubmissions by another's form", `query ($form: ID) { reportSubmissions(reportFormID: $form) { total list { id } } }`, (i) => ({ form: i.form }), null, read),
  row("reportStats", `query ($org: ID) { reportStats(organisationID: $org) { totalReports newReports } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("organisationUserStats", `query ($org: ID) { organisationUserStats(organisationID: $org) { unreadMessages unassignedReports } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("reportConversations", `query ($org: ID) { reportConversations(organisationID: $org) { total list { id } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("userActivities of the organisation", `query ($org: ID) { userActivities(organisationID: $org) { total list { id action } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("userActivities of the report", `query ($id: ID) { userActivities(objectType: ReportSubmission, objectID: $id) { total list { id } } }`, (i) => ({ id: i.report }), REPORT, read),
  row("userActivities by object id alone", `query ($id: ID) { userActivities(objectID: $id) { total list { id } } }`, (i) => ({ id: i.report }), null, read),
  row("userActivities under another's entry", `query ($parent: ID) { userActivities(parentID: $parent) { total } }`, (i) => ({ parent: i.activity }), AUDIT, read),
  row("userActivity of the report", `query ($id: ID!) { userActivity(id: $id) { id action } }`, (i) => ({ id: i.activity }), AUDIT, read),
  row("userActivity of the organisation", `query ($id: ID!) { userActivity(id: $id) { id action } }`, (i) => ({ id: i.organisationActivity }), AUDIT, read),
  row("reportFormGet", `query ($id: ID!) { reportFormGet(id: $id) { id name } }`, (i) => ({ id: i.form }), FORM, read),
  row("reportFormNotes", `query ($id: ID!) { reportFormNotes(reportFormID: $id) { total list { id note } } }`, (i) => ({ id: i.form }), FORM, read),
  row("reportForms of the organisation", `query ($org: ID) { reportForms(organisationID: $org, filter: All) { total list { id name } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),

  row("guestMemberReportInviteAccept", `mutation ($id: ID!) { guestMemberReportInviteAccept(id: $id) { id } }`, (i) => ({ id: i.invite }), INVITE, byGuest),
  row("guestMemberReportInviteReject", `mutation ($id: ID!) { guestMemberReportInviteReject(id: $id) { id } }`, (i) => ({ id: i.invite }), INVITE, byGuest),
  row("reportSubmissionLeave", `mutation ($id: ID!) { reportSubmissionLeave(id: $id) }`, (i) => ({ id: i.report }), REPORT, byGuest),
  row("reportSubmissionInviteUser", `mutation ($id: ID!) { reportSubmissionInviteUser(id: $id, email: "outsider@example.test") { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionInviteRemove", `mutation ($id: ID!) { reportSubmissionInviteRemove(id: $id) { id } }`, (i) => ({ id: i.invite }), INVITE),
  row("reportSubmissionSetPriority", `mutation ($id: ID!) { reportSubmissionSetPriority(id: $id, priority: High) { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionInternalReference", `mutation ($id: ID!) { reportSubmissionInternalReference(id: $id, internalReference: "TAKEN") { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionMuteNotification", `mutation ($id: ID!) { reportSubmissionMuteNotification(id: $id, muted: true) { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionForwardEmail", `mutation ($id: ID!) { reportSubmissionForwardEmail(id: $id, email: "outsider@example.test") { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionNoteCreate", `mutation ($id: ID!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: "Planted") { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionNoteUpdate", `mutation ($id: ID!) { reportSubmissionNoteUpdate(id: $id, note: "Rewritten") { id } }`, (i) => ({ id: i.note }), "Note is not found"),
  row("reportSubmissionNoteArchive", `mutation ($id: ID!) { reportSubmissionNoteArchive(id: $id) { id } }`, (i) => ({ id: i.note }), "Note is not found"),
  row("reportSubmissionAssignTags onto another's report", `mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id } }`, (i) => ({ id: i.report, tags: [i.ownTag] }), REPORT),
  row("reportSubmissionAssignTags of another's tag", `mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id } }`, (i) => ({ id: i.ownReport, tags: [i.tag] }), TAG),
  row("reportSubmissionAssignUser onto another's report", `mutation ($id: ID!, $user: ID!) { reportSubmissionAssignUser(id: $id, userID: $user) { id } }`, (i) => ({ id: i.report, user: i.ownUser }), REPORT),
  row("reportSubmissionAssignUser of another's user", `mutation ($id: ID!, $user: ID!) { reportSubmissionAssignUser(id: $id, userID: $user) { id } }`, (i) => ({ id: i.ownReport, user: i.user }), "User is not found"),
  row("reportSubmissionChangeOwner", `mutation ($id: ID!, $user: ID!) { reportSubmissionChangeOwner(id: $id, userID: $user) { id } }`, (i) => ({ id: i.report, user: i.user }), REPORT),
  row("reportSubmissionUnassignUser", `mutation ($id: ID!, $user: ID!) { reportSubmissionUnassignUser(id: $id, userID: $user) { id } }`, (i) => ({ id: i.report, user: i.user }), REPORT),
  row("reportSubmissionJoin", `mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`, (i) => ({ id: i.newReport }), REPORT),
  row("tagCreate in the organisation", `mutation ($org: ID) { tagCreate(organisationID: $org, name: "Planted tag") { id } }`, (i) => ({ org: i.organisation }), ORGANISATION),
  row("tagUpdate", `mutation ($id: ID!) { tagUpdate(id: $id, newName: "Renamed") { id } }`, (i) => ({ id: i.tag }), TAG),
  row("tagArchive", `mutation ($id: ID!) { tagArchive(id: $id) { id } }`, (i) => ({ id: i.tag }), TAG),
  row("tagUnarchive", `mutation ($id: ID!) { tagUnarchive(id: $id) { id } }`, (i) => ({ id: i.archivedTag }), TAG),
  row("reportFormCreate in the organisation", `mutation ($org: ID) { reportFormCreate(input: { organisationID: $org, name: "Planted form", widgets: [{ type: Section, title: "S" }, { type: ShortText, title: "Q" }] }) { id } }`, (i) => ({ org: i.organisation }), ORGANISATION),
  row("reportFormUpdate", `mutation ($id: ID!) { reportFormUpdate(id: $id, input: ${FORM_INPUT}) { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormPublish", `mutation ($id: ID!, $build: ID!) { reportFormPublish(id: $id, buildID: $build) { id } }`, (i) => ({ id: i.form, build: i.formBuild }), FORM),
  row("reportFormUnpublish", `mutation ($id: ID!) { reportFormUnpublish(id: $id) { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormSecure", `mutation ($id: ID!) { reportFormSecure(id: $id, password: "planted password") { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormLockToggle", `mutation ($id: ID!) { reportFormLockToggle(id: $id) { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormArchive", `mutation ($id: ID!) { reportFormArchive(id: $id) { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormUnarchive", `mutation ($id: ID!) { reportFormUnarchive(id: $id) { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormNoteCreate", `mutation ($id: ID!) { reportFormNoteCreate(reportFormID: $id, note: "Planted") { id } }`, (i) => ({ id: i.form }), FORM),
  row("reportFormNoteUpdate", `mutation ($id: ID!) { reportFormNoteUpdate(id: $id, note: "Rewritten") { id } }`, (i) => ({ id: i.formNote }), "Note is not found"),
  row("reportFormNoteArchive", `mutation ($id: ID!) { reportFormNoteArchive(id: $id) { id } }`, (i) => ({ id: i.formNote }), "Note is not found"),
  row("reportConversationSendMessage", `mutation ($id: ID) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: "Planted" }) { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportConversationSendMessage with an image", STAFF_SEND_IMAGE, (i) => ({ id: i.report, caption: "" }), REPORT, { multipart: true }),
  row("reportConversationReadMessages of another's message", `mutation ($id: ID, $ids: [ID!]!) { reportConversationReadMessages(reportSubmissionID: $id, messageIDs: $ids) }`, (i) => ({ id: i.ownReport, ids: [i.message] }), null),
  row("reportConversationReadMessages", `mutation ($id: ID, $ids: [ID!]!) { reportConversationReadMessages(reportSubmissionID: $id, messageIDs: $ids) }`, (i) => ({ id: i.report, ids: [i.message] }), REPORT),
  row("reportConversationUpdateUserStatus", `mutation ($id: ID) { reportConversationUpdateUserStatus(reportSubmissionID: $id, status: Online) }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionClose", `mutation ($id: ID!) { reportSubmissionClose(id: $id, completeStatus: Completed) { id } }`, (i) => ({ id: i.report }), REPORT),
  row("reportSubmissionOpen", `mutation ($id: ID!) { reportSubmissionOpen(id: $id) { id } }`, (i) => ({ id: i.closedReport }), REPORT),
  row("reportSubmissionArchive", `mutation ($id: ID!) { reportSubmissionArchive(id: $id) { id } }`, (i) => ({ id: i.completedReport }), REPORT),
  row("reportSubmissionUnarchive", `mutation ($id: ID!) { reportSubmissionUnarchive(id: $id) { id } }`, (i) => ({ id: i.completedReport }), REPORT),
  row("reportSubmissionHardDelete", `mutation ($id: ID!) { reportSubmissionHardDelete(id: $id) { id } }`, (i) => ({ id: i.completedReport }), REPORT),
  // User administration (decision 034): another organisation's users are "not found", whatever the call.
  row("userGet", `query ($id: ID!) { userGet(id: $id) { id email } }`, (i) => ({ id: i.user }), USER, read),
  row("users of the organisation", `query ($org: ID) { users(organisationID: $org) { total list { id } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("users of the report", `query ($id: ID) { users(reportSubmissionID: $id) { total list { id } } }`, (i) => ({ id: i.report }), REPORT, read),
  row("userUpdate", `mutation ($id: ID!) { userUpdate(id: $id, input: { firstName: "Planted" }) { id } }`, (i) => ({ id: i.user }), USER),
  row("userSuspend", `mutation ($id: ID!) { userSuspend(id: $id) { id } }`, (i) => ({ id: i.user }), USER),
  row("userUnsuspend", `mutation ($id: ID!) { userUnsuspend(id: $id) { id } }`, (i) => ({ id: i.user }), USER),
  row("userKick", `mutation ($id: ID!, $org: ID!) { userKick(id: $id, organisationID: $org) }`, (i) => ({ id: i.user, org: i.organisation }), USER),
  row("userDelete", `mutation ($id: ID!) { userDelete(id: $id) }`, (i) => ({ id: i.user }), USER),
  // Organisations (decision 033) and invites to their staff (decision 035).
  row("organisation", `query ($id: ID!) { organisation(id: $id) { id name usage { activeUsers } } }`, (i) => ({ id: i.organisation }), ORGANISATION, read),
  row("onboardInvites of the organisation", `query ($org: ID) { onboardInvites(organisationID: $org) { total list { id email } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row("organisationUpdate", `mutation ($id: ID!) { organisationUpdate(id: $id, input: { generalEnquiryLabel: "Planted" }) { id } }`, (i) => ({ id: i.organisation }), ORGANISATION),
  row(
    "onboardInviteCreate in the organisation",
    `mutation ($org: ID, $role: ID!) { onboardInviteCreate(organisationID: $org, input: { firstName: "Planted", lastName: "Invite", email: "planted.invite@example.test", roleID: $role }) { hasEmailSent } }`,
    (i) => ({ org: i.organisation, role: i.memberRole }),
    ORGANISATION,
  ),
  row("resendOnboardInvite", `mutation ($id: ID!) { resendOnboardInvite(id: $id) { id } }`, (i) => ({ id: i.onboardInvite }), STAFF_INVITE),
  row("onboardInviteArchive", `mutation ($id: ID!) { onboardInviteArchive(id: $id) { id } }`, (i) => ({ id: i.onboardInvite }), STAFF_INVITE),
  row("onboardInviteUnarchive", `mutation ($id: ID!) { onboardInviteUnarchive(id: $id) { id } }`, (i) => ({ id: i.onboardInvite }), STAFF_INVITE),
  // The email subscriber (decision 038): Northwind's own create meets its existing one, then deletes it.
  row("organisationEmailSubscribers of the organisation", `query ($org: ID) { organisationEmailSubscribers(organisationID: $org) { total list { id email } } }`, (i) => ({ org: i.organisation }), ORGANISATION, read),
  row(
    "organisationEmailSubscriberCreate in the organisation",
    `mutation ($org: ID) { organisationEmailSubscriberCreate(organisationID: $org, input: { firstName: "Planted", lastName: "Subscriber", email: "planted.subscriber@example.test" }) { id } }`,
    (i) => ({ org: i.organisation }),
    ORGANISATION,
  ),
  row("organisationEmailSubscriberDelete", `mutation ($id: ID!) { organisationEmailSubscriberDelete(id: $id) { id } }`, (i) => ({ id: i.subscriber }), SUBSCRIBER),
];

async function runGraphql(client: StaffClient, entry: Row, ids: Ids): Promise<Answer> {
  const variables = entry.vars(ids);
  if (!entry.multipart) return client.gql(entry.doc, variables);
  return sendImage(client, { name: "planted.jpg", data: plainJpeg() }, { query: entry.doc, variables });
}

interface RestRow {
  name: string;
  call: (client: StaffClient, ids: Ids) => Promise<Response>;
  owner: number;
  /** Reporter-only routes have no staff member who may use them. */
  staffRoute?: false;
}

const postJson = (client: StaffClient, path: string, body: unknown) =>
  client.fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const REST: RestRow[] = [
  { name: "GET /api/report-submissions/export/:id", call: (c, i) => c.fetch(`/api/report-submissions/export/${i.report}`), owner: 404 },
  { name: "POST /api/report-submissions/export-all", call: (c, i) => postJson(c, "/api/report-submissions/export-all", { search: { organisationID: i.organisation }, limit: -1, offset: 0 }), owner: 404 },
  { name: "POST /api/report-submissions/download-csv", call: (c, i) => postJson(c, "/api/report-submissions/download-csv", { search: { organisationID: i.organisation }, limit: -1, offset: 0 }), owner: 404 },
  { name: "GET /api/files/report-attachments/:id", call: (c, i) => c.fetch(`/api/files/report-attachments/${i.attachment}`), owner: 404 },
  { name: "GET /api/files/chat-images/:messageId", call: (c, i) => c.fetch(`/api/files/chat-images/${i.imageMessage}`), owner: 404 },
  { name: "DELETE /api/files/report-attachments/:id", call: (c, i) => c.fetch(`/api/files/report-attachments/${i.attachment}`, { method: "DELETE" }), owner: 401, staffRoute: false },
];

/** Status and body; a file's bytes are reduced to their type and size. */
async function runRest(client: StaffClient, entry: RestRow, ids: Ids): Promise<{ status: number; body: unknown }> {
  const response = await entry.call(client, ids);
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, body: type.includes("json") ? await response.json() : { type, bytes: (await response.arrayBuffer()).byteLength } };
}

/** The call with Northwind's ids and with ids naming nothing, both as the same client. */
async function bothWays<T>(call: (ids: Ids) => Promise<T>, home: HomeIds) {
  const target = await call({ ...northwind.ids, ...home });
  const missing = await call({ ...missingIds(northwind.ids), ...home });
  return { target, missing };
}

const expectNoSecrets = (answer: unknown) => {
  const text = JSON.stringify(answer);
  for (const secret of northwind.secrets) expect(text).not.toContain(secret);
};

const DEMO_ROLES = ["owner", "admin", "member", "guest"] as const;

test("the snapshot holds every Northwind id the calls aim at, so an unchanged snapshot means something", async () => {
  const state = await organisationState(server, northwind.ids.organisation);
  const { ids } = northwind;
  expect(state.reports.map((r) => r.id)).toEqual(expect.arrayContaining([ids.report, ids.closedReport, ids.completedReport, ids.newReport]));
  expect(state.notes.map((n) => n.id)).toContain(ids.note);
  expect(state.messages.find((m) => m.id === ids.message)).toMatchObject({ from: "Guest", state: "New" });
  expect(state.messages.map((m) => m.id)).toContain(ids.imageMessage);
  expect(state.attachments.map((a) => a.id)).toEqual([ids.attachment]);
  expect(state.team.filter((member) => member.submissionId === ids.report)).toHaveLength(3);
  expect(state.reportTags).toContainEqual(expect.objectContaining({ submissionId: ids.report, tagId: ids.tag }));
  expect(state.tags.find((t) => t.id === ids.archivedTag)?.archived).toBe(true);
  expect(state.invites.find((invite) => invite.id === ids.invite)?.status).toBe("Opened");
  expect(state.forms.find((f) => f.id === ids.form)?.deployedBuildId).toBe(ids.formBuild);
  expect(state.formNotes.map((n) => n.id)).toContain(ids.formNote);
  expect(state.subscribers.map((subscriber) => subscriber.id)).toEqual([ids.subscriber]);
  expect(state.auditEntries).toBeGreaterThan(0);
});

for (const role of DEMO_ROLES) {
  describe(`Demo's ${role} reaching for Northwind's ids`, () => {
    for (const entry of GRAPHQL) {
      test(`${entry.name}: the same answer as for an unknown id, nothing changed`, async () => {
        const before = await organisationState(server, northwind.ids.organisation);
        const { target, missing } = await bothWays((ids) => runGraphql(as[role], entry, ids), demoHome);
        expect(target).toEqual(missing);
        expectNoSecrets(target);
        if (entry.owner !== null) expect(target.errors).toBeDefined();
        if (target.errors) {
          expect(target.data ?? null).toBeNull();
          // A refusal, never a malformed call (which would fail alike for any id).
          expect(["NOT_FOUND", "FORBIDDEN", "BAD_USER_INPUT"]).toContain(target.errors[0]?.extensions?.code ?? "none");
        }
        if (role === "owner") expect(target.errors?.[0]?.message ?? null).toBe(entry.owner);
        expect(await organisationState(server, northwind.ids.organisation)).toEqual(before);
      });
    }

    for (const entry of REST) {
      test(`${entry.name}: the same answer as for an unknown id, nothing changed`, async () => {
        const before = await organisationState(server, northwind.ids.organisation);
        const { target, missing } = await bothWays((ids) => runRest(as[role], entry, ids), demoHome);
        expect(target).toEqual(missing);
        expectNoSecrets(target);
        expect(target.status).toBeGreaterThanOrEqual(400);
        if (role === "owner") expect(target.status).toBe(entry.owner);
        expect(await organisationState(server, northwind.ids.organisation)).toEqual(before);
      });
    }
  });
}

// Last, because these change Northwind's data: the same calls by Northwind's own staff do reach
// each id (an answer unlike the unknown id's), so none of the refusals above passed vacuously.
describe("the allowed side: Northwind's staff make the same calls", () => {
  for (const entry of GRAPHQL) {
    test(`${entry.name} reaches Northwind's id`, async () => {
      const client = entry.allowedAs === "guest" ? northwind.guest : northwind.owner;
      const { target, missing } = await bothWays((ids) => runGraphql(client, entry, ids), northwind.home);
      expect(target).not.toEqual(missing);
      if (entry.read) expect(target.errors).toBeUndefined();
    });
  }

  for (const entry of REST.filter((candidate) => candidate.staffRoute !== false)) {
    test(`${entry.name} hands Northwind's owner the file`, async () => {
      const { target, missing } = await bothWays((ids) => runRest(northwind.owner, entry, ids), northwind.home);
      expect(target.status).toBe(200);
      expect(missing.status).toBe(404);
    });
  }
});
