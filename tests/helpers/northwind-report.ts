import { and, asc, count, eq, inArray, or } from "drizzle-orm";
import {
  guestMemberships,
  guestReportInvites,
  onboardInvites,
  organisationEmailSubscribers,
  organisations,
  reportFormBuilds,
  reportFormNotes,
  reportForms,
  reportConversationMessages,
  reportConversations,
  reportSubmissionAssignees,
  reportSubmissionAttachments,
  reportSubmissionNotes,
  reportSubmissions,
  reportSubmissionTags,
  roles,
  tags,
  userActivities,
  users,
} from "../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { upload } from "../fixtures/attachments.ts";
import { sendImage, STAFF_SEND_IMAGE } from "../fixtures/chat-images.ts";
import { plainJpeg } from "../fixtures/files.ts";
import { demoOrganisationIds } from "./demo.ts";
import { demoForm, ReporterClient, submitReport } from "./reporter.ts";
import type { TestServer } from "./server.ts";
import { joinTeam, loginAs, type StaffClient } from "./session.ts";

/**
 * A Northwind report with everything another organisation's staff could reach for by id (notes,
 * chat text and image, an attachment, tags, a team, a guest invite, audit entries), made through
 * the API by its reporter and Northwind's owner, and a snapshot of all of Northwind's report data.
 */

/** Northwind's ids, and the caller's own report, tag and user used where an operation mixes the two. */
export interface TargetIds {
  organisation: string;
  form: string;
  report: string;
  /** Seeded and closed as Substantiated: what re-open acts on. */
  closedReport: string;
  /** Seeded and Completed: what archive, unarchive and hard delete act on. */
  completedReport: string;
  /** Seeded, nobody on its team: what Join Team acts on. */
  newReport: string;
  note: string;
  /** The reporter's latest message, still unread by staff. */
  message: string;
  imageMessage: string;
  attachment: string;
  tag: string;
  archivedTag: string;
  invite: string;
  /** Northwind's member, on the report's team. */
  user: string;
  /** The audit entry of the owner joining the report's team. */
  activity: string;
  /** The organisation-wide entry the demo seed wrote. */
  organisationActivity: string;
  /** The form's deployed build, and an internal note on the form. */
  formBuild: string;
  formNote: string;
  /** An invite to Northwind's staff, still open (Invited). */
  onboardInvite: string;
  /** Northwind's email subscriber (one per organisation). */
  subscriber: string;
}

export interface HomeIds {
  ownReport: string;
  ownTag: string;
  ownUser: string;
  /** The Member role: roles are the same for every organisation. */
  memberRole: string;
}

export interface NorthwindReport {
  ids: TargetIds;
  /** Northwind's own report, tag and user, for running the same calls as Northwind's staff. */
  home: HomeIds;
  /** Text only Northwind's staff may ever see; no answer to anyone else may contain it. */
  secrets: string[];
  owner: StaffClient;
  guest: StaffClient;
  reporter: ReporterClient;
}

export const SEND_TEXT = `mutation ($id: ID, $text: String!) { reportConversationSendMessage(reportSubmissionID: $id, input: { type: Text, message: $text }) { id } }`;

type Answer = { data?: Record<string, unknown> | null; errors?: unknown[] };

/** The data of a call that must succeed during the set-up. */
async function must<T>(answer: Promise<Answer>): Promise<T> {
  const result = await answer;
  if (result.errors || !result.data) throw new Error(`set-up call failed: ${JSON.stringify(result)}`);
  return Object.values(result.data)[0] as T;
}

