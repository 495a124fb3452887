import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import postgres from "postgres";
import { randomBytes } from "node:crypto";
import { SEALED_TEXT_PREFIX, type SealPurpose } from "../../../api/lib/key-ring.ts";
import { buildWidgets } from "../../../api/modules/reporting/forms.ts";
import type { FormWidget } from "../../../api/shared/form-definition.ts";
import { openDatabase, type DatabaseHandle } from "../../../db/client.ts";
import { resultRows } from "../../../db/results.ts";
import { organisations, reportForms, reportSubmissions } from "../../../db/schema/index.ts";
import { DEMO_PASSWORD } from "../../../db/seed/demo-accounts.ts";
import { PREVIOUS_RELEASE } from "../../../scripts/check-migrations.ts";
import { fetchingServer, fetchOnPort } from "../../helpers/lantern-process.ts";
import { TEST_MASTER_KEY } from "../../helpers/master-key.ts";
import { freePort, waitForReady } from "../../helpers/processes.ts";
import { postSolving } from "../../helpers/proof-of-work.ts";
import { testKeyRing } from "../../helpers/sealed-text.ts";
import { pagesOfAnswers, ReporterClient, submitReport, UPDATE } from "../../helpers/reporter.ts";
import { clientWithCookie, loginAs, type StaffClient } from "../../helpers/session.ts";
import { databaseUrl, usingPostgres } from "../../setup/template.ts";

/**
 * A rolling upgrade (decision 057): the previous release (a fixed commit of main, taken from git)
 * migrates an empty Postgres to its schema and serves; a new instance starts on the same database
 * and migrates it while the old one keeps serving reporters and staff; then both serve side by
 * side, each reading what the other wrote.
 */

const ROOT = join(import.meta.dir, "..", "..", "..");
/** What a server of that release needs from its tree; node_modules and the built site are this checkout's. */
const RELEASE_PATHS = ["api", "db", "scripts", "package.json", "bunfig.toml", "tsconfig.json"];
const HOST = "demo.localhost";
const OWNER = "owner@demo.test";

const DETAIL = `query ($id: ID!) { reportSubmissionGet(id: $id) { reportID priority answers { answers { widgetID answer } } } }`;
const MESSAGES = `query ($id: ID) { reportConversationMessages(reportSubmissionID: $id, last: 10) { messages { message from } } }`;
const SEND = `mutation ($text: String!) { reportConversationSendMessage(input: { type: Text, message: $text }) { id } }`;
const OWN_REPORT = `{ reporterSubmission { reportID completed } }`;
const PRIORITY = `mutation ($id: ID!, $priority: Priority!) { reportSubmissionSetPriority(id: $id, priority: $priority) { priority } }`;
const JOIN = `mutation ($id: ID!) { reportSubmissionJoin(id: $id) { id } }`;

interface Instance {
  child: Subprocess<"ignore", "ignore", "pipe">;
  server: ReturnType<typeof fetchingServer>;
}

interface SentReport {
  organisationId: string;
  reportID: string;
  password: string;
  submissionId: string;
  answers: Record<string, string[]>;
}

const running = new Set<Subprocess>();
let home = "";
let databaseName = "";
let database: DatabaseHandle | null = null;
let env: Record<string, string | undefined> = {};
let form: { id: string; widgets: FormWidget[] };

