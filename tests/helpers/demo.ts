import { eq } from "drizzle-orm";
import { organisations, reportSubmissions } from "../../db/schema/index.ts";
import { seedDemo } from "../../db/seed/demo.ts";
import { DEMO_PASSWORD } from "../../db/seed/demo-accounts.ts";
import { startTestServer, type TestServer } from "./server.ts";
import { demoStaff, loginAs } from "./session.ts";
import { demoForm, ReporterClient, submitReport } from "./reporter.ts";

/** The seeded demo organisations' ids. */
export async function demoOrganisationIds(server: TestServer): Promise<{ demoId: string; northwindId: string }> {
  const orgs = await server.db.select().from(organisations);
  return { demoId: orgs.find((o) => o.slug === "demo")!.id, northwindId: orgs.find((o) => o.slug === "northwind")!.id };
}

/** A server with the demo data, Demo's staff signed in, Northwind's owner, and both organisations' ids. */
export async function startDemoWithStaff(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  await seedDemo(server.db);
  const [as, northwind, ids] = await Promise.all([demoStaff(server), loginAs(server, "owner@northwind.test", DEMO_PASSWORD), demoOrganisationIds(server)]);
  return { server, as, northwind, ...ids };
}

/** The demo server with staff signed in, and a reporter signed in to a report they have just sent on Demo's main form. */
export async function startDemoWithReporter(options: Parameters<typeof startTestServer>[0] = {}) {
  const demo = await startDemoWithStaff(options);
  const { form, widgets } = await demoForm(demo.server, "demo", "Workplace Misconduct Report");
  const credentials = await submitReport(new ReporterClient(demo.server, "demo.localhost"), form.id, widgets);
  const reporter = new ReporterClient(demo.server, "demo.localhost");
  await reporter.post("/api/auth/report_login", { reportID: credentials.reportID, password: credentials.generatedPassword });
  const [submission] = await demo.server.db.select({ id: reportSubmissions.id }).from(reportSubmissions).where(eq(reportSubmissions.reportId, credentials.reportID));
  return { ...demo, reporter, submissionId: submission!.id, reportID: credentials.reportID };
}