export async function buildNorthwindReport(server: TestServer): Promise<NorthwindReport> {
  const { northwindId } = await demoOrganisationIds(server);
  const owner = await loginAs(server, "owner@northwind.test", DEMO_PASSWORD);
  const guest = await loginAs(server, "guest@northwind.test", DEMO_PASSWORD);
  const userId = new Map((await server.db.select({ id: users.id, email: users.email }).from(users)).map((user) => [user.email, user.id]));
  const summary = "Northwind only: forklift 7 brakes fail at the loading bay";

  const { form, widgets } = await demoForm(server, "northwind", "Safety and Compliance Report");
  const reporter = new ReporterClient(server, "northwind.localhost");
  const started = await reporter.post<{ submissionID: string }>("/api/auth/report_start", { reportFormID: form.id });
  const attached = await upload(reporter, "loading-bay-log.txt", "Northwind only: brake test log");
  if (attached.status !== 200) throw new Error(`upload: ${JSON.stringify(attached.body)}`);
  const credentials = await submitReport(reporter, form.id, widgets, { w_summary: [summary] });
  const report = started.body.submissionID;

  await joinTeam(owner, report);
  const assign = `mutation ($id: ID!, $userID: ID!) { reportSubmissionAssignUser(id: $id, userID: $userID) { id } }`;
  for (const email of ["admin@northwind.test", "member@northwind.test"]) await must(owner.gql(assign, { id: report, userID: userId.get(email) }));
  const noteText = "Northwind only: depot manager admitted the tag was removed";
  const note = await must<{ id: string }>(owner.gql(`mutation ($id: ID!, $note: String!) { reportSubmissionNoteCreate(reportSubmissionID: $id, note: $note) { id } }`, { id: report, note: noteText }));
  await must(owner.gql(SEND_TEXT, { id: report, text: "Northwind only: which shift uses forklift 7?" }));
  const image = await sendImage(owner, { name: "bay.jpg", data: plainJpeg() }, { query: STAFF_SEND_IMAGE, variables: { id: report, caption: "" } });
  if (!image.data) throw new Error(`image: ${JSON.stringify(image)}`);
  const messageText = "Northwind only: the night shift, every day";
  const follow = new ReporterClient(server, "northwind.localhost");
  if ((await follow.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword })).status !== 200) throw new Error("reporter login");
  const message = await must<{ id: string }>(follow.gql(SEND_TEXT, { text: messageText }));

  const tagId = async (name: string) => (await server.db.select({ id: tags.id }).from(tags).where(and(eq(tags.organisationId, northwindId), eq(tags.name, name))))[0]!.id;
  const safety = await tagId("Safety");
  await must(owner.gql(`mutation ($id: ID!, $tags: [ID!]!) { reportSubmissionAssignTags(id: $id, tags: $tags) { id } }`, { id: report, tags: [safety] }));
  const archivedTag = await must<{ id: string }>(owner.gql(`mutation { tagCreate(name: "Northwind old depot") { id } }`));
  await must(owner.gql(`mutation ($id: ID!) { tagArchive(id: $id) { id } }`, { id: archivedTag.id }));
  const invite = await must<{ id: string }>(owner.gql(`mutation ($id: ID!) { reportSubmissionInviteUser(id: $id, email: "guest@northwind.test") { id } }`, { id: report }));

  const memberRole = (await server.db.select({ id: roles.id }).from(roles).where(eq(roles.name, "MEMBER")))[0]!.id;
  const staffInvite = await must<{ invite: { id: string } }>(
    owner.gql(`mutation ($role: ID!) { onboardInviteCreate(input: { firstName: "Nadia", lastName: "Newhire", email: "nadia.newhire@northwind.test", roleID: $role }) { invite { id } } }`, { role: memberRole }),
  );

  const subscriber = await must<{ id: string }>(
    owner.gql(`mutation { organisationEmailSubscriberCreate(input: { firstName: "Nell", lastName: "Notices", email: "nell.notices@northwind.test" }) { id } }`),
  );

  const formNoteText = "Northwind only: the form must mention the forklift hotline";
  const formNote = await must<{ id: string }>(owner.gql(`mutation ($id: ID!, $note: String!) { reportFormNoteCreate(reportFormID: $id, note: $note) { id } }`, { id: form.id, note: formNoteText }));

  const seeded = async (status: "Substantiated" | "Completed" | "New") =>
    (await server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(and(eq(reportSubmissions.organisationId, northwindId), eq(reportSubmissions.status, status))))[0]!.id;
  const entry = async (action: string, objectId: string) =>
    (await server.db.select({ id: userActivities.id }).from(userActivities).where(and(eq(userActivities.action, action), eq(userActivities.objectId, objectId))))[0]!.id;

  const ids: TargetIds = {
    organisation: northwindId,
    form: form.id,
    report,
    closedReport: await seeded("Substantiated"),
    completedReport: await seeded("Completed"),
    newReport: await seeded("New"),
    note: note.id,
    message: message.id,
    imageMessage: image.data.reportConversationSendMessage.id,
    attachment: attached.body.id,
    tag: safety,
    archivedTag: archivedTag.id,
    invite: invite.id,
    user: userId.get("member@northwind.test")!,
    activity: await entry("JoinTeam", report),
    organisationActivity: await entry("SeedDemo", northwindId),
    formBuild: form.deployedBuildId!,
    formNote: formNote.id,
    onboardInvite: staffInvite.invite.id,
    subscriber: subscriber.id,
  };
  return {
    ids,
    home: { ownReport: report, ownTag: safety, ownUser: userId.get("member@northwind.test")!, memberRole },
    secrets: [credentials.reportID, summary, noteText, messageText, "loading-bay-log.txt", "Northwind old depot", formNoteText, ...Object.values(ids)],
    owner,
    guest,
    reporter: follow,
  };
}

