import { and, count, eq, isNotNull } from "drizzle-orm";
import { reportSubmissionNotes, reportSubmissions, tags, userActivities, users } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD, DEMO_REPORT_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { startDemoWithStaff } from "../../helpers/demo.ts";
import { demoForm, ReporterClient } from "../../helpers/reporter.ts";
import type { TestServer } from "../../helpers/server.ts";
import { anonymous } from "../../helpers/session.ts";
import { collect, wsClient } from "../../helpers/websocket.ts";
import { operationFor, textPositions, type Plausible, type TextPosition } from "./schema-sweep.ts";

export type GqlAnswer = { status: number; body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; fields?: { field: string; message: string }[] } }[] } };

/** Someone who can send GraphQL: staff on the product domain, reporters on their organisation's. */
export interface SweepActor {
  name: string;
  post(query: string, variables: Record<string, unknown>): Promise<GqlAnswer>;
}

function staffActor(server: TestServer, name: string, cookie: string): SweepActor {
  return {
    name,
    async post(query, variables) {
      const headers: Record<string, string> = { "Content-Type": "application/json" };
      if (cookie) headers.Cookie = cookie;
      const response = await server.fetch("/api/gql/query", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as GqlAnswer["body"] };
    },
  };
}

function reporterActor(name: string, reporter: ReporterClient): SweepActor {
  return { name, post: (query, variables) => reporter.post("/api/gql/query", { query, variables }) as Promise<GqlAnswer> };
}

/**
 * The demo with everyone who could reach a text argument: anonymous, the super admin, an
 * organisation owner, a reporter signed in to a report and one filling in a new one; and real ids
 * of the demo for the other arguments.
 */
export async function startSweep() {
  const { server, as, demoId } = await startDemoWithStaff();
  const form = await demoForm(server, "demo", "Workplace Misconduct Report");
  // A demo report with notes, so note operations have a real note to aim at.
  const [found] = await server.db
    .select({ id: reportSubmissions.id, reportId: reportSubmissions.reportId, noteId: reportSubmissionNotes.id })
    .from(reportSubmissions)
    .innerJoin(reportSubmissionNotes, eq(reportSubmissionNotes.submissionId, reportSubmissions.id))
    .where(and(eq(reportSubmissions.organisationId, demoId), isNotNull(reportSubmissions.reportId)))
    .limit(1);
  const report = found ? { id: found.id, reportId: found.reportId } : undefined;
  const note = found ? { id: found.noteId } : undefined;
  const [tag] = await server.db.select({ id: tags.id }).from(tags).where(eq(tags.organisationId, demoId)).limit(1);
  const [member] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "member@demo.test"));

  const signedIn = new ReporterClient(server, "demo.localhost");
  const login = await signedIn.post("/api/auth/report_login", { reportID: report!.reportId, password: DEMO_REPORT_PASSWORD });
  if (login.status !== 200) throw new Error(`reporter login: ${JSON.stringify(login.body)}`);
  const drafting = new ReporterClient(server, "demo.localhost");
  const started = await drafting.post("/api/auth/report_start", { reportFormID: form.form.id });
  if (started.status !== 200) throw new Error(`report_start: ${JSON.stringify(started.body)}`);

  const ids: Record<string, string> = {
    organisationID: demoId,
    reportSubmissionID: report!.id,
    reportFormID: form.form.id,
    userID: member!.id,
    tags: tag!.id,
    "organisation.id": demoId,
    "organisationUpdate.id": demoId,
    "userGet.id": member!.id,
    "tagGet.id": tag!.id,
    "tagUpdate.id": tag!.id,
    "tagArchive.id": tag!.id,
    "tagUnarchive.id": tag!.id,
    "reportSubmissionNoteUpdate.id": note!.id,
    "reportSubmissionNoteArchive.id": note!.id,
  };
  for (const name of ["Get", "Archive", "Unarchive", "Join", "Leave", "Open", "Close", "AssignTags", "AssignUser", "UnassignUser", "ChangeOwner", "SetPriority", "InternalReference", "ForwardEmail", "InviteUser", "MuteNotification"]) {
    ids[`reportSubmission${name}.id`] = report!.id;
  }
  const texts: Record<string, string | string[]> = {
    search: "a",
    email: "someone@demo.test",
    firstName: "Plausible",
    lastName: "Person",
    oldPassword: DEMO_PASSWORD,
    newPassword: "another-pass-2",
    password: DEMO_PASSWORD,
    note: "A plausible note",
    message: "A plausible message",
    internalReference: "REF-1",
    name: "Plausible tag",
    newName: "Plausible tag",
    widgetID: form.widgets.find((widget) => widget.type !== "Section" && widget.type !== "Note")!.id,
    answer: ["A plausible answer"],
    from: "2026-01-01",
    to: "2026-01-31",
    text: "a",
  };
  const plausible: Plausible = { ids, texts };

  const actors: SweepActor[] = [
    staffActor(server, "anonymous", anonymous(server).cookie),
    staffActor(server, "super admin", as.superAdmin.cookie),
    staffActor(server, "organisation owner", as.owner.cookie),
    reporterActor("reporter", signedIn),
    reporterActor("reporter filling a form", drafting),
  ];

  /** Audit entries: an operation refused for its input writes none. */
  const auditCount = async () => (await server.db.select({ n: count() }).from(userActivities))[0]!.n;
  return { server, actors, plausible, auditCount, staff: as, demoId, report: report!, tag: tag!, form, signedIn };
}

type Sweep = Awaited<ReturnType<typeof startSweep>>;

/** What is wrong with an answer to a bad text, or null when it is the client error it should be. */
function fault(answer: GqlAnswer, expected: string): string | null {
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  const error = answer.body.errors?.[0];
  if (!error) return `accepted: ${JSON.stringify(answer.body.data)}`;
  if (error.extensions?.code !== "BAD_USER_INPUT" || error.message !== expected) return `${error.extensions?.code}: ${error.message}`;
  return null;
}

/** `text` in each query and mutation position, as every actor, over HTTP: the faults found. */
export async function sweepOverHttp(sweep: Sweep, text: string, expected: (position: TextPosition) => string): Promise<string[]> {
  const faults: string[] = [];
  for (const actor of sweep.actors) {
    for (const position of textPositions().filter((p) => p.root !== "subscription")) {
      const { query, variables } = operationFor(position, text, sweep.plausible);
      const problem = fault(await actor.post(query, variables), expected(position));
      if (problem) faults.push(`${actor.name} ${position.label}: ${problem}`);
    }
  }
  return faults;
}

/** `text` in each subscription position, over graphql-ws as the organisation owner: the faults found. */
export async function sweepSubscriptions(sweep: Sweep, text: string, expected: (position: TextPosition) => string): Promise<string[]> {
  const client = wsClient(sweep.server, sweep.staff.owner.cookie);
  const faults: string[] = [];
  try {
    const positions = textPositions().filter((p) => p.root === "subscription");
    if (positions.length === 0) return ["the schema has no subscription with a text argument"];
    for (const position of positions) {
      const { query, variables } = operationFor(position, text, sweep.plausible);
      const run = collect<GqlAnswer["body"]>(client, query, 1, variables);
      await run.done;
      run.dispose();
      const problem = run.errors.length ? `socket error ${JSON.stringify(run.errors[0])}` : fault({ status: 200, body: run.results[0] ?? {} }, expected(position));
      if (problem) faults.push(`${position.label}: ${problem}`);
    }
  } finally {
    await client.dispose();
  }
  return faults;
}
