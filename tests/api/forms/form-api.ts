import { and, eq } from "drizzle-orm";
import { organisations, userActivities } from "../../../db/schema/index.ts";
import { seedDemo } from "../../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";
import { anonymous, loginAs, type StaffClient } from "../../helpers/session.ts";

/** What the form and template tests share: the demo's people signed in, the operations, and small readers of answers. */

// Results are checked by shape; `any` keeps each assertion to one line.
export type Data = Record<string, any>;
export type Result = { data?: Data | null; errors?: { message: string; extensions?: { code?: string } }[] };

export const BUILD = `id revision createdAt author { id email } widgets { id type title required tooltip caption answers pageName condition { id matchType rules { id conditionWidgetID conditionAnswer } } }`;
export const FORM = `id name status createdAt updatedAt archived locked organisationID organisation { id name slug } hasNotes notesCount secured
  theme { sectionTitleBackground nextButtonBackground } currentBuild { ${BUILD} } deployedBuild { id revision } publishState publicURL
  welcomeMessageTitle welcomeMessageContent finishMessageTitle finishMessageContent uploadFilesMessage assignedToSupportMessage reportClosedMessage
  showImportantInfoMessage showLogo hasChat allowFileUploads allowChatFileUploads allowedFileTypes`;

export const Q = {
  list: `query ($o: ID, $s: String, $f: ListFilter, $l: Int, $off: Int) { reportForms(organisationID: $o, search: $s, filter: $f, limit: $l, offset: $off) { total list { id name status archived publishState organisationID } } }`,
  get: `query ($id: ID!) { reportFormGet(id: $id) { ${FORM} } }`,
  create: `mutation ($input: ReportFormInput!) { reportFormCreate(input: $input) { ${FORM} } }`,
  update: `mutation ($id: ID!, $input: ReportFormInput!) { reportFormUpdate(id: $id, input: $input) { ${FORM} } }`,
  publish: `mutation ($id: ID!, $b: ID!) { reportFormPublish(id: $id, buildID: $b) { ${FORM} } }`,
  unpublish: `mutation ($id: ID!) { reportFormUnpublish(id: $id) { ${FORM} } }`,
  secure: `mutation ($id: ID!, $p: String) { reportFormSecure(id: $id, password: $p) { ${FORM} } }`,
  archive: `mutation ($id: ID!) { reportFormArchive(id: $id) { ${FORM} } }`,
  unarchive: `mutation ($id: ID!) { reportFormUnarchive(id: $id) { ${FORM} } }`,
  lock: `mutation ($id: ID!) { reportFormLockToggle(id: $id) { ${FORM} } }`,
  notes: `query ($id: ID!, $l: Int, $off: Int) { reportFormNotes(reportFormID: $id, limit: $l, offset: $off) { total list { id note archived canEdit author { id firstName lastName role } } } }`,
  noteCreate: `mutation ($id: ID!, $n: String!) { reportFormNoteCreate(reportFormID: $id, note: $n) { id note canEdit archived author { firstName } } }`,
  noteUpdate: `mutation ($id: ID!, $n: String!) { reportFormNoteUpdate(id: $id, note: $n) { id note canEdit } }`,
  noteArchive: `mutation ($id: ID!) { reportFormNoteArchive(id: $id) { id archived } }`,
  usage: `query ($id: ID!) { organisation(id: $id) { usage { activeForms } } }`,
};

export const message = (result: Result) => result.errors?.[0]?.message;
export const code = (result: Result) => result.errors?.[0]?.extensions?.code;

/** A small valid form: a section, a choice question, a question shown for one of its options. */
export function widgets(extra: Record<string, unknown>[] = []) {
  return [
    { type: "Section", title: "About", pageName: "" },
    { type: "Radio", title: "Did it happen at work?", required: true, answers: ["Yes", "No"] },
    { type: "LongText", title: "What happened?", condition: { matchType: "All", rules: [{ conditionWidgetIndex: 1, conditionAnswer: "Yes" }] } },
    ...extra,
  ];
}

export const formInput = (name: string, extra: Record<string, unknown> = {}) => ({ name, widgets: widgets(), ...extra });

/** The widgets of a build as an editor sends them back: ids kept, conditions by id. */
export function asInput(build: Data) {
  return build.widgets.map((w: Data) => ({
    id: w.id,
    type: w.type,
    title: w.title,
    required: w.required,
    tooltip: w.tooltip,
    caption: w.caption,
    answers: w.answers,
    pageName: w.pageName,
    condition: w.condition && { matchType: w.condition.matchType, rules: w.condition.rules.map((r: Data) => ({ conditionWidgetID: r.conditionWidgetID, conditionAnswer: r.conditionAnswer })) },
  }));
}

export type People = Record<"owner" | "admin" | "member" | "guest" | "nwOwner" | "superAdmin" | "anonymous", StaffClient>;

export async function startFormsServer() {
  const server = await startTestServer();
  await seedDemo(server.db);
  const login = (email: string) => loginAs(server, email, DEMO_PASSWORD);
  const [owner, admin, member, guest, nwOwner, superAdmin] = await Promise.all([
    login("owner@demo.test"),
    login("admin@demo.test"),
    login("member@demo.test"),
    login("guest@demo.test"),
    login("owner@northwind.test"),
    login("admin@lantern.test"),
  ]);
  const people: People = { owner, admin, member, guest, nwOwner, superAdmin, anonymous: anonymous(server) };
  const org: Record<string, string> = {};
  for (const row of await server.db.select().from(organisations)) org[row.slug] = row.id;
  const audit = (objectId: string, action: string) => server.db.select().from(userActivities).where(and(eq(userActivities.objectId, objectId), eq(userActivities.action, action)));
  return { server, people, org, audit };
}

export type FormsServer = Awaited<ReturnType<typeof startFormsServer>>;
export type { TestServer };
