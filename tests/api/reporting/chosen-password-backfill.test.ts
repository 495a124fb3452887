import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import { seedDemo } from "../../../db/seed/demo.ts";
import { reportSubmissions } from "../../../db/schema/index.ts";
import { hashPassword } from "../../../api/lib/passwords.ts";
import { demoForm, ReporterClient, submitReport } from "../../helpers/reporter.ts";
import { startTestServer, type TestServer } from "../../helpers/server.ts";

/**
 * Reports whose reporter changed the password before `password_chosen` existed: the migration that
 * added the column marks them from the audit log, so the password they chose keeps working.
 */
const MIGRATIONS = join(import.meta.dir, "..", "..", "..", "db", "migrations");
const backfillSql = () => {
  const folder = readdirSync(MIGRATIONS).find((name) => name.endsWith("_reporter_password_chosen_backfill"))!;
  return readFileSync(join(MIGRATIONS, folder, "migration.sql"), "utf8");
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
});
afterAll(() => server.stop());

const login = (reportID: string, password: string) =>
  new ReporterClient(server, "demo.localhost").fetch("/api/auth/report_login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ reportID, password }) });

test("a password a reporter chose before the column existed still opens the report after the backfill", async () => {
  const { form, widgets } = await demoForm(server, "demo", "Workplace Misconduct Report");
  const reporter = new ReporterClient(server, "demo.localhost");
  const { reportID, generatedPassword } = await submitReport(reporter, form.id, widgets);
  const changed = await reporter.gql<{ userReportSubmissionChangePassword: boolean }>(
    `mutation ($o: String!, $n: String!) { userReportSubmissionChangePassword(oldPassword: $o, newPassword: $n) }`,
    { o: generatedPassword, n: "my own words 42" },
  );
  expect(changed.data?.userReportSubmissionChangePassword).toBe(true);
  // As an older release left it: the chosen password's hash, but no mark that it was chosen.
  await server.db.update(reportSubmissions).set({ passwordHash: await hashPassword("my own words 42"), passwordChosen: false }).where(eq(reportSubmissions.reportId, reportID));
  expect((await login(reportID, "my own words 42")).status).toBe(401);

  await server.db.execute(sql.raw(backfillSql()));
  expect((await login(reportID, "my own words 42")).status).toBe(200);
  // A report whose password was never changed keeps being read as a generated one.
  const other = await submitReport(new ReporterClient(server, "demo.localhost"), form.id, widgets);
  expect((await login(other.reportID, other.generatedPassword.toLowerCase())).status).toBe(200);
});