function run(command: string[], cwd: string): string {
  const result = Bun.spawnSync(command, { cwd, env, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) throw new Error(`${command.join(" ")} failed: ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** The previous release's tree as `git archive` gives it, sharing this checkout's packages when its lockfile is the same. */
function materialisePreviousRelease(into: string): string {
  const tree = join(into, "previous-release");
  mkdirSync(join(tree, "site"), { recursive: true });
  const archive = join(into, "previous-release.tar");
  run(["git", "archive", "--output", archive, PREVIOUS_RELEASE.commit, ...RELEASE_PATHS], ROOT);
  run(["tar", "-xf", archive, "-C", tree], ROOT);
  if (run(["git", "show", `${PREVIOUS_RELEASE.commit}:bun.lock`], ROOT) !== readFileSync(join(ROOT, "bun.lock"), "utf8"))
    throw new Error("The previous release's bun.lock differs from this one, so it cannot run on these node_modules: move PREVIOUS_RELEASE to a commit with this lockfile");
  const migrations = readdirSync(join(tree, "db", "migrations")).sort();
  expect(migrations.at(-1)).toBe(PREVIOUS_RELEASE.lastMigration);
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  symlinkSync(join(ROOT, "site", "dist"), join(tree, "site", "dist"));
  return tree;
}

/** Starts `bun main` on the shared database; rejects with its stderr when it exits or is not ready in time. */
async function startInstance(main: string): Promise<Instance> {
  const port = await freePort();
  const child = Bun.spawn(["bun", main], { env: { ...env, PORT: String(port) }, stdout: "ignore", stderr: "pipe", stdin: "ignore" });
  running.add(child);
  void child.exited.then(() => running.delete(child));
  const stderr = new Response(child.stderr).text();
  const outcome = await Promise.race([waitForReady(`http://127.0.0.1:${port}`, 30_000).then((ready) => (ready ? "ready" : "not ready")), child.exited.then(() => "exited")]);
  if (outcome !== "ready") {
    child.kill(9);
    throw new Error(`${main} ${outcome} (exit ${child.exitCode}, signal ${child.signalCode}): ${await stderr}`);
  }
  return { child, server: fetchingServer({ port, fetch: fetchOnPort(port) }) };
}

const expectedAnswers = () => Object.fromEntries(pagesOfAnswers(form.widgets).flat().map((answer) => [answer.widgetID, answer.answer]));

/** A reporter on this instance fills in the demo's main form and completes it. */
async function sendReport(on: Instance): Promise<SentReport> {
  const credentials = await submitReport(new ReporterClient(on.server, HOST), form.id, form.widgets);
  const [row] = await database!.db
    .select({ id: reportSubmissions.id, organisationId: reportSubmissions.organisationId })
    .from(reportSubmissions)
    .where(eq(reportSubmissions.reportId, credentials.reportID));
  return { organisationId: row!.organisationId, reportID: credentials.reportID, password: credentials.generatedPassword, submissionId: row!.id, answers: expectedAnswers() };
}

/** The reporter of `report` signs in on this instance, as the follow-up page does. */
async function reporterOn(on: Instance, report: SentReport): Promise<ReporterClient> {
  const reporter = new ReporterClient(on.server, HOST);
  const body = { reportID: report.reportID, password: report.password };
  const { response } = await postSolving((solved) => reporter.fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(solved) }), body);
  expect({ reportID: report.reportID, login: response.status }).toEqual({ reportID: report.reportID, login: 200 });
  return reporter;
}

/**
 * Old instances and sealed text: the new release seals reporters' answers and messages at rest
 * (decision 049) and, once it runs, seals what is still in plain, also what old instances write
 * meanwhile. The previous release predates sealing and shows such a value as it is stored. That is
 * the one known gap of this upgrade (decision 057): old instances' staff see sealed text until they
 * are replaced. Reads on an old instance are therefore checked with sealed values opened: the data
 * is whole and right, only shown sealed; reads on the new instance must show it in plain.
 */
type Shown = "plain" | "plain or sealed";

async function shownText(report: SentReport, purpose: SealPurpose, value: string, shown: Shown): Promise<string> {
  if (shown === "plain" || !value.startsWith(SEALED_TEXT_PREFIX)) return value;
  const sealer = await testKeyRing(database!.db).sealer(database!.db, report.organisationId);
  return sealer.openText(purpose, value);
}

/** What staff see of a report's answers and priority on this instance. */
async function staffView(staff: StaffClient, report: SentReport, shown: Shown = "plain") {
  const read = await staff.gql<{ reportSubmissionGet: { reportID: string; priority: string; answers: { answers: { widgetID: string; answer: string[] }[] }[] } }>(DETAIL, { id: report.submissionId });
  const detail = read.data?.reportSubmissionGet;
  const pages = (detail?.answers ?? []).flatMap((page) => page.answers);
  const answers: Record<string, string[]> = {};
  for (const answer of pages) answers[answer.widgetID] = await Promise.all(answer.answer.map((value) => shownText(report, "answer", value, shown)));
  return { reportID: detail?.reportID ?? read.errors, priority: detail?.priority, answers };
}

