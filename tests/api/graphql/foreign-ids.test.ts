import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { getNamedType, isLeafType } from "graphql";
import { schema } from "../../../api/graphql/schema.ts";
import { organisations, reportForms, reportSubmissions, roles, users } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { createUser } from "../../factories/users.ts";
import * as files from "../../fixtures/files.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { loginAs, type StaffClient } from "../../helpers/session.ts";
import { setTwoFactorActivated } from "../../helpers/two-factor.ts";
import { CASES, NOT_APPLICABLE, type CaseActor, type World } from "./foreign-id-cases.ts";
import { textPositions } from "./schema-sweep.ts";

/**
 * Authorisation before validation (decision 065): a mutation given another organisation's id
 * answers exactly as it does an id that names nothing, whatever else its input holds, and
 * changes nothing there. The positions come from the built schema, so a new id argument fails
 * here until it is a case or named as not applicable.
 */

type Answer = { data?: unknown; errors?: { message: string; extensions?: { code?: string; fields?: unknown } }[] };

let server: TestServer;
const world: World = {};
const senders = {} as Record<CaseActor, (query: string, variables: Record<string, unknown>) => Promise<Answer>>;

/** An id-like position: an ID, or a text whose name says it holds one. */
const idPositions = () =>
  textPositions()
    .filter((position) => position.root === "mutation" && (position.typeName === "ID" || /(^id|ID|Id)s?$/.test(position.path.at(-1)!)))
    .map((position) => position.label);

const staffSender = (client: StaffClient) => (query: string, variables: Record<string, unknown>) => client.gql(query, variables) as Promise<Answer>;
const reporterSender = (client: ReporterClient) => (query: string, variables: Record<string, unknown>) => client.gql(query, variables) as Promise<Answer>;

/** The mutation with each given variable declared as the schema types its argument. */
function documentFor(label: string, variables: Record<string, unknown>): string {
  const name = label.slice(0, label.indexOf("("));
  const field = schema.getMutationType()!.getFields()[name]!;
  const used = field.args.filter((argument) => argument.name in variables);
  const declarations = used.map((argument) => `$${argument.name}: ${String(argument.type)}`).join(", ");
  const call = used.map((argument) => `${argument.name}: $${argument.name}`).join(", ");
  const selection = isLeafType(getNamedType(field.type)) ? "" : " { __typename }";
  return `mutation${declarations ? ` (${declarations})` : ""} { ${name}${call ? `(${call})` : ""}${selection} }`;
}

/** PGlite's driver answers `{ rows }`, postgres.js the rows themselves. */
async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await server.db.execute(query)) as unknown;
  return (typeof result === "object" && result !== null && "rows" in result ? (result as { rows: T[] }).rows : result) as T[];
}

/** Every row of organisation B, as text: what a refused mutation must leave as it was. */
async function organisationB(): Promise<string> {
  const tables = await rowsOf<{ table_name: string }>(
    sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'organisation_id' order by table_name`,
  );
  const parts = [JSON.stringify(await server.db.select().from(organisations).where(eq(organisations.id, world.demo!)))];
  for (const { table_name } of tables) {
    const rows = await rowsOf<{ row: string }>(sql`select t::text as row from ${sql.identifier(table_name)} t where organisation_id = ${world.demo!} order by 1`);
    parts.push(`${table_name}: ${rows.map((row) => row.row).join("\n")}`);
  }
  return parts.join("\n");
}

async function uploadAs(client: StaffClient, query: string, variables: Record<string, unknown>): Promise<Answer> {
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

beforeAll(async () => {
  const demo = await startDemoWithStaff();
  server = demo.server;
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

  Object.assign(senders, {
    owner: staffSender(demo.northwind),
    guest: staffSender(guest),
    superAdmin: staffSender(demo.as.superAdmin),
    reporter: reporterSender(reporter),
    drafter: reporterSender(drafter),
    visitor: reporterSender(new ReporterClient(server, "northwind.localhost")),
  });
}, 120_000);
afterAll(() => server.stop());

describe("another organisation's id", () => {
  test("every id-like mutation argument is a case here or named as not applicable, and none is both", () => {
    const positions = idPositions().sort();
    expect(positions.length).toBeGreaterThan(60);
    expect([...Object.keys(CASES), ...Object.keys(NOT_APPLICABLE)].sort()).toEqual(positions);
    expect(Object.keys(CASES).filter((label) => label in NOT_APPLICABLE)).toEqual([]);
  });

  test("is answered as an unknown id is, not found, whatever else the input holds, and changes nothing there", async () => {
    const faults: string[] = [];
    for (const [label, run] of Object.entries(CASES)) {
      if (!run.foreign) continue;
      const before = await organisationB();
      const foreign = await senders[run.as](documentFor(label, run.variables(run.foreign(world), world)), run.variables(run.foreign(world), world));
      const unknown = await senders[run.as](documentFor(label, run.variables(crypto.randomUUID(), world)), run.variables(crypto.randomUUID(), world));
      const code = foreign.errors?.[0]?.extensions?.code;
      if (run.passedOver) {
        if (code) faults.push(`${label}: ${code} ${foreign.errors?.[0]?.message}, where it is passed over`);
        else if (JSON.stringify(foreign) !== JSON.stringify(unknown)) faults.push(`${label}: ${JSON.stringify(foreign)} but for an unknown id ${JSON.stringify(unknown)}`);
      } else if (code !== "NOT_FOUND") faults.push(`${label}: ${code ?? "accepted"} ${foreign.errors?.[0]?.message ?? JSON.stringify(foreign.data)}`);
      else if (JSON.stringify(foreign) !== JSON.stringify(unknown)) faults.push(`${label}: ${JSON.stringify(foreign)} but for an unknown id ${JSON.stringify(unknown)}`);
      if ((await organisationB()) !== before) faults.push(`${label}: changed organisation B`);
    }
    expect(faults).toEqual([]);
  }, 120_000);

  test("an unknown id is not found before the rest of the input is judged, for the super admin too", async () => {
    const faults: string[] = [];
    for (const [label, run] of Object.entries(CASES)) {
      if (run.passedOver) continue;
      const variables = run.variables(crypto.randomUUID(), world);
      const answer = await senders[run.as](documentFor(label, variables), variables);
      const code = answer.errors?.[0]?.extensions?.code;
      if (code !== "NOT_FOUND") faults.push(`${label} as ${run.as}: ${code ?? "accepted"} ${answer.errors?.[0]?.message ?? JSON.stringify(answer.data)}`);
    }
    expect(faults).toEqual([]);
  }, 120_000);
});