/**
 * Everything of the organisation's that a call by id could change, and how many audit entries
 * exist at all (a refused call writes none, for any organisation).
 */
export async function organisationState(server: TestServer, organisationId: string) {
  const db = server.db;
  const ownReports = db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.organisationId, organisationId));
  const ownUsers = db.select({ id: users.id }).from(users).where(eq(users.organisationId, organisationId));
  const ownTags = db.select({ id: tags.id }).from(tags).where(eq(tags.organisationId, organisationId));
  const ownForms = db.select({ id: reportForms.id }).from(reportForms).where(eq(reportForms.organisationId, organisationId));
  const [audit] = await db.select({ n: count() }).from(userActivities);
  return {
    reports: await db.select().from(reportSubmissions).where(eq(reportSubmissions.organisationId, organisationId)).orderBy(asc(reportSubmissions.id)),
    notes: await db.select().from(reportSubmissionNotes).where(eq(reportSubmissionNotes.organisationId, organisationId)).orderBy(asc(reportSubmissionNotes.id)),
    conversations: await db.select().from(reportConversations).where(eq(reportConversations.organisationId, organisationId)).orderBy(asc(reportConversations.id)),
    messages: await db.select().from(reportConversationMessages).where(eq(reportConversationMessages.organisationId, organisationId)).orderBy(asc(reportConversationMessages.id)),
    team: await db
      .select()
      .from(reportSubmissionAssignees)
      .where(or(inArray(reportSubmissionAssignees.submissionId, ownReports), inArray(reportSubmissionAssignees.userId, ownUsers)))
      .orderBy(asc(reportSubmissionAssignees.submissionId), asc(reportSubmissionAssignees.userId)),
    tags: await db.select().from(tags).where(eq(tags.organisationId, organisationId)).orderBy(asc(tags.id)),
    reportTags: await db
      .select()
      .from(reportSubmissionTags)
      .where(or(inArray(reportSubmissionTags.submissionId, ownReports), inArray(reportSubmissionTags.tagId, ownTags)))
      .orderBy(asc(reportSubmissionTags.submissionId), asc(reportSubmissionTags.tagId)),
    attachments: await db.select().from(reportSubmissionAttachments).where(inArray(reportSubmissionAttachments.submissionId, ownReports)).orderBy(asc(reportSubmissionAttachments.id)),
    invites: await db.select().from(guestReportInvites).where(eq(guestReportInvites.organisationId, organisationId)).orderBy(asc(guestReportInvites.id)),
    guestMemberships: await db.select().from(guestMemberships).where(eq(guestMemberships.organisationId, organisationId)).orderBy(asc(guestMemberships.userId)),
    forms: await db.select().from(reportForms).where(eq(reportForms.organisationId, organisationId)).orderBy(asc(reportForms.id)),
    formBuilds: await db.select().from(reportFormBuilds).where(inArray(reportFormBuilds.formId, ownForms)).orderBy(asc(reportFormBuilds.id)),
    formNotes: await db.select().from(reportFormNotes).where(eq(reportFormNotes.organisationId, organisationId)).orderBy(asc(reportFormNotes.id)),
    organisation: await db.select().from(organisations).where(eq(organisations.id, organisationId)),
    staffInvites: await db.select().from(onboardInvites).where(eq(onboardInvites.organisationId, organisationId)).orderBy(asc(onboardInvites.id)),
    subscribers: await db.select().from(organisationEmailSubscribers).where(eq(organisationEmailSubscribers.organisationId, organisationId)).orderBy(asc(organisationEmailSubscribers.id)),
    auditEntries: audit!.n,
  };
}

/** The same ids with every Northwind one replaced by an id that names nothing; the caller's own stay. */
export function missingIds(ids: TargetIds): TargetIds {
  const nothing = crypto.randomUUID();
  return Object.fromEntries(Object.keys(ids).map((key) => [key, nothing])) as unknown as TargetIds;
}