async function expectStaffReadWhole(staff: StaffClient, report: SentReport, shown: Shown = "plain") {
  const view = await staffView(staff, report, shown);
  expect({ reportID: view.reportID, answers: view.answers }).toEqual({ reportID: report.reportID, answers: report.answers });
}

async function messagesOn(staff: StaffClient, report: SentReport, shown: Shown = "plain"): Promise<string[]> {
  const read = await staff.gql<{ reportConversationMessages: { messages: { message: string }[] } }>(MESSAGES, { id: report.submissionId });
  const messages = read.data?.reportConversationMessages.messages.map((message) => message.message) ?? [JSON.stringify(read.errors)];
  return Promise.all(messages.map((message) => shownText(report, "message", message, shown)));
}

async function sendMessage(reporter: ReporterClient, text: string) {
  expect((await reporter.gql<{ reportConversationSendMessage: { id: string } }>(SEND, { text })).data?.reportConversationSendMessage.id).toBeString();
}

describe.if(usingPostgres())("an upgrade from the previous release while it serves", () => {
  let previousTree = "";
  let old: Instance;
  let next: Instance;
  let oldStaff: StaffClient;
  let before: SentReport;
  const duringUpgrade: SentReport[] = [];
  let afterMigration: SentReport;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "lantern-upgrade-"));
    databaseName = `lantern_upgrade_${randomBytes(6).toString("hex")}`;
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${databaseName}`);
    await admin.end();
    env = { ...process.env, DATABASE_URL: databaseUrl(databaseName), DATA_DIR: join(home, "data"), APP_DOMAIN: "localhost", MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: "error" };
    previousTree = materialisePreviousRelease(home);
    // The previous release's own migrations and demo seed: its schema, as an installation of it has.
    run(["bun", join(previousTree, "scripts", "cli.ts"), "seed-demo"], previousTree);
    database = await openDatabase({ kind: "postgres", url: databaseUrl(databaseName), max: 2 });
    const [row] = await database.db
      .select({ id: reportForms.id, buildId: reportForms.deployedBuildId })
      .from(reportForms)
      .innerJoin(organisations, eq(organisations.id, reportForms.organisationId))
      .where(and(eq(organisations.slug, "demo"), eq(reportForms.name, "Workplace Misconduct Report")));
    form = { id: row!.id, widgets: await buildWidgets(database.db, row!.buildId!) };
  }, 60_000);

  afterAll(async () => {
    for (const child of running) child.kill(9);
    await Promise.all([...running].map((child) => child.exited));
    await database?.close();
    if (databaseName) {
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test("the previous release serves on its schema: a report completes, staff read it, the reporter writes in the chat", async () => {
    expect(await tableExists("saved_replies")).toBe(false);
    old = await startInstance(join(previousTree, "api", "main.ts"));
    oldStaff = await loginAs(old.server, OWNER, DEMO_PASSWORD);
    before = await sendReport(old);
    await expectStaffReadWhole(oldStaff, before);
    await sendMessage(await reporterOn(old, before), "Sent before the upgrade");
    expect(await messagesOn(oldStaff, before)).toEqual(["Sent before the upgrade"]);
  }, 60_000);

  test("a new instance migrates the database while the old one keeps completing reports and answering staff", async () => {
    let upgrading = true;
    const failures: unknown[] = [];
    const traffic = (async () => {
      while (upgrading) {
        try {
          const report = await sendReport(old);
          duringUpgrade.push(report);
          await expectStaffReadWhole(oldStaff, before, "plain or sealed");
        } catch (error) {
          failures.push(error);
        }
      }
    })();
    try {
      next = await startInstance(join(ROOT, "api", "main.ts"));
    } finally {
      upgrading = false;
      await traffic;
    }
    expect({ failures, oldExited: old.child.exitCode ?? old.child.signalCode }).toEqual({ failures: [], oldExited: null });
    expect(duringUpgrade.length).toBeGreaterThan(0);
    // The new release's schema is in place: every migration of this checkout is recorded as applied.
    expect(await tableExists("saved_replies")).toBe(true);
    const [applied] = resultRows<{ count: number }>(await database!.db.execute(sql`select count(*)::int as count from "__lantern_migrations"`));
    expect(applied!.count).toBe(readdirSync(join(ROOT, "db", "migrations")).length);
  }, 60_000);

  test("the old instance keeps working on the migrated schema", async () => {
    afterMigration = await sendReport(old);
    for (const report of [before, ...duringUpgrade, afterMigration]) await expectStaffReadWhole(oldStaff, report, "plain or sealed");
    const reporter = await reporterOn(old, afterMigration);
    await sendMessage(reporter, "Sent to the old instance after the migration");
    expect(await messagesOn(oldStaff, afterMigration, "plain or sealed")).toEqual(["Sent to the old instance after the migration"]);
    // A draft the old instance started is saved page by page on the new schema.
    const drafting = new ReporterClient(old.server, HOST);
    expect((await drafting.post("/api/auth/report_start", { reportFormID: form.id })).status).toBe(200);
    const [firstPage] = pagesOfAnswers(form.widgets);
    expect((await drafting.gql<{ userReportSubmissionUpdate: { success: boolean } }>(UPDATE, { page: 0, answers: firstPage })).data?.userReportSubmissionUpdate.success).toBe(true);
    // An old instance started now (a replacement during the upgrade, or a rollback) finds its own
    // migrations applied, leaves the newer ones alone, and serves.
    const restarted = await startInstance(join(previousTree, "api", "main.ts"));
    await expectStaffReadWhole(await loginAs(restarted.server, OWNER, DEMO_PASSWORD), afterMigration, "plain or sealed");
    restarted.child.kill("SIGTERM");
    expect(await restarted.child.exited).toBe(0);
  }, 60_000);

  test("the new instance reads everything the old one wrote, before, during and after the migration", async () => {
    const newStaff = await loginAs(next.server, OWNER, DEMO_PASSWORD);
    for (const report of [before, ...duringUpgrade, afterMigration]) await expectStaffReadWhole(newStaff, report);
    expect(await messagesOn(newStaff, before)).toEqual(["Sent before the upgrade"]);
    expect(await messagesOn(newStaff, afterMigration)).toEqual(["Sent to the old instance after the migration"]);
    // The reporter of a report sent to the old instance signs in on the new one and follows it up there.
    const reporter = await reporterOn(next, before);
    expect((await reporter.gql<{ reporterSubmission: { reportID: string; completed: boolean } }>(OWN_REPORT)).data?.reporterSubmission).toEqual({ reportID: before.reportID, completed: true });
    await sendMessage(reporter, "Sent to the new instance");
    expect(await messagesOn(newStaff, before)).toEqual(["Sent before the upgrade", "Sent to the new instance"]);
    expect(await messagesOn(oldStaff, before, "plain or sealed")).toEqual(["Sent before the upgrade", "Sent to the new instance"]);
    // A staff member signed in on the old instance stays signed in when the balancer sends them to the new one.
    await expectStaffReadWhole(clientWithCookie(next.server, oldStaff.cookie), before);
  }, 60_000);

  test("the old instance reads what the new one wrote: its reports, their logins, staff's changes", async () => {
    const sentToNew = await sendReport(next);
    await expectStaffReadWhole(oldStaff, sentToNew, "plain or sealed");
    const reporter = await reporterOn(old, sentToNew);
    expect((await reporter.gql<{ reporterSubmission: { reportID: string; completed: boolean } }>(OWN_REPORT)).data?.reporterSubmission).toEqual({ reportID: sentToNew.reportID, completed: true });

    const newStaff = await loginAs(next.server, OWNER, DEMO_PASSWORD);
    expect((await newStaff.gql(JOIN, { id: sentToNew.submissionId })).errors).toBeUndefined();
    expect((await newStaff.gql<{ reportSubmissionSetPriority: { priority: string } }>(PRIORITY, { id: sentToNew.submissionId, priority: "High" })).data?.reportSubmissionSetPriority.priority).toBe("High");
    expect((await staffView(oldStaff, sentToNew)).priority).toBe("High");
    // A staff member signed in on the new instance is signed in on the old one too.
    expect((await staffView(clientWithCookie(old.server, newStaff.cookie), sentToNew)).reportID).toBe(sentToNew.reportID);
  }, 60_000);
});

async function tableExists(name: string): Promise<boolean> {
  const [row] = resultRows<{ exists: boolean }>(await database!.db.execute(sql`select to_regclass(${`public.${name}`}) is not null as exists`));
  return row!.exists;
}
